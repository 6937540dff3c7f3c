# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#   http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing,
# software distributed under the License is distributed on an
# "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
# KIND, either express or implied.  See the License for the
# specific language governing permissions and limitations
# under the License.
"""Wrong fixes of the SplitHostDevice-changes-its-input report: variants of
bugs/split_host_device_inplace/reference_fix.py."""

from harness import input_copy as _input_copy
from harness import input_copy_mistakes as _mistakes

WRONG_FIXES = {
    "copy-drops-module-attributes": "the copy is a new module of the same functions: the "
    "module's attributes and global infos are lost in the output",
    "one-function-only": "CopyOnWrite only for a module of one function: a module of "
    "several functions is still changed in place",
    "host-functions-written-back": "CopyOnWrite only before the kernels are added: the given "
    "module's own functions are still rewritten in place",
    "blind-kernels-written-back": (
        "the host functions go to the copy, but the kernels the pass creates are also added to "
        "the input module (one of the two writes left on the input)"
    ),
    "blind-copy-after-write": (
        "the pass runs on the input and the copy is taken of its result (copied after the write)"
    ),
    "blind-without-global-infos": (
        "the copy is a new module of the input's functions and attributes: its global infos "
        "are dropped"
    ),
    "blind-only-under-immutable-option": (
        "copies only under the testing.immutable_module option (the symptom the report shows); "
        "elsewhere the input is still written"
    ),
    "blind-only-several-functions": (
        "copies only a module of several functions; a module of one function is written in place"
    ),
    "blind-option-kept-for-inner": (
        "runs the pass on a copy without lifting testing.immutable_module for the inner pass: "
        "every checked compile stops in it"
    ),
    "blind-written-functions-only": (
        "returns a module of the functions the pass wrote (and the kernels) only: functions "
        "without a kernel are dropped"
    ),
}


def _host_functions_written_back(inner, mod):
    after = _input_copy.run(inner, mod)
    for gvar in mod.get_global_vars():
        mod.update_func(gvar, after[gvar.name_hint])
    return after


# Wrong fixes written blind (from the reference fix and the patch alone); those that are
# mistakes of the shared copy itself are harness/input_copy_mistakes.py.


def _blind_kernels_written_back(inner, mod):
    result = _input_copy.run(inner, mod)
    for gvar, func in result.functions.items():
        if gvar not in mod.functions:  # a kernel the pass created
            mod.update_func(gvar, func)
    return result


PATCHES = {
    "copy-drops-module-attributes": {
        "run": _mistakes.rebuilt_copy(attrs=False, global_infos=False, option_lifted=False)
    },
    "one-function-only": {"run": _mistakes.one_function_only},
    "host-functions-written-back": {"run": _host_functions_written_back},
    "blind-kernels-written-back": {"run": _blind_kernels_written_back},
    "blind-copy-after-write": {"run": _mistakes.copy_after_write},
    "blind-without-global-infos": {"run": _mistakes.without_global_infos},
    "blind-only-under-immutable-option": {"run": _mistakes.only_under_immutable_option},
    "blind-only-several-functions": {"run": _mistakes.several_functions_only},
    "blind-option-kept-for-inner": {"run": _mistakes.option_kept_for_inner},
    "blind-written-functions-only": {
        "run": _mistakes.written_functions_only(one_function_kept=False)
    },
}

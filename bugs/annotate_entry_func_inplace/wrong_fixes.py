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
"""Wrong fixes of the AnnotateEntryFunc-changes-its-input report: variants of
bugs/annotate_entry_func_inplace/reference_fix.py."""

from harness import input_copy as _input_copy
from harness import input_copy_mistakes as _mistakes

WRONG_FIXES = {
    "copy-drops-module-attributes": "the copy is a new module of the same functions: the "
    "module's attributes and global infos are lost in the output",
    "one-function-branch-only": "CopyOnWrite in the one-function branch only: the entry among "
    "several functions is still marked in the given module",
    "blind-several-functions-only": (
        "copies only a module of several functions (the public-among-private branch); a module "
        "of one function is written in place"
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
    "blind-one-public-function-only": (
        "copies only when exactly one function is public (has a global_symbol): a module of one "
        "private function is written in place"
    ),
    "blind-option-kept-for-inner": (
        "runs the pass on a copy without lifting testing.immutable_module for the inner pass: "
        "every checked compile stops in it"
    ),
    "blind-annotated-function-only": (
        "the several-function branch returns a module of the annotated function alone: the "
        "private functions beside it are dropped"
    ),
}


# Wrong fixes written blind (from the reference fix and the patch alone); those that are
# mistakes of the shared copy itself are harness/input_copy_mistakes.py.


def _blind_one_public_function_only(inner, mod):
    public = [
        gvar
        for gvar, func in mod.functions.items()
        if func.attrs is not None and "global_symbol" in func.attrs
    ]
    if len(public) == 1:
        return _input_copy.run(inner, mod)
    return inner(mod)


PATCHES = {
    "copy-drops-module-attributes": {
        "run": _mistakes.rebuilt_copy(attrs=False, global_infos=False, option_lifted=False)
    },
    "one-function-branch-only": {"run": _mistakes.one_function_only},
    "blind-several-functions-only": {"run": _mistakes.several_functions_only},
    "blind-copy-after-write": {"run": _mistakes.copy_after_write},
    "blind-without-global-infos": {"run": _mistakes.without_global_infos},
    "blind-only-under-immutable-option": {"run": _mistakes.only_under_immutable_option},
    "blind-one-public-function-only": {"run": _blind_one_public_function_only},
    "blind-option-kept-for-inner": {"run": _mistakes.option_kept_for_inner},
    "blind-annotated-function-only": {
        "run": _mistakes.written_functions_only(one_function_kept=True)
    },
}

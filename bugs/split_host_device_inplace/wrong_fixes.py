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

from bugs.split_host_device_inplace import reference_fix as fix
from harness import input_copy as _input_copy
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "copy-drops-module-attributes": "the copy is a new module of the same functions: the "
    "module's attributes and global infos are lost in the output",
    "one-function-only": "CopyOnWrite only for a module of one function: a module of "
    "several functions is still changed in place",
    "host-functions-written-back": "CopyOnWrite only before the kernels are added: the given "
    "module's own functions are still rewritten in place",
}


def _host_functions_written_back(inner, mod):
    after = _input_copy.run(inner, mod)
    for gvar in mod.get_global_vars():
        mod.update_func(gvar, after[gvar.name_hint])
    return after


def _copy_without_attributes(inner, mod):
    return inner(type(mod)(dict(mod.functions.items())))


def _one_function_only(inner, mod):
    return _input_copy.run(inner, mod) if len(mod.functions) == 1 else inner(mod)


_PATCHES = {
    "copy-drops-module-attributes": {"run": _copy_without_attributes},
    "one-function-only": {"run": _one_function_only},
    "host-functions-written-back": {"run": _host_functions_written_back},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])

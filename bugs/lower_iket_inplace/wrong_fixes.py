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
"""Wrong fixes of the LowerIket-changes-its-input report: variants of
bugs/lower_iket_inplace/reference_fix.py."""

from bugs.lower_iket_inplace import reference_fix as fix
from harness import input_copy as _input_copy
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "copy-on-write-only": "CopyOnWrite before each write (as SplitHostDevice's fix), the loop "
    "still iterates the map it writes: where the pass holds the only reference (tvm.compile) a "
    "module of several marked kernels keeps the marks of all but the first",
    "strip-branch-only": "CopyOnWrite in the stripping loop only: an IKET-enabled module is "
    "still instrumented in place",
    "instrument-branch-only": "CopyOnWrite where the instrumented kernels are written only: "
    "the stripped functions still go into the given module",
    "copy-drops-module-attributes": "the copy is a new module of the same functions: the "
    "module's attributes and global infos are lost in the output",
}

# the reference fix's run: the wrong fixes below replace fix.run
_reference = fix.run


def _copy_on_write_only(inner, mod):
    # CopyOnWrite copies nothing where the pass holds the only reference (tvm.compile): the
    # released pass then writes the map it iterates. Modelled by the released pass on a copy
    # that owns a copy of the function map (a write of an unchanged function makes the copy).
    # Called directly on a module its caller holds, the C++ mistake copies the map at its
    # first write and strips every function; this model does not, so only the compile tests
    # are its faithful killers
    def on_an_owned_copy(copy):
        for gvar, func in list(copy.functions.items())[:1]:
            copy.update_func(gvar, func)
        return inner(copy)

    return _input_copy.run(on_an_owned_copy, mod)


def _strip_branch_only(inner, mod):
    return inner(mod) if fix.enabled(mod) else _reference(inner, mod)


def _instrument_branch_only(inner, mod):
    return _reference(inner, mod) if fix.enabled(mod) else inner(mod)


def _copy_without_attributes(inner, mod):
    return _reference(inner, type(mod)(dict(mod.functions.items())))


_PATCHES = {
    "copy-on-write-only": {"run": _copy_on_write_only},
    "strip-branch-only": {"run": _strip_branch_only},
    "instrument-branch-only": {"run": _instrument_branch_only},
    "copy-drops-module-attributes": {"run": _copy_without_attributes},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])

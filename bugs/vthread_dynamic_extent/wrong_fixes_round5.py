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
"""Blind round 5: wrong fixes of InjectVirtualThread's extent check (patch 0013).

Each replaces the reference fix's ``check(mod)`` by a variant whose test of a virtual thread's
extent, or whose walk to it, makes one mistake; an extent it lets through reaches the released
pass's null cast (SIGSEGV), and a constant it refuses is a valid program rejected."""

import tvm_ffi

from bugs.vthread_dynamic_extent import reference_fix as fix
from harness.wrong_fixes import patched_install
from tvm import tirx

WRONG_FIXES = {
    "blind5-vthread-tag-only": "tests the extent only where the tag starts with vthread "
    "(inside the allow_share branch): a cthread of non-constant extent still crashes",
    "blind5-outermost-first": "finds the offending attribute before visiting its body "
    "(pre-order): of nested non-constant virtual threads the outer one is named, not the "
    "inner one the mutator reaches first",
    "blind5-first-attr-only": "tests only the first virtual thread attribute of a function "
    "(the outermost): a non-constant virtual thread nested in a constant one still crashes",
    "blind5-first-function-only": "checks the module's first PrimFunc only: a non-constant "
    "extent in a second function still crashes",
    "blind5-var-only": "refuses an extent only when it is a Var (op->value.as<VarNode>()): an "
    "expression or a buffer load as extent still crashes",
    "blind5-int32-only": "accepts only an int32 IntImm (extent->dtype == int32): a valid "
    "constant extent of type int64 is refused",
    "blind5-dom-extent": "tests the IterVar's dom extent instead of the attribute's value: an "
    "attribute whose dom is constant but whose value is not still crashes",
}

UNSEEN = {
    "blind5-first-function-only": "as round 3's blind3-first-function-only: wherever it "
    "differs from the fix the released pass segfaults, so an in-process test dies instead of "
    "failing (proof: the child-process test's [second-function] case); the C++ check runs on "
    "every function",
    "blind5-var-only": "as round 4's blind4-vars-only: wherever it differs from the fix (an "
    "extent that is a load or an expression) the released pass segfaults in the test process",
    "blind5-dom-extent": "differs only where a virtual thread's IterVar domain disagrees with "
    "its attribute's value; TVMScript's launch_thread and TVM's lowering give the IterVar the "
    "domain [0, value), so no well-formed program tells the two apart",
}

_first_stop = fix.first_stop
_offending = fix.offending


def _raise_for(attr):
    if attr is not None and isinstance(attr.node, tirx.IterVar):
        raise ValueError(fix.message(attr.node.thread_tag, attr.value))


def _checker(stops):
    """A ``check`` that refuses the first attribute at which ``stops`` holds."""

    def check(mod):
        _raise_for(_first_stop(mod, stops))

    return check


def _virtual(attr):
    return attr.attr_key == fix.ATTR and isinstance(attr.node, tirx.IterVar)


def _vthread_tag_only(attr):
    return _offending(attr) and (
        not isinstance(attr.node, tirx.IterVar) or str(attr.node.thread_tag).startswith("vthread")
    )


def _var_only(attr):
    return _virtual(attr) and isinstance(attr.value, tirx.Var)


def _int32_only(attr):
    if not _virtual(attr):
        return _offending(attr)
    return not (isinstance(attr.value, tirx.IntImm) and str(attr.value.ty) == "int32")


def _dom_extent(attr):
    if not _virtual(attr):
        return _offending(attr)
    dom = attr.node.dom
    return dom is None or not isinstance(dom.extent, tirx.IntImm)


def _outermost_first(mod):
    for func in mod.functions.values():
        if not isinstance(func, tirx.PrimFunc):
            continue
        found = []

        def visit(attr, found=found):
            if not found and _offending(attr):
                found.append(attr)

        tvm_ffi.structural_walk(func.body, [(tirx.AttrStmt, visit)], order="pre")
        if found:
            _raise_for(found[0])
            return


def _first_attr_only(mod):
    for func in mod.functions.values():
        if not isinstance(func, tirx.PrimFunc):
            continue
        found = []

        def visit(attr, found=found):
            if not found and _virtual(attr):
                found.append(attr)

        tvm_ffi.structural_walk(func.body, [(tirx.AttrStmt, visit)], order="pre")
        if found and _offending(found[0]):
            _raise_for(found[0])


def _first_function_only(mod):
    for gv, func in mod.functions.items():
        if isinstance(func, tirx.PrimFunc):
            _raise_for(_first_stop(type(mod)({gv: func})))
            return


_CHECKS = {
    "blind5-vthread-tag-only": _checker(_vthread_tag_only),
    "blind5-outermost-first": _outermost_first,
    "blind5-first-attr-only": _first_attr_only,
    "blind5-first-function-only": _first_function_only,
    "blind5-var-only": _checker(_var_only),
    "blind5-int32-only": _checker(_int32_only),
    "blind5-dom-extent": _checker(_dom_extent),
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, {"check": _CHECKS[name]})

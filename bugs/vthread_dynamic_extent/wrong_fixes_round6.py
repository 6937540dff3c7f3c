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
"""Blind round 6: wrong fixes of vthread_dynamic_extent (patch 0013, InjectVirtualThread)."""

import tvm_ffi

from bugs.vthread_dynamic_extent import reference_fix as fix
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install
from tvm import sym, tirx

WRONG_FIXES = {
    "blind6-vt-vthread-tag-only": (
        "the extent is checked only for tags starting with 'vthread' (the allow_share test "
        "reused): a cthread with a non-constant extent still crashes the pass"
    ),
    "blind6-vt-load-extent-only": (
        "only an extent read from a buffer (the issue's L[0]) is refused: a parameter as "
        "extent still reaches the null cast"
    ),
    "blind6-vt-first-function-only": (
        "only the module's first PrimFunc is checked: a non-constant extent in the second "
        "function still crashes the pass"
    ),
    "blind6-vt-top-level-only": (
        "only the attribute chain at the top of a body is checked, not the virtual threads "
        "nested in a loop, if or sequence"
    ),
    "blind6-vt-int32-only": (
        "a constant extent is accepted only as an int32 IntImm: a valid int64 constant extent "
        "is refused"
    ),
    "blind6-vt-simplified-extent": (
        "the extent is simplified before the test: an expression that folds to a constant "
        "(n - n + 2) is accepted, and the released pass still dies on its null cast"
    ),
}

UNSEEN = {
    "blind6-vt-first-function-only": (
        "as round 3's blind3-first-function-only: wherever it differs from the fix the released "
        "pass segfaults, so an in-process test dies instead of failing (proof: the child-process "
        "test's [second-function] case); the C++ check runs on every function"
    ),
    "blind6-vt-top-level-only": (
        "wherever it differs from the fix (a virtual thread below another statement) the "
        "released pass segfaults in the test process"
    ),
    "blind6-vt-simplified-extent": (
        "wherever it differs from the fix (an extent that simplifies to a constant, n - n + 2) "
        "the released pass segfaults in the test process (proof: the child-process test's "
        "[vthread-simplifies-to-constant] case)"
    ),
    "blind6-vt-load-extent-only": (
        "as round 4's blind4-vars-only: wherever it differs from the fix (an extent that is a "
        "variable or an expression) the released pass segfaults in the test process"
    ),
}


def _offending_vthread_only(attr):
    if attr.attr_key != fix.ATTR:
        return False
    if isinstance(attr.node, tirx.IterVar) and not str(attr.node.thread_tag).startswith("vthread"):
        return False
    return fix.offending(attr)


def _offending_load_only(attr):
    if attr.attr_key != fix.ATTR:
        return False
    if not isinstance(attr.node, tirx.IterVar):
        return True
    return isinstance(attr.value, ir.LOADS)


def _first_stop_first_function(mod, stops=fix.offending):
    for func in mod.functions.values():
        if not isinstance(func, tirx.PrimFunc):
            continue
        found = []
        tvm_ffi.structural_walk(
            func.body,
            [(tirx.AttrStmt, lambda a: found.append(a) if not found and stops(a) else None)],
            order="post",
        )
        return found[0] if found else None  # the first PrimFunc only
    return None


def _first_stop_top_level(mod, stops=fix.offending):
    for func in mod.functions.values():
        if not isinstance(func, tirx.PrimFunc):
            continue
        found = []
        node = func.body
        while isinstance(node, tirx.AttrStmt):  # the chain at the top of the body
            if stops(node):
                found.append(node)
            node = node.body
        if found:
            return found[-1]  # the innermost, as the post-order walk finds it
    return None


def _offending_int32_only(attr):
    if attr.attr_key != fix.ATTR:
        return False
    if not isinstance(attr.node, tirx.IterVar):
        return True
    return not (isinstance(attr.value, tirx.IntImm) and str(attr.value.ty) == "int32")


def _offending_simplified(attr):
    if attr.attr_key != fix.ATTR:
        return False
    if not isinstance(attr.node, tirx.IterVar):
        return True
    return not isinstance(sym.Analyzer().simplify(attr.value), tirx.IntImm)


_FIRST_STOP = fix.first_stop


def _stopping_at(offending):
    """first_stop with another test of an attribute (the reference binds its own as default)."""
    return {"first_stop": lambda mod, stops=None: _FIRST_STOP(mod, offending)}


PATCHES = {
    "blind6-vt-vthread-tag-only": _stopping_at(_offending_vthread_only),
    "blind6-vt-load-extent-only": _stopping_at(_offending_load_only),
    "blind6-vt-first-function-only": {"first_stop": _first_stop_first_function},
    "blind6-vt-top-level-only": {"first_stop": _first_stop_top_level},
    "blind6-vt-int32-only": _stopping_at(_offending_int32_only),
    "blind6-vt-simplified-extent": _stopping_at(_offending_simplified),
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, PATCHES[name])

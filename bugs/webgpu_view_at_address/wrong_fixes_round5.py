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
"""Blind round 5: wrong fixes of WebGPU's refusal of a kernel's view at an address.

Each changes one step of bugs/webgpu_view_at_address/reference_fix.py."""

from bugs.webgpu_view_at_address import reference_fix as fix
from harness.tvm_line import WalkResult, ir, loaded, stored, walk
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-skips-if-branches": (
        "the search for the refused view does not descend into the branches of an if: a view "
        "declared under a condition keeps the released error"
    ),
    "blind5-first-kernel-only": (
        "only the module's first kernel is searched: a view at an address in a second kernel "
        "keeps the released error"
    ),
    "blind5-typeerror-only": (
        "the released error is taken to be the TypeError for every view: a shared view at an "
        "address (whose storage-scope InternalError comes first) keeps the InternalError"
    ),
    "blind5-shared-scope-only": (
        "only a 'shared' view is expected to meet the storage-scope InternalError: a 'local' "
        "view at an address keeps the InternalError"
    ),
    "blind5-element-zero-is-array": (
        "address_of(X[0]) is taken to name X itself: a view at element 0 keeps the released error"
    ),
    "blind5-any-error-converted": (
        "any refusal of a kernel holding a view at an address is turned into the view's "
        "ValueError, without checking it is the view's error: an int64 buffer's own "
        "InternalError is hidden"
    ),
    "blind5-accessed-views-only": (
        "the views are found through the loads and stores that access them: a view declared "
        "at an address and never accessed keeps the released error"
    ),
}


def _skips_if(func, names=None):
    names = names or fix.names_storage
    found = []

    def visit(node):
        if found:
            return WalkResult.SKIP
        if type(node).__name__ in ("IfThenElse", "If"):  # tvm, tvm-tirx
            return WalkResult.SKIP  # the mistake: an if's branches are not searched
        view = fix.views(node)
        if view is not None and not names(view[1]):
            found.append(view)
        return WalkResult.ADVANCE

    walk(func.body, visit, order="pre")
    return found


def _first_kernel_only(mod):
    for _, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            found = fix.refusal_in(func)
            return found[0] if found else None  # the mistake: the other kernels are skipped
    return None


def _typeerror_only(_view):
    return TypeError


def _shared_scope_only(view):
    import tvm
    from harness.tvm_line import scope_of

    return tvm.error.InternalError if scope_of(view) == "shared" else TypeError


def _element_zero_names(data):
    if fix.names_storage(data):
        return True
    # the mistake: &X[0] taken for X
    op = getattr(data, "op", None)
    if isinstance(data, ir.Call) and isinstance(op, ir.Op) and op.name == "tirx.address_of":
        load = data.args[0]
        indices = list(getattr(load, "indices", []))
        return bool(indices) and all(isinstance(i, ir.IntImm) and int(i) == 0 for i in indices)
    return False


def _element_zero_refusal_in(func, names=None):
    return _ORIGINAL_REFUSAL_IN(func, names or _element_zero_names)


def _any_error_converted(original):
    def build(mod, target):
        try:
            return original(mod, target)
        except fix.REFUSED:
            refused = fix.first_refusal(mod)
            if refused is None:  # the mistake: no check that the error is the view's
                raise
            raise ValueError(fix.refusal_message(*refused)) from None

    return build


def _accessed_only(func, names=None):
    names = names or fix.names_storage
    accessed = []

    def collect(node):
        if isinstance(node, ir.LOADS):
            accessed.append(loaded(node))
        elif isinstance(node, ir.Store):
            accessed.append(stored(node))
        return WalkResult.ADVANCE

    walk(func.body, collect, order="pre")
    found = []

    def visit(node):
        if found:
            return WalkResult.SKIP
        view = fix.views(node)
        if (
            view is not None
            and not names(view[1])
            and any(v is not None and view[0].same_as(v) for v in accessed)  # the mistake
        ):
            found.append(view)
        return WalkResult.ADVANCE

    walk(func.body, visit, order="pre")
    return found


_ORIGINAL_REFUSAL_IN = fix.refusal_in

_PATCHES = {
    "blind5-skips-if-branches": {"refusal_in": _skips_if},
    "blind5-first-kernel-only": {"first_refusal": _first_kernel_only},
    "blind5-typeerror-only": {"released_error": _typeerror_only},
    "blind5-shared-scope-only": {"released_error": _shared_scope_only},
    "blind5-element-zero-is-array": {"refusal_in": _element_zero_refusal_in},
    "blind5-any-error-converted": {"_fixed_build": _any_error_converted},
    "blind5-accessed-views-only": {"refusal_in": _accessed_only},
}

# no apache/tvm-tirx program tells these apart: there the released error is always the
# generator's own ValueError (no scope-dependent error, no TypeError)
NOT_ON_TVM_TIRX = {
    "blind5-typeerror-only": "tvm-tirx's released error is always its own ValueError",
    "blind5-shared-scope-only": "tvm-tirx's released error is always its own ValueError",
    "blind5-any-error-converted": (
        "tvm-tirx refuses a type WGSL lacks with a RuntimeError, which the wrapper never catches"
    ),
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it. On apache/tvm-tirx
    the released error is one ValueError, so the fixes of its kind (NOT_ON_TVM_TIRX's) are the
    reference fix there."""
    from harness.tvm_line import LINE

    if LINE != "tvm" and name in ("blind5-typeerror-only", "blind5-shared-scope-only"):
        return patched_install(fix, {})
    return patched_install(fix, _PATCHES[name])

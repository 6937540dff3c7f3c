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
"""Blind round 6: wrong fixes of WebGPU's refusal of a kernel's view at an address."""

from bugs.webgpu_view_at_address import reference_fix as fix
from harness.tvm_line import WalkResult, ir, walk
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-wva-first-kernel-only": "first_refusal looks at the module's first kernel only: a "
    "view at an address in a second kernel keeps the TypeError",
    "blind6-wva-any-call-names": "names_storage accepts any Call as data (buffer_data is a call): "
    "address_of is one too, so the view is not refused and the TypeError stays",
    "blind6-wva-scope-check-ignored": "the wrapper converts only the TypeError: a shared view at "
    "an address, which stops at CodeGenC's storage-scope InternalError first, keeps it",
    "blind6-wva-last-view": "refusal_in keeps walking and reports the last refused view of the "
    "kernel, not the first one the generator stops at",
    "blind6-wva-params-only-named": "only the kernel's parameters count as named storage: a view "
    "of a workgroup allocation is taken as the refused one, whose scope error is not what was "
    "raised, so the TypeError of the real view at an address stays",
    "blind6-wva-let-resolved": "a let-bound pointer is followed to its value: a view over a "
    "pointer a T.let binds to address_of (which compiles) is named as the refused view",
}

UNSEEN = {
    "blind6-wva-last-view": (
        "a step of the Python stand-in only: it names the refused view by searching the IR "
        "after the released generator fails; the C++ refuses the view its own walk meets first "
        "(the source build names the first of two views, and a view over a let-bound pointer "
        "compiles there), so only the named view could differ"
    ),
    "blind6-wva-let-resolved": (
        "a step of the Python stand-in only: it names the refused view by searching the IR "
        "after the released generator fails; the C++ refuses the view its own walk meets first "
        "(the source build names the first of two views, and a view over a let-bound pointer "
        "compiles there), so only the named view could differ"
    ),
}


def _first_kernel_only(mod):
    for _, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            found = fix.refusal_in(func)
            return found[0] if found else None
    return None


def _any_call(data):
    return isinstance(data, ir.Var | ir.Call)


def _last_view(func, names=None):
    names = names or fix.names_storage
    found = []

    def visit(node):
        view = fix.views(node)
        if view is not None and not names(view[1]):
            found[:] = [view]
        return WalkResult.ADVANCE

    walk(func.body, visit, order="pre")
    return found


def _params_only(mod):
    for _, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            params = {p.__chandle__() for p in func.params}

            def names(data, params=params):
                return isinstance(data, ir.Var) and data.__chandle__() in params

            found = fix.refusal_in(func, names)
            if found:
                return found[0]
    return None


def _let_resolved(mod):
    for _, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            lets = {}

            def collect(node):
                if isinstance(node, ir.Bind):
                    lets[node.var.__chandle__()] = node.value
                return WalkResult.ADVANCE

            walk(func.body, collect, order="pre")

            def names(data, lets=lets):
                if isinstance(data, ir.Var) and data.__chandle__() in lets:
                    data = lets[data.__chandle__()]
                return fix.names_storage(data)

            found = fix.refusal_in(func, names)
            if found:
                return found[0]
    return None


PATCHES = {
    "blind6-wva-first-kernel-only": {"first_refusal": _first_kernel_only},
    "blind6-wva-any-call-names": {"names_storage": _any_call},
    "blind6-wva-scope-check-ignored": {"released_error": lambda _view: TypeError},
    "blind6-wva-last-view": {"refusal_in": _last_view},
    "blind6-wva-params-only-named": {"first_refusal": _params_only},
    "blind6-wva-let-resolved": {"first_refusal": _let_resolved},
}


def install(name):
    return patched_install(fix, PATCHES[name])

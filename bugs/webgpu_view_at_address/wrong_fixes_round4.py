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
"""Blind round 4: wrong fixes of the WebGPU view-at-an-address report (patch 0015).

Each is the reference fix (reference_fix.py) with one mistake an engineer implementing
patch 0015 could make; bugs/webgpu_view_at_address/demos_round4.py (apache/tvm) and
demos_round4_tirx.py (apache/tvm-tirx) show each on a program.
"""

from bugs.webgpu_view_at_address import reference_fix as fix
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind4-var-only": "only a variable counts as storage the kernel names, not buffer_data "
    "of one: a valid view over A.data ahead of the address view is named instead",
    "blind4-params-only": "only a kernel parameter (or its data) counts as named storage, not "
    "an allocation or another view: a valid view of a shared allocation is named instead",
    "blind4-scope-ignored": "the released error is taken to be the TypeError whatever the "
    "view's scope: a shared view at an address keeps the storage-scope InternalError",
    "blind4-any-refusal": "the released error is not matched at all: a kernel refused earlier "
    "for another reason (a float64 buffer) is reported as the view's ValueError",
    "blind4-first-kernel-only": "only the module's first kernel is searched: a view at an "
    "address in a second kernel keeps the released error",
    "blind4-address-of-only": "only data that is address_of(...) is refused: a view over other "
    "pointer arithmetic (ptr_byte_offset of A.data) keeps the released error",
}

# tvm-tirx: the wrong fixes no program of that line tells apart from the reference fix
NOT_ON_TVM_TIRX = {
    "blind4-scope-ignored": "tvm-tirx's generator raises its own ValueError at every view, "
    "whatever its scope (released_error is ValueError there)",
    "blind4-any-refusal": "tvm-tirx raises RuntimeError for the other refusals (a type it "
    "lacks), which neither fix catches: both re-raise it",
}


def _var_only(data):
    return isinstance(data, ir.Var)


def _params_only(original):
    def refusal_in(func, _names=None):
        params = list(func.params)

        def names(data):
            if not fix.names_storage(data):
                return False
            var = data if isinstance(data, ir.Var) else data.args[0]
            return any(var.same_as(p) for p in params)

        return original(func, names)

    return refusal_in


def _always_type_error(_view):
    return fix.REFUSED[0]


def _first_refusal_first_kernel(mod):
    for _, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            found = fix.refusal_in(func)
            return found[0] if found else None
    return None


def _any_refusal(original):
    def build(mod, target):
        try:
            return original(mod, target)
        except fix.REFUSED:
            refused = fix.first_refusal(mod)
            if refused is None:
                raise
            raise ValueError(fix.refusal_message(*refused)) from None

    return build


def _address_of_only(data):
    is_address = (
        isinstance(data, ir.Call)
        and isinstance(data.op, ir.Op)
        and data.op.name == "tirx.address_of"
    )
    return not is_address


def _refusal_in_with(names):
    original = fix.refusal_in

    def refusal_in(func, _names=None):
        return original(func, names)

    return refusal_in


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    patches = {
        "blind4-var-only": {"refusal_in": _refusal_in_with(_var_only)},
        "blind4-params-only": {"refusal_in": _params_only(fix.refusal_in)},
        "blind4-scope-ignored": {"released_error": _always_type_error},
        "blind4-any-refusal": {"_fixed_build": _any_refusal},
        "blind4-first-kernel-only": {"first_refusal": _first_refusal_first_kernel},
        "blind4-address-of-only": {"refusal_in": _refusal_in_with(_address_of_only)},
    }[name]
    return patched_install(fix, patches)

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
"""Wrong fixes of the webgpu_view_at_address report: variants of its reference fix.

Each changes one step of bugs/webgpu_view_at_address/reference_fix.py (which views name a
storage array, where the refusal is decided, the error it raises) and installs it as usual.
A view the wrong fix leaves alone keeps the released error, as the C++ it models would; one
it refuses that the released generator compiles is refused before the build runs, as a
narrower C++ check would refuse it when the generator reaches it.
"""

from bugs.webgpu_view_at_address import reference_fix as fix
from harness import tvm_line

WRONG_FIXES = {
    "variable-only": "only a variable names a storage array: a view over buffer_data of an "
    "allocation (or of another view) is refused",
    "parameters-only": "only the kernel's parameters name storage arrays: a view of a shared "
    "allocation is refused",
    "array-start-allowed": "a view at the address of element 0 counts as the array itself and "
    "is let through, where the generator still cannot print it",
    "checked-at-load": "the view is refused where it is loaded, not where it is declared: a "
    "view that is only written keeps the TypeError",
    "type-error": "the refusal is a TypeError with the new message, not a ValueError",
    "view-not-named": "the ValueError names neither the view nor its data",
}

_NAMES_STORAGE = fix.names_storage
_REFERENCE_BUILD = fix._fixed_build
_FIRST_REFUSAL = fix.first_refusal


def _variable_only(_func):
    return lambda data: isinstance(data, fix.ir.Var)


def _parameters_only(func):
    params = list(func.params)

    def names(data):
        if not _NAMES_STORAGE(data):
            return False
        source = data if isinstance(data, fix.ir.Var) else data.args[0]
        return any(source.same_as(p) for p in params)

    return names


def _refusing_first(names_of):
    """The reference build wrapper behind a check that refuses, before the build, the first
    view ``names_of(kernel)`` does not accept."""

    def fixed_build(original):
        reference = _REFERENCE_BUILD(original)

        def build(mod, target):
            for _, func in mod.functions.items():
                if isinstance(func, fix.ir.PrimFunc):
                    found = fix.refusal_in(func, names_of(func))
                    if found and found[0] is not None:
                        raise ValueError(fix.refusal_message(*found[0]))
            return reference(mod, target)

        return build

    return fixed_build


def _array_start_allowed(data):
    if _NAMES_STORAGE(data):
        return True
    if isinstance(data, fix.ir.Call) and data.op.name == "tirx.address_of":
        indices = list(data.args[0].indices)
        return all(isinstance(i, fix.ir.IntImm) and int(i) == 0 for i in indices)
    return False


def _loaded(func):
    """The variables ``func`` loads from."""
    loaded = []

    def visit(node):
        if isinstance(node, fix.ir.LOADS):
            loaded.append(tvm_line.loaded(node))
        return fix.WalkResult.ADVANCE

    fix.walk(func.body, visit, order="pre")
    return loaded


def _first_refusal_at_load(mod):
    found = _FIRST_REFUSAL(mod)
    if found is None:
        return None
    for _, func in mod.functions.items():
        if isinstance(func, fix.ir.PrimFunc) and any(
            v is not None and found[0].same_as(v) for v in _loaded(func)
        ):
            return found
    return None


def _raising(kind, message=None):
    def fixed_build(original):
        def build(mod, target):
            try:
                return original(mod, target)
            except fix.REFUSED as err:
                refused = fix.first_refusal(mod)
                if refused is None or not isinstance(err, fix.released_error(refused[0])):
                    raise
                raise kind(message or fix.refusal_message(*refused)) from None

        return build

    return fixed_build


PATCHES = {
    "variable-only": {"_fixed_build": _refusing_first(_variable_only)},
    "parameters-only": {"_fixed_build": _refusing_first(_parameters_only)},
    "array-start-allowed": {"names_storage": _array_start_allowed},
    "checked-at-load": {"first_refusal": _first_refusal_at_load},
    "type-error": {"_fixed_build": _raising(TypeError)},
    "view-not-named": {
        "_fixed_build": _raising(
            ValueError, "CodeGenWebGPU: WGSL has no pointer casts; access the array directly"
        )
    },
}

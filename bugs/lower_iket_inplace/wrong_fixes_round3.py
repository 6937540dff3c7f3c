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
"""Third blind round: wrong fixes of lower_iket_inplace (LowerIket writing its input).

LowerIket writes its input and the function map it iterates (patches/0010). The C++ fix: the
stripping loop iterates a handle of the function map taken before it, and both branches write
through ``module.CopyOnWrite()``; the instrumenting branch collects every kernel first and
numbers the events of all of them together (for any nonzero ``tirx.iket.enabled``, on tvm-tirx
``cuda.iket.enabled``, or a run-iket child's environment). The reference fix
(``reference_fix.run``) runs the instrumenting branch on a copy, and the stripping branch on
each PrimFunc alone, writing the results into a copy. Each variant below replaces one step of
it; ``inner`` is the original pass."""

from bugs.lower_iket_inplace import reference_fix as fix
from harness import input_copy
from harness.tvm_line import ir

WRONG_FIXES = {
    "blind3-cow-without-map-handle": "writes through module.CopyOnWrite() but still iterates "
    "module->functions: where the pass holds the only reference (a compile) nothing is copied, "
    "the entry it rewrites moves to the end of the map, and the later kernels keep their marks",
    "blind3-handle-without-cow": "takes the handle of the map but still writes "
    "module->Update in the stripping loop: every kernel is stripped, and so is the caller's "
    "module",
    "blind3-instrument-in-place": "CopyOnWrite only in the stripping branch: with IKET enabled "
    "the instrumented kernels are written into the caller's module",
    "blind3-instrument-per-kernel": "instruments each kernel alone, as the stripping branch "
    "now runs: the events are numbered per kernel, so the second kernel's mark is event 1, "
    "not 2 (and the cross-kernel checks never run)",
    "blind3-enabled-only-when-one": "decides IKET enabled by tirx.iket.enabled == 1 instead of "
    "any nonzero value: with 2 the module is stripped kernel by kernel, each kernel "
    "instrumented alone (events renumbered from 1)",
    "blind3-enabled-ignores-child-env": "decides IKET enabled by the module attribute alone, "
    "not the environment of a verified run-iket child: there each kernel is instrumented "
    "alone (events renumbered from 1)",
    "blind3-result-prim-funcs-only": "builds the result from the PrimFuncs the loop visits "
    "(the loop's `continue` skips the others): a Relax or external function of the module "
    "is dropped",
}


_REFERENCE_RUN = fix.run  # the reference fix's run (a variant below replaces fix.run)


def _unchecked(inner, mod):
    """``inner`` on ``mod`` itself, outside the caller's testing.immutable_module option, as
    input_copy.run runs it on a copy."""
    return input_copy.run(lambda _none: inner(mod), _NoClone(mod))


class _NoClone:
    """``mod`` for input_copy.run, whose clone() hands nothing over (the pass gets ``mod``)."""

    def __init__(self, mod):
        self.mod = mod

    def clone(self):
        return None


def _fresh(mod):
    """A module like ``mod`` whose function map nobody else holds (as the module a pass holds
    the only reference to, inside a compile)."""
    return type(mod)(dict(mod.functions_items()), attrs=mod.attrs, global_infos=mod.global_infos)


def _cow_without_map_handle(inner, mod):
    if fix.enabled(mod):
        return input_copy.run(inner, mod)
    return _unchecked(inner, _fresh(mod))


def _handle_without_cow(inner, mod):
    out = _REFERENCE_RUN(inner, mod)
    if fix.enabled(mod):
        return out
    for gv, func in out.functions_items():
        if not func.same_as(mod[gv]):
            mod.update_func(gv, func)
    return mod


def _instrument_in_place(inner, mod):
    if fix.enabled(mod):
        return inner(mod)
    return _REFERENCE_RUN(inner, mod)


def _per_function(inner, mod):
    """The reference fix's stripping route, for either branch."""
    result = mod.clone()
    for gvar, func in mod.functions_items():
        if isinstance(func, ir.PrimFunc):
            lowered = fix.alone(inner, mod, gvar, func)
            if not lowered.same_as(func):
                result.update_func(gvar, lowered)
    return result


def _instrument_per_kernel(inner, mod):
    return _per_function(inner, mod)


def _enabled_only_when_one(mod):
    flag = mod.attrs.get(fix.ENABLED_ATTR) if mod.attrs is not None else None
    if flag is not None and int(flag) == 1:
        return True
    return fix.child_env()


def _enabled_ignores_child_env(mod):
    flag = mod.attrs.get(fix.ENABLED_ATTR) if mod.attrs is not None else None
    return flag is not None and int(flag) != 0


def _result_prim_funcs_only(inner, mod):
    if fix.enabled(mod):
        return input_copy.run(inner, mod)
    functions = {}
    for gvar, func in mod.functions_items():
        if isinstance(func, ir.PrimFunc):
            functions[gvar] = fix.alone(inner, mod, gvar, func)
    return type(mod)(functions, attrs=mod.attrs, global_infos=mod.global_infos)


PATCHES = {
    "blind3-cow-without-map-handle": {"run": _cow_without_map_handle},
    "blind3-handle-without-cow": {"run": _handle_without_cow},
    "blind3-instrument-in-place": {"run": _instrument_in_place},
    "blind3-instrument-per-kernel": {"run": _instrument_per_kernel},
    "blind3-enabled-only-when-one": {"enabled": _enabled_only_when_one},
    "blind3-enabled-ignores-child-env": {"enabled": _enabled_ignores_child_env},
    "blind3-result-prim-funcs-only": {"run": _result_prim_funcs_only},
}


# the wrong fixes no program of the apache/tvm-tirx line tells apart from the reference fix
NOT_ON_TVM_TIRX = {
    "blind3-result-prim-funcs-only": "tvm-tirx has no function type but the TIR function: a "
    "result built from TIR functions only is the whole module",
}

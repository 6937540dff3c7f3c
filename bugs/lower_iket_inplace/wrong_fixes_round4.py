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
"""Blind round 4: wrong fixes of LowerIket writing its input (patches/0010).

Each replaces one step of the reference fix's ``run`` (or its ``enabled``): the C++ mistake
it models is in its one line."""

from bugs.lower_iket_inplace import reference_fix as fix
from bugs.lower_iket_inplace.wrong_fixes import (
    _blind_enabled_by_attribute_only,
    _strip_branch_only,
)
from bugs.lower_iket_inplace.wrong_fixes_round2 import _run_always_per_function
from harness import input_copy as _input_copy
from harness.tvm_line import ir

# the reference steps, taken before any wrong fix replaces them
_REFERENCE_RUN = fix.run
_REFERENCE_ENABLED = fix.enabled

WRONG_FIXES = {
    "blind4-cow-without-map-handle": "writes through module.CopyOnWrite() but the stripping loop "
    "still iterates module->functions: where the pass holds the only reference (tvm.compile) the "
    "map it iterates is the one it writes, and the loop ends after the first kernel it strips",
    "blind4-strip-writes-input": "takes the map handle but the stripping branch still writes "
    "through module->Update: every kernel is stripped, and the caller's module with it",
    "blind4-instrument-writes-input": "CopyOnWrite only in the stripping branch: the instrumenting "
    "branch (tirx.iket.enabled) still writes the instrumented kernels into the caller's module",
    "blind4-enabled-only-one": "the branch is taken as instrumenting only for tirx.iket.enabled "
    "== 1 (True): with another nonzero value each kernel is instrumented alone, its events "
    "numbered from the first again",
    "blind4-enabled-ignores-child-env": "the branch is decided from the module attribute only: "
    "in a verified run-iket child's environment each kernel is instrumented alone, its events "
    "numbered from the first again",
    "blind4-instrument-per-kernel": "the instrumenting branch also runs kernel by kernel (as the "
    "stripping branch): the events of the kernels are numbered per kernel, not together",
    "blind4-result-drops-non-primfuncs": "the stripped module is built from the PrimFuncs it "
    "lowered (a fresh module with the input's attributes), dropping every other function "
    "(a Relax function) of the input",
}


# the wrong fixes no program of the apache/tvm-tirx line tells apart from the reference fix
NOT_ON_TVM_TIRX = {
    "blind4-result-drops-non-primfuncs": "tvm-tirx has no function type but the TIR function: "
    "a module built from the TIR functions the loop lowered is the whole module",
}


def _own_map(mod):
    """``mod``'s functions, attributes and global infos in a module whose function map no one
    else holds (as the pass's module is inside tvm.compile)."""
    functions = dict(mod.functions.items())
    return type(mod)(functions, attrs=mod.attrs, global_infos=mod.global_infos)


def _cow_without_map_handle(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    # the caller's module is left alone; the original loop runs on a map it writes
    return inner(_own_map(mod))


def _strip_writes_input(inner, mod):
    result = _REFERENCE_RUN(inner, mod)
    if not fix.enabled(mod):
        for gvar, func in result.functions.items():
            if not func.same_as(mod[gvar]):
                mod.update_func(gvar, func)  # module->Update: the caller's module
    return result


def _enabled_only_one(mod):
    flag = mod.attrs.get(fix.ENABLED_ATTR) if mod.attrs is not None else None
    if flag is not None and int(flag) != 0:
        return int(flag) == 1
    return _REFERENCE_ENABLED(mod)  # the run-iket child's environment


def _result_drops_non_primfuncs(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    lowered = {
        gvar: fix.alone(inner, mod, gvar, func)
        for gvar, func in mod.functions.items()
        if isinstance(func, ir.PrimFunc)
    }
    return type(mod)(lowered, attrs=mod.attrs, global_infos=mod.global_infos)


PATCHES = {
    "blind4-cow-without-map-handle": {"run": _cow_without_map_handle},
    "blind4-strip-writes-input": {"run": _strip_writes_input},
    "blind4-instrument-writes-input": {"run": _strip_branch_only},
    "blind4-enabled-only-one": {"enabled": _enabled_only_one},
    "blind4-enabled-ignores-child-env": {"enabled": _blind_enabled_by_attribute_only},
    "blind4-instrument-per-kernel": {"run": _run_always_per_function},
    "blind4-result-drops-non-primfuncs": {"run": _result_drops_non_primfuncs},
}

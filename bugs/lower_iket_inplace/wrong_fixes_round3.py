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
it; ``inner`` is the original pass.
"""

from bugs.lower_iket_inplace.wrong_fixes import EDITS as FIRST
from bugs.lower_iket_inplace.wrong_fixes import STRIP_RESULT, STRIP_RETURN
from bugs.lower_iket_inplace.wrong_fixes_round2 import EDITS as ROUND2

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


# the wrong fixes no program of the apache/tvm-tirx line tells apart from the reference fix
NOT_ON_TVM_TIRX = {
    "blind3-result-prim-funcs-only": "tvm-tirx has no function type but the TIR function: a "
    "result built from TIR functions only is the whole module",
}


# the released pass on a module of the input's functions, attributes and global infos whose
# function map nobody else holds (as the module a pass holds the only reference to, inside a
# compile): the stripping loop iterates the map it writes
OWN_MAP = "type(mod)(dict(mod.functions.items()), attrs=mod.attrs, global_infos=mod.global_infos)"


def written_back(returned):
    """The edit that writes the stripped functions into the caller's module too (module->Update)
    and returns ``returned`` ("mod" or "result")."""
    loop = (
        "    for gvar, func in result.functions.items():\n"
        "        if not func.same_as(mod[gvar]):\n"
        "            mod.update_func(gvar, func)\n"
    )
    return [(STRIP_RETURN, f"{loop}    return {returned}\n")]


# the stripping branch builds a new module of the functions it lowered, with the input's
# attributes and global infos
NEW_MODULE = (
    STRIP_RESULT,
    "    result = type(mod)({}, attrs=mod.attrs, global_infos=mod.global_infos)",
)

EDITS = {
    # outside the caller's testing.immutable_module option, as input_copy.run runs the pass
    "blind3-cow-without-map-handle": [
        (STRIP_RESULT, f"    return _input_copy.run(lambda _copy: inner({OWN_MAP}), mod)")
    ],
    "blind3-handle-without-cow": written_back("mod"),
    "blind3-instrument-in-place": FIRST["strip-branch-only"],
    "blind3-instrument-per-kernel": ROUND2["blind2-enabled-per-function"],
    "blind3-enabled-only-when-one": ROUND2["blind2-attr-equals-one"],
    "blind3-enabled-ignores-child-env": FIRST["blind-enabled-by-attribute-only"],
    "blind3-result-prim-funcs-only": [
        NEW_MODULE,
        (
            "            if not lowered.same_as(func):\n                result.update_func",
            "            if True:\n                result.update_func",
        ),
    ],
}

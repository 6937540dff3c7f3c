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
it models is in its one line.
"""

from bugs.lower_iket_inplace.wrong_fixes import EDITS as FIRST
from bugs.lower_iket_inplace.wrong_fixes import STRIP_RESULT
from bugs.lower_iket_inplace.wrong_fixes_round2 import EDITS as ROUND2
from bugs.lower_iket_inplace.wrong_fixes_round3 import EDITS as ROUND3
from bugs.lower_iket_inplace.wrong_fixes_round3 import OWN_MAP, written_back

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


# the released pass on a module whose function map is its own, in the caller's context
OWN_MAP_IN_CONTEXT = [(STRIP_RESULT, f"    return inner({OWN_MAP})")]

EDITS = {
    "blind4-cow-without-map-handle": OWN_MAP_IN_CONTEXT,
    "blind4-strip-writes-input": written_back("result"),
    "blind4-instrument-writes-input": FIRST["strip-branch-only"],
    "blind4-enabled-only-one": [("        return True\n", "        return int(flag) == 1\n")],
    "blind4-enabled-ignores-child-env": FIRST["blind-enabled-by-attribute-only"],
    "blind4-instrument-per-kernel": ROUND2["blind2-enabled-per-function"],
    "blind4-result-drops-non-primfuncs": ROUND3["blind3-result-prim-funcs-only"],
}

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
"""Programs on which LowerIket's reference fix and blind wrong fixes differ, on apache/tvm-tirx
(harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py --bug
lower_iket_inplace), every round's.

demos.py's entries, their programs made of this line's kernel, with demos.py's observers; each
entry's comment is there. IKET is enabled here by the module attribute cuda.iket.enabled
(tirx.iket.enabled on apache/tvm), any nonzero value, or a verified run-iket child's environment
(this line's variables). The wrong fixes that wrong_fixes_round*.NOT_ON_TVM_TIRX names are left
out here, and round 7's of a module's global infos (tvm-tirx 0.1.0a4 registers no GlobalInfo
that Python can make)."""

import sys

from bugs.lower_iket_inplace.demos import LOWERED, TWO, entries, kernels_of
from harness.blind_demo import Demo, without

ENABLED = "cuda.iket.enabled"
RUN_IKET_CHILD = {
    "TVM_TIRX_IKET_INJECTED_CHILD_ENABLE": "1",
    "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
    "IKET_INJECTION_CONFIG": "/nonexistent/config.json",
}


def marked_kernel(mark):
    """A private cuda kernel of 32 threads with the IKET mark ``mark``."""
    from tvm_tirx.script import tirx as T

    @T.function(private=True)
    def kernel(A: T.Tensor((32,), "int32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
        with T.launch_thread("threadIdx.x", 32) as tx:
            T.cuda.iket_mark(mark)
            A[tx] = A[tx] + 1

    return kernel


def host_function():
    """An unmarked llvm host function."""
    from tvm_tirx.script import tirx as T

    @T.function
    def host(A: T.Tensor((32,), "int32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(32):
            A[i] = 0

    return host


DEMOS = {
    # round 1
    "blind-enabled-by-attribute-only": Demo(
        kernels_of(sys.modules[__name__])(TWO, child=True), LOWERED
    ),
    **without(
        entries(sys.modules[__name__]),
        "blind3-result-prim-funcs-only",
        "blind4-result-drops-non-primfuncs",
        "blind7-copy-drops-global-infos",
    ),
}

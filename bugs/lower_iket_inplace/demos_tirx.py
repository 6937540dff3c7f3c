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

demos.py's programs made of this line's kernel, with demos.py's observers; each entry's
comment is there. IKET is enabled here by the module attribute cuda.iket.enabled (tirx.iket.enabled
on apache/tvm), any nonzero value, or a verified run-iket child's environment (this line's
variables). The wrong fixes that wrong_fixes_round*.NOT_ON_TVM_TIRX names have no demo here,
nor round 7's of a module's global infos (tvm-tirx 0.1.0a4 registers no GlobalInfo that
Python can make)."""

import sys

from bugs.lower_iket_inplace.demos import (
    CHECKED,
    FIVE,
    INPUT,
    LOWERED,
    ONE,
    OUTPUT,
    TWO,
    kernels_of,
)
from harness.blind_demo import Demo

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


kernels = kernels_of(sys.modules[__name__])

DEMOS = {
    # round 1
    "blind-enabled-by-attribute-only": Demo(kernels(TWO, child=True), LOWERED),
    # round 2
    "blind2-enabled-per-function": Demo(kernels(TWO, 1), LOWERED),
    "blind2-enabled-attr-only": Demo(kernels(TWO, child=True), LOWERED),
    "blind2-attr-equals-one": Demo(kernels(TWO, 2), LOWERED),
    "blind2-result-not-cloned": Demo(kernels(TWO), LOWERED),
    "blind2-enabled-no-copy": Demo(kernels(TWO, 1), LOWERED),
    "blind2-enabled-unguarded": Demo(kernels(TWO, 1), CHECKED),
    "blind2-alone-unguarded": Demo(kernels(TWO), CHECKED),
    # round 3
    "blind3-cow-without-map-handle": Demo(kernels(FIVE), LOWERED),
    "blind3-handle-without-cow": Demo(kernels(TWO), LOWERED),
    "blind3-instrument-in-place": Demo(kernels(TWO, 1), LOWERED),
    "blind3-instrument-per-kernel": Demo(kernels(TWO, 1), LOWERED),
    "blind3-enabled-only-when-one": Demo(kernels(TWO, 2), LOWERED),
    "blind3-enabled-ignores-child-env": Demo(kernels(TWO, child=True), LOWERED),
    # round 4
    "blind4-cow-without-map-handle": Demo(kernels(FIVE), OUTPUT),
    "blind4-strip-writes-input": Demo(kernels(ONE), INPUT),
    "blind4-instrument-writes-input": Demo(kernels(ONE, 1), INPUT),
    "blind4-enabled-only-one": Demo(kernels(TWO, 2), OUTPUT),
    "blind4-enabled-ignores-child-env": Demo(kernels(TWO, child=True), OUTPUT),
    "blind4-instrument-per-kernel": Demo(kernels(TWO, 1), OUTPUT),
    # round 5
    "blind5-cow-no-snapshot": Demo(kernels(FIVE), OUTPUT),
    "blind5-snapshot-no-cow": Demo(kernels(TWO), INPUT),
    "blind5-instrument-in-place": Demo(kernels(TWO, 1), INPUT),
    "blind5-enabled-exact-one": Demo(kernels(TWO, 2), OUTPUT),
    "blind5-child-env-ignored": Demo(kernels(TWO, symbol="same_kernel", child=True), OUTPUT),
    "blind5-new-module-of-stripped": Demo(kernels(ONE, host=host_function), OUTPUT),
    # round 6
    "blind6-iket-enabled-inplace": Demo(kernels(TWO, 1), INPUT),
    "blind6-iket-copy-without-handle": Demo(kernels(FIVE), OUTPUT),
    "blind6-iket-handle-without-copy": Demo(kernels(ONE), INPUT),
    "blind6-iket-enabled-attr-present": Demo(kernels(TWO, 0), OUTPUT),
    "blind6-iket-enabled-equals-one": Demo(kernels(TWO, 2), OUTPUT),
    "blind6-iket-result-drops-attrs": Demo(kernels(TWO, attrs={"device": "gpu"}), OUTPUT),
    # round 7
    "blind7-cow-strip-branch-only": Demo(kernels(TWO, 1), INPUT),
    "blind7-cow-instrument-branch-only": Demo(kernels(ONE), INPUT),
    "blind7-no-map-handle": Demo(kernels(FIVE), OUTPUT),
    "blind7-copy-drops-attrs": Demo(kernels(ONE, attrs={"demo.flag": 7}), OUTPUT),
    "blind7-local-copy-strip": Demo(kernels(TWO), OUTPUT),
}

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
"""Blind round 9: programs on which lower_iket_inplace's round-9 wrong fixes differ from the
reference fix (apache/tvm; demos_round9_tirx.py runs the same demos on that line's kernels)."""

from harness.blind_demo import Demo


def two_kernels():
    """Two marked CUDA kernels, as SplitHostDevice leaves them, in a module with an attribute
    (IKET not enabled: stripped)."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func(private=True)
    def kernel(A: T.Buffer((32,), "int32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
        tx = T.launch_thread("threadIdx.x", 32)
        T.cuda.iket.mark("store")
        A[tx] = A[tx] + 1

    return tvm.IRModule({"k0": kernel, "k1": kernel}, attrs={"note": "keep"})


def two_kernels_iket():
    """The same with IKET enabled (tirx.iket.enabled): instrumented."""
    return two_kernels().with_attr("tirx.iket.enabled", 1)


def _lower(mod):
    from tvm.backend.cuda.transforms import LowerIket

    return LowerIket()(mod)


def demos(two_kernels, two_kernels_iket, lower):
    """The demos on one line's builders: ``two_kernels()`` a module of two marked kernels and
    an attribute, ``two_kernels_iket()`` the same with IKET enabled, ``lower(mod)`` the
    line's LowerIket on ``mod``."""

    def input_after(mod):
        """Observer: the input module as it is after LowerIket ran on it."""
        lower(mod)
        return mod.script()

    def output(mod):
        """Observer: the module LowerIket returns."""
        return lower(mod).script()

    return {
        "blind9-strip-writes-input": Demo(two_kernels, input_after),
        "blind9-instrument-writes-input": Demo(two_kernels_iket, input_after),
        "blind9-copy-per-kernel": Demo(two_kernels, output),
        "blind9-strip-returns-input": Demo(two_kernels, output),
        "blind9-strip-copy-drops-attrs": Demo(two_kernels, output),
        "blind9-instrument-copy-drops-attrs": Demo(two_kernels_iket, output),
        "blind9-only-immutable": Demo(two_kernels, input_after),
    }


DEMOS = demos(two_kernels, two_kernels_iket, _lower)

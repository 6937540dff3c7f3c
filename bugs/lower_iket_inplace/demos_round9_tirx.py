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
"""Blind round 9: lower_iket_inplace's round-9 demos on apache/tvm-tirx (demos_round9.py's
demos on this line's kernels: SplitHostDevice's output of a function with two marked
kernels)."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from bugs.lower_iket_inplace.demos_round9 import demos


@T.function
def _main(A: T.Tensor((32,), "int32")):  # two kernels, each with an IKET mark
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a", "host": "llvm"})})
    with T.launch_thread("threadIdx.x", 32):
        T.cuda.iket_mark("first")
    with T.launch_thread("threadIdx.x", 32):
        T.cuda.iket_mark("second")


def two_kernels():
    """Two marked kernels in a module with an attribute (IKET not enabled: stripped)."""
    mod = tvm_tirx.IRModule({"main": _main}, attrs={"note": "keep"})
    return tvm_tirx.tirx.transform.SplitHostDevice()(mod)


def two_kernels_iket():
    """The same with IKET enabled (cuda.iket.enabled): instrumented."""
    return two_kernels().with_attr("cuda.iket.enabled", 1)


def _lower(mod):
    from tvm_tirx.backend.cuda.transform import LowerIket

    return LowerIket()(mod)


DEMOS = demos(two_kernels, two_kernels_iket, _lower)

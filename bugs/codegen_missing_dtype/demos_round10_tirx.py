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
"""Blind round 10: demos of codegen_missing_dtype's wrong fixes on apache/tvm-tirx.

The programs of demos_round10.py in that line's API (``T.function``, ``T.Tensor``, a kernel
opened by ``T.launch_thread``); each is compiled (demos_round8.build_for:
``tvm_tirx.tirx.compile``) for WebGPU or Metal and reports "compiles" or the error's class and
first line.
"""

from tvm_tirx.script import tirx as T

from bugs.codegen_missing_dtype.demos_round10 import demos


def copy_kernel(dtype):
    """A kernel copying one element of a ``dtype`` tensor into another."""

    @T.function
    def main(A: T.Tensor((8,), dtype), B: T.Tensor((8,), dtype)):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = B[1]

    return main


def float64_constant_first():
    """A float64 constant left of a float64 cast: the FloatImm printer meets it first."""

    @T.function
    def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", T.float64(2.5) + T.Cast("float64", B[1]))

    return main


def float64_scalar_argument():
    """A float64 host scalar read in the kernel: it becomes a float64 kernel argument."""

    @T.function
    def main(A: T.Tensor((8,), "float32"), x: T.float64):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", x)

    return main


DEMOS = demos(copy_kernel, float64_constant_first, float64_scalar_argument)

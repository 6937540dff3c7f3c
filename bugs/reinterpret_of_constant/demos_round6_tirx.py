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
"""Blind round 6 demos of the reinterpret-of-a-constant wrong fixes (apache/tvm-tirx): the
OpenCL kernel source each fix's build prints."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo


def kernel_lines(func):
    """The statements of the OpenCL kernels of ``func``."""
    target = tvm_tirx.target.Target("opencl", host="llvm")
    source = tvm_tirx.tirx.compile(func, target=target).mod.imports[0].inspect_source()
    return [x.strip() for x in source.splitlines() if x.startswith("  ")]


def float_bits():
    @T.function
    def main(A: T.Tensor((1,), "uint32")):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.reinterpret(T.float32(2.0), ty=T.uint32)

    return main


def int_to_float():
    @T.function
    def main(A: T.Tensor((1,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.reinterpret(T.int32(1065353216), ty=T.float32)

    return main


def two_kernels():
    @T.function
    def main(A: T.Tensor((1,), "uint32")):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.reinterpret(T.float32(2.0), ty=T.uint32)
        with T.launch_thread("threadIdx.x", 1):
            A[0] = A[0] + T.reinterpret(T.float32(1.0), ty=T.uint32)

    return main


def in_condition():
    @T.function
    def main(A: T.Tensor((1,), "uint32")):
        with T.launch_thread("threadIdx.x", 1):
            if T.reinterpret(T.float32(1.0), ty=T.uint32) == T.uint32(1065353216):
                A[0] = T.uint32(7)

    return main


def host_lines(func):
    """The "c" target's host code of ``func``: the lines with the reinterpret's temporary."""
    source = tvm_tirx.tirx.compile(func, target="c").mod.inspect_source()
    return [x.strip() for x in source.splitlines() if "A[0] =" in x or " v = " in x]


def host_c():
    @T.function
    def main(A: T.Tensor((1,), "uint32")):
        A[0] = T.reinterpret(T.float32(2.0), ty=T.uint32)

    return main


def to_vector():
    @T.function
    def main(A: T.Tensor((4,), "uint8")):
        with T.launch_thread("threadIdx.x", 1):
            A[T.Ramp(0, 1, 4)] = T.reinterpret(T.int32(0x04030201), ty=T.uint8x4)

    return main


DEMOS = {
    "blind6-temp-of-target-type": Demo(float_bits, kernel_lines),
    "blind6-float-constants-only": Demo(int_to_float, kernel_lines),
    "blind6-first-function-only": Demo(two_kernels, kernel_lines),
    "blind6-stores-only": Demo(in_condition, kernel_lines),
    "blind6-no-c-host": Demo(host_c, host_lines),
    "blind6-scalar-targets-only": Demo(to_vector, kernel_lines),
    "blind6-temp-with-target-lanes": Demo(to_vector, kernel_lines),
}

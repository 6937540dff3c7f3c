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
"""Blind round 7 demos of the reinterpret-of-a-constant wrong fixes (apache/tvm): the OpenCL
kernel source of a small kernel, or its values on pocl."""

import numpy as np

import tvm
from harness.blind_demo import Demo
from tvm.script import tirx as T


def store_kernel(src_dtype, value, dst_dtype, lanes=1):
    """A one-thread kernel storing ``reinterpret(dst_dtype x lanes, src_dtype(value))``."""
    vec = dst_dtype if lanes == 1 else f"{dst_dtype}x{lanes}"

    @T.prim_func
    def main(A: T.Buffer((lanes,), dst_dtype)):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            if lanes == 1:
                A[0] = T.reinterpret(vec, T.Cast(src_dtype, value))
            else:
                A[T.Ramp(0, 1, lanes)] = T.reinterpret(vec, T.Cast(src_dtype, value))

    return main


def two_scopes():
    """The same constant reinterpreted inside a branch and after it."""

    @T.prim_func
    def main(A: T.Buffer((3,), "uint32"), n: T.int32):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            if n > 0:
                A[1] = T.reinterpret("uint32", T.float32(2.0))
            A[2] = T.reinterpret("uint32", T.float32(2.0))

    return main


def kernel_source(func):
    """The OpenCL kernel's body lines (compiled to source only)."""
    try:
        src = tvm.compile(func, target="opencl").mod.imports[0].inspect_source()
    except Exception as err:
        return f"{type(err).__name__}: {str(err).strip().splitlines()[-1]}"
    body = src[src.index("__kernel") :]
    return " | ".join(x.strip() for x in body.splitlines()[1:] if x.strip() and x.strip() != "}")


def run_values(func):
    """The values the kernel writes on the OpenCL device (pocl)."""
    lib = tvm.compile(func, target="opencl")
    dev = tvm.opencl(0)
    ty = func.params[0].ty
    a = tvm.runtime.tensor(np.zeros([int(x) for x in ty.shape], str(ty.dtype)), dev)
    lib(a)
    return a.numpy().tolist()


DEMOS = {
    "blind7-float-only": Demo(lambda: store_kernel("int32", 1065353216, "float32"), kernel_source),
    "blind7-int-only": Demo(lambda: store_kernel("float32", 2.0, "uint32"), kernel_source),
    "blind7-target-type-temp": Demo(
        lambda: store_kernel("float32", 2.0, "uint32"), run_values, opencl=True
    ),
    "blind7-scalar-target-only": Demo(
        lambda: store_kernel("int32", 16909060, "uint8", 4), kernel_source
    ),
    "blind7-32bit-only": Demo(lambda: store_kernel("float64", 2.0, "uint64"), kernel_source),
    "blind7-shared-temp": Demo(two_scopes, kernel_source),
}

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
"""The second round's programs of demos.py on apache/tvm-tirx (harness/blind_demo.py; run with
.venv-tirx/bin/python scripts/blind_demos.py --bug narrow_scalar).

No OpenCL runtime runs on this line: what is compared is the module after SplitHostDevice (the
launch's line and the signatures, for the launch-argument demo)."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo, on, targeted


def split_alone(mod):
    """The module after SplitHostDevice alone, without its target attributes."""
    after = tvm_tirx.tirx.transform.SplitHostDevice()(mod)
    return "\n".join(x for x in after.script().splitlines() if "func_attr" not in x)


def launch_lines(mod):
    """The functions' signatures and the host's launches after SplitHostDevice."""
    after = tvm_tirx.tirx.transform.SplitHostDevice()(mod)
    return "\n".join(
        x for x in after.script().splitlines() if "call_ffi_kernel" in x or "def " in x
    )


def doubled(kind):
    """A kernel for ``kind`` (llvm host) doubles an int8 argument."""

    @T.function
    def main(C: T.Tensor((8,), "int32"), x: T.int8):
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = T.Cast("int32", x) * 2

    return on({"kind": kind, "host": "llvm"}, main)


@T.function
def unsigned_pair(C: T.Tensor((8,), "uint32"), x: T.uint8, y: T.uint16):
    with T.launch_thread("threadIdx.x", 8) as i:
        C[i] = T.Cast("uint32", x) + T.Cast("uint32", y)


@T.function
def float8_and_float16(C: T.Tensor((8,), "float8_e4m3fn"), x: T.float8_e4m3fn, y: T.float16):
    with T.launch_thread("threadIdx.x", 8) as i:
        C[i] = T.Cast("float8_e4m3fn", T.Cast("float16", x) + y)


@T.function
def float_then_int8(C: T.Tensor((8,), "int32"), a: T.float32, x: T.int8):
    with T.launch_thread("threadIdx.x", 8) as i:
        C[i] = T.Cast("int32", x) + T.Cast("int32", a * T.float32(10))


@T.ir_module
class CallsDoubling:
    """A host function launches a kernel written as a module function with an int8 scalar."""

    @T.function
    def main(C: T.Tensor((8,), "int32"), x: T.int8):
        CallsDoubling.kernel(C.data, x)

    @T.function
    def kernel(C_data: T.Ptr(T.int32), x: T.int8):
        C = T.decl_tensor(C_data, ty_args=[T.Tensor((8,), T.int32)])
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = T.Cast("int32", x) * 2


@T.ir_module
class CallsTwice:
    """A host function launches a kernel written as a module function twice, with two uint16
    scalars."""

    @T.function
    def main(C: T.Tensor((8,), "int32"), x: T.uint16, y: T.uint16):
        CallsTwice.kernel(C.data, x)
        CallsTwice.kernel(C.data, y)

    @T.function
    def kernel(C_data: T.Ptr(T.int32), x: T.uint16):
        C = T.decl_tensor(C_data, ty_args=[T.Tensor((8,), T.int32)])
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = C[i] + T.Cast("int32", x)


@T.ir_module
class ShapeFromScalar:
    """A host function launches a kernel, written as a module function, whose view's shape is
    an int16 scalar n that the kernel also reads (no match_tensor on this line)."""

    @T.function
    def main(A: T.Tensor((8,), "int32"), n: T.int16):
        ShapeFromScalar.kernel(A.data, n)

    @T.function
    def kernel(A_ptr: T.Ptr(T.int32), n: T.int16):
        A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((n,), T.int32)])
        with T.launch_thread("threadIdx.x", 8) as i:
            if i < T.Cast("int32", n):
                A[i] = i


OPENCL_HOST = {"kind": "opencl", "host": "llvm"}

DEMOS = {
    # float32 a then int8 x (kernel parameters A_ptr, a, x): the wrong fix casts the argument
    # before x in the launch
    "blind2-launch-arg-off-by-one": Demo(lambda: on(OPENCL_HOST, float_then_int8), launch_lines),
    # an llvm host function launches an OpenCL module function with an int8 scalar: the wrong
    # fix widens only the kernels SplitHostDevice splits out
    "blind2-split-kernels-only": Demo(
        lambda: targeted(CallsDoubling, "llvm", "opencl"), split_alone
    ),
    # a WebGPU kernel's int8 scalar: the wrong fix's device-runtime list forgets WebGPU
    "blind2-webgpu-forgotten": Demo(lambda: doubled("webgpu"), split_alone),
    # an ext_dev kernel keeps its int8 parameter: the wrong fix widens every non-CPU kernel
    "blind2-non-cpu-widened": Demo(lambda: doubled("ext_dev"), split_alone),
    # cuda, a float8_e4m3fn and a float16 scalar: the wrong fix widens the float8 one too
    "blind2-other-floats-to-float32": Demo(
        lambda: on({"kind": "cuda", "arch": "sm_90", "host": "llvm"}, float8_and_float16),
        split_alone,
    ),
    # the kernel's view's shape is the int16 scalar n: the wrong fix binds n after the view
    "blind2-entry-after-decls": Demo(
        lambda: targeted(ShapeFromScalar, "llvm", "opencl"), split_alone
    ),
    # OpenCL, a uint8 and a uint16 scalar: the reference passes both as uint32, the wrong fix as
    # int32
    "blind2-uint-as-int32": Demo(lambda: on(OPENCL_HOST, unsigned_pair), split_alone),
    # two launches of an OpenCL module function from an llvm host function with uint16
    # scalars: the wrong fix decides from the caller's target and casts neither argument
    "blind2-caller-target": Demo(lambda: targeted(CallsTwice, "llvm", "opencl"), split_alone),
}

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
"""Demos of the blind round 4 wrong fixes of narrow_scalar (apache/tvm): harness/blind_demo.py."""

from harness.blind_demo import Demo, split_module, split_or_error, targeted


def scalar_kernel(dtype):
    """A kernel that stores Cast(float32, x) of a host scalar x of ``dtype`` (lowered TIR)."""

    def program():
        import tvm
        from tvm.script import tirx as T

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), x: tvm.tirx.Var("x", dtype)):
            with T.launch_thread("threadIdx.x", 8) as tx:
                A[tx] = T.Cast("float32", x)

        return main

    return program


def int8_arith_kernel():
    """A kernel that computes in int8 from an int8 host scalar: A[tx] = int32(x * 3)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "int32"), x: T.int8):
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = T.Cast("int32", x * T.int8(3))

    return main


def module_kernel():
    """A kernel written as a module function with an int8 parameter, launched by the host."""
    from tvm.script import ir as I
    from tvm.script import tirx as T

    @I.ir_module
    class Mod:
        @T.prim_func
        def main(A: T.Buffer((4,), "int32"), x: T.int8):
            Mod.kern(A.data, x)

        @T.prim_func(private=True)
        def kern(A: T.handle("int32"), x: T.int8):
            A_buf = T.decl_buffer((4,), "int32", data=A)
            with T.launch_thread("threadIdx.x", 4) as tx:
                A_buf[tx] = T.Cast("int32", x)

    return targeted(Mod, {"kind": "opencl", "host": "llvm"}, "opencl")


DEMOS = {
    "blind4-bfloat16-kept": Demo(scalar_kernel("bfloat16"), split_or_error("cuda")),
    "blind4-other-floats-widened": Demo(scalar_kernel("float8_e4m3fn"), split_or_error("cuda")),
    "blind4-int-widths-8-16": Demo(scalar_kernel("int4"), split_or_error("opencl")),
    "blind4-cpu-kernels-widened": Demo(scalar_kernel("int8"), split_or_error("llvm")),
    "blind4-module-kernels-kept": Demo(module_kernel, split_module),
    "blind4-symbol-launch-offset": Demo(scalar_kernel("uint16"), split_or_error("opencl")),
    "blind4-kernel-uses-wide-param": Demo(int8_arith_kernel, split_or_error("opencl")),
}

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
"""Blind round 7 demos of the bfloat16 host scalar fix: CPU runs (llvm) and BF16StorageLegalize."""

import struct

from harness.blind_demo import Demo, script_or_error


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def param_kernel():
    """A[0] = float32(x) for a bfloat16 parameter x."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: tvm.tirx.Var("x", "bfloat16")):
        A[0] = T.Cast("float32", x)

    return main


def const_kernel(value):
    """A[0] = float32 of a bfloat16 constant read through its bits (a reinterpret)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32")):
        A[0] = T.Cast(
            "float32", T.reinterpret("bfloat16", T.reinterpret("uint16", T.bfloat16(value)))
        )

    return main


def run_cpu(*scalars):
    """Compile for llvm, run on the CPU: A's bits in hex."""

    def observe(func):
        import numpy as np

        import tvm

        lib = tvm.compile(func, target="llvm")
        a = tvm.runtime.tensor(np.zeros(1, "float32"))
        lib["main"](a, *scalars)
        return [hex(v) for v in a.numpy().view("uint32").tolist()]

    return observe


def storage_kernel(vector):
    """Host code left in bfloat16: a scalar sum (invalid for storage) or a vector let (valid)."""
    from tvm.script import tirx as T

    if vector:
        from tvm import tirx

        x = tirx.Var("x", "uint16")
        v = tirx.Var("v", "bfloat16x4")
        bind = tirx.Bind(v, tirx.reinterpret("bfloat16x4", tirx.Broadcast(x, 4)))
        use = tirx.Evaluate(tirx.call_extern("int32", "sink", tirx.reinterpret("uint16x4", v)))
        main = tirx.PrimFunc([x], tirx.SeqStmt([bind, use]))

    else:

        @T.prim_func
        def main(x: T.uint16):
            T.evaluate(
                T.call_extern(
                    "int32",
                    "sink",
                    T.reinterpret(
                        "uint16", T.reinterpret("bfloat16", x) + T.reinterpret("bfloat16", x)
                    ),
                )
            )

    return main.with_attr("target", __import__("tvm").target.Target("llvm"))


def storage_legalize(func):
    import tvm

    mod = tvm.IRModule({"main": func})
    return script_or_error(lambda: tvm.tirx.transform.BF16StorageLegalize()(mod))


DEMOS = {
    "blind7-bf16-const-halfup": Demo(lambda: const_kernel(f32(0x3F808000)), run_cpu()),
    "blind7-bf16-const-no-nan": Demo(lambda: const_kernel(f32(0x7FFFFFFF)), run_cpu()),
    "blind7-bf16-inf-is-nan": Demo(param_kernel, run_cpu(float("inf"))),
    "blind7-bf16-truncate": Demo(param_kernel, run_cpu(f32(0x3F81C000))),
    "blind7-bf16-nan-drops-sign": Demo(param_kernel, run_cpu(-float("nan"))),
    "blind7-bf16-storage-accepts": Demo(lambda: storage_kernel(False), storage_legalize),
    "blind7-bf16-vector-var-scalar": Demo(lambda: storage_kernel(True), storage_legalize),
}

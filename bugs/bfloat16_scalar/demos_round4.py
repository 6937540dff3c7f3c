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
"""Demos of the blind round 4 wrong fixes of bfloat16_scalar (apache/tvm; llvm programs run
on the CPU): harness/blind_demo.py."""

import struct

from harness.blind_demo import Demo, message

# a NaN whose float64 payload is all ones (float32: 0x7FFFFFFF)
ALL_ONES_NAN = struct.unpack("<d", struct.pack("<Q", 0x7FFFFFFFFFFFFFFF))[0]


def bf16_argument():
    """A[0] = float32(x) of a bfloat16 argument x."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: T.bfloat16):
        A[0] = T.Cast("float32", x)

    return main


def bf16_let():
    """A[0] = float32(x) of a host T.let x: bfloat16 = bfloat16(n) + 1."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), n: T.int32):
        x: T.let[T.bfloat16] = T.Cast("bfloat16", n) + T.bfloat16(1.0)
        A[0] = T.Cast("float32", x)

    return main


def bf16_truncmod():
    """A[0] = float32(x) of a host T.let x: bfloat16 = truncmod(bfloat16(n), 3)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), n: T.int32):
        x: T.let[T.bfloat16] = T.truncmod(T.Cast("bfloat16", n), T.bfloat16(3.0))
        A[0] = T.Cast("float32", x)

    return main


def bf16_bits_of():
    """A[0] = the bits of bfloat16(y * 1) of a float32 argument y (a reinterpret)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "uint16"), y: T.float32):
        b: T.let[T.uint16] = T.reinterpret("uint16", T.Cast("bfloat16", y * T.float32(1)))
        A[0] = b

    return main


def gpu_host_let():
    """The report's crash: an unused bfloat16 host T.let beside a kernel (cuda sm_80)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), n: T.int32):
        x: T.let[T.bfloat16] = T.Cast("bfloat16", n) + T.bfloat16(1.0)  # noqa: F841 (the unused let is the program)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            A[i] = T.float32(1)

    return main


def run_llvm(arg, dtype="float32"):
    """Compile for llvm, call main(A, arg), return A[0] (as hex for an integer buffer)."""

    def observe(func):
        import numpy as np

        import tvm

        try:
            lib = tvm.compile(func, target="llvm")
            a = tvm.runtime.tensor(np.zeros(1, dtype))
            lib["main"](a, arg)
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"
        value = a.numpy()[0]
        return hex(int(value)) if dtype != "float32" else repr(float(value))

    return observe


def compute_legalized(func):
    """BF16ComputeLegalize alone on ``func`` (target llvm): the host code's TVMScript."""
    import tvm

    mod = tvm.IRModule({"main": func.with_attr("target", tvm.target.Target("llvm"))})
    try:
        text = tvm.tirx.transform.BF16ComputeLegalize()(mod).script()
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    return "\n".join(x for x in text.splitlines() if "func_attr" not in x)


def compile_tirx_pipeline(func):
    import tvm

    target = tvm.target.Target({"kind": "cuda", "arch": "sm_80"}, host="llvm")
    try:
        tvm.compile(func, target=target, tir_pipeline="tirx")
        return "compiled"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


DEMOS = {
    "blind4-bits-truncate": Demo(bf16_argument, run_llvm(1.01171875)),
    "blind4-nan-not-kept": Demo(bf16_argument, run_llvm(ALL_ONES_NAN)),
    "blind4-let-rounded": Demo(bf16_let, compute_legalized),
    "blind4-truncmod-missed": Demo(bf16_truncmod, run_llvm(7)),
    "blind4-pipeline-s-tir-only": Demo(gpu_host_let, compile_tirx_pipeline),
    "blind4-decode-through-float16": Demo(bf16_argument, run_llvm(70000.0)),
    "blind4-reinterpret-plain-cast": Demo(bf16_bits_of, run_llvm(1.01171875, "uint16")),
}

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
"""Blind round 5 demos of the bfloat16 host scalars (apache/tvm): programs compiled for llvm and
run on the CPU (the float32 bits they store), compiled for cuda sm_80 (whether they compile),
or given to BF16StorageLegalize alone (its IR or its error)."""

import struct

from harness.blind_demo import Demo, message, script_or_error


def _bits(value):
    return hex(struct.unpack("<I", struct.pack("<f", value))[0])


def _double(bits):
    """The float64 whose bits are ``bits``."""
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def run_llvm(*args):
    """Observer: compile for llvm, call ``main(A, *args)`` with A a float32 (1,) tensor; the
    float32 bits A[0] holds, or the error."""

    def observe(func):
        import numpy as np

        import tvm

        try:
            lib = tvm.compile(func, target="llvm")
            out = tvm.runtime.tensor(np.zeros(1, "float32"))
            lib["main"](out, *args)
            return f"A[0] bits: {_bits(float(out.numpy()[0]))}"
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"

    return observe


def compiled_for_sm80(func):
    """Observer: tvm.compile for cuda sm_80 (native bfloat16; host llvm): "compiles" or the
    error."""
    import tvm

    try:
        tvm.compile(func, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


def storage_legalized(func):
    """Observer: BF16StorageLegalize alone on ``func`` (target llvm): its IR or its error."""
    import tvm

    def make():
        mod = tvm.IRModule({"main": func.with_attr("target", tvm.target.Target("llvm"))})
        return tvm.tirx.transform.BF16StorageLegalize()(mod)

    return script_or_error(make)


def bf16_argument():
    """A[0] = float32(x) for a bfloat16 argument x."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: T.bfloat16):
        A[0] = T.Cast("float32", x)

    return main


def truncmod_let():
    """x: T.let[bfloat16] = bfloat16(n) truncmod bfloat16(m) on the host; A[0] = float32(x)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), n: T.int32, m: T.int32):
        x: T.let[T.bfloat16] = T.truncmod(T.Cast("bfloat16", n), T.Cast("bfloat16", m))
        A[0] = T.Cast("float32", x)

    return main


def reinterpret_let():
    """x: T.let[uint16] = the bits of bfloat16(n) + 1 on the host; A[0] = float32(x)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), n: T.int32):
        x: T.let[T.uint16] = T.reinterpret("uint16", T.Cast("bfloat16", n) + T.bfloat16(1))
        A[0] = T.Cast("float32", x)

    return main


def host_let_beside_kernel():
    """The report's program: an unused bfloat16 T.let computed on the host beside a kernel."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), n: T.int32):
        x: T.let[T.bfloat16] = T.Cast("bfloat16", n) + T.bfloat16(1.0)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            A[i] = T.Cast("float32", x)

    return main


def param_bits_stored():
    """A function of a bfloat16 parameter x storing its bits: A[0] = reinterpret(uint16, x)
    (its buffer a pointer parameter, as BF16StorageLegalize takes functions after
    MakePackedAPI)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A_data: T.handle("uint16"), x: T.bfloat16):
        A = T.decl_buffer((1,), "uint16", data=A_data)
        A[0] = T.reinterpret("uint16", x)

    return main


def bf16_max_left():
    """z: T.let[bfloat16] = a bfloat16 max of two bfloat16 parameters, never computed in
    float32; its bits stored through a pointer parameter."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A_data: T.handle("uint16"), x: T.bfloat16, y: T.bfloat16):
        A = T.decl_buffer((1,), "uint16", data=A_data)
        z: T.let[T.bfloat16] = T.max(x, y)
        A[0] = T.reinterpret("uint16", z)

    return main


DEMOS = {
    "blind5-bf16-ties-away": Demo(bf16_argument, run_llvm(1.00390625)),
    "blind5-bf16-nan-not-kept": Demo(bf16_argument, run_llvm(_double(0x7FFFFFFFFFFFFFFF))),
    "blind5-bf16-truncmod-not-computed": Demo(truncmod_let, run_llvm(7, 2)),
    "blind5-bf16-host-legalize-tirx-pipeline-only": Demo(host_let_beside_kernel, compiled_for_sm80),
    "blind5-bf16-params-not-remapped": Demo(param_bits_stored, storage_legalized),
    "blind5-bf16-minmax-not-rejected": Demo(bf16_max_left, storage_legalized),
    "blind5-bf16-reinterpret-operand-not-rounded": Demo(reinterpret_let, run_llvm(5)),
}

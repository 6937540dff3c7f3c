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
"""Blind round 8: demos of the bfloat16 host scalar report's wrong fixes
(round 8 of bugs/bfloat16_scalar/wrong_fixes.toml), apache/tvm only.

Most programs are compiled for llvm and called on the CPU with a few bfloat16 arguments; the
observed result is the bits the host code holds (an all-ones NaN payload, a low NaN payload, a
rounding tie, a value above a tie, an infinity). The storage rejections are seen as the error
(or IR) of BF16StorageLegalize alone, the decode as the IR MakePackedAPI gives.
"""

import struct

from harness.blind_demo import Demo, script_or_error


def _f64(bits):
    """The float64 of the raw ``bits``."""
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _f32(bits):
    """The float32 (as a Python float) of the raw ``bits``."""
    return struct.unpack("<f", struct.pack("<I", bits))[0]


# the arguments: a value above a tie, a tie, an all-ones NaN payload, -inf, 3
ARGS = [1.005859375, 1 + 2**-8, _f64(0x7FFFFFFFFFFFFFFF), float("-inf"), 3.0]


def bits_program():
    """A bfloat16 argument's bits, and those of a T.let computed from it and from a float32
    read out of a uint32 buffer (a NaN with a low payload there)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((1,), "uint32"), x: T.bfloat16):
        y: T.let[T.bfloat16] = x * T.bfloat16(2.0)
        z: T.let[T.bfloat16] = T.Cast("bfloat16", T.reinterpret("float32", B[0]))
        A[0] = T.Cast("float32", T.reinterpret("uint16", x))
        A[1] = T.Cast("float32", T.reinterpret("uint16", y))
        A[2] = T.Cast("float32", T.reinterpret("uint16", z))
        A[3] = T.Cast("float32", z)

    return main


def run_bits(func):
    """Compile ``func`` for llvm and call it with each of ARGS (B[0] a NaN of payload 1):
    the bits it writes."""
    import numpy as np

    import tvm

    lib = tvm.compile(func, target="llvm")
    a = tvm.runtime.tensor(np.zeros(4, "float32"))
    b = tvm.runtime.tensor(np.array([0x7F800001], "uint32"))
    out = []
    for x in ARGS:
        lib["main"](a, b, x)
        out.append([repr(v) for v in a.numpy().tolist()])
    return out


def const_program():
    """The bits of bfloat16 constants read through a reinterpret: a float32 tie
    (1 + 2**-8), an infinity, a NaN."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((3,), "float32")):
        A[0] = T.Cast("float32", T.reinterpret("uint16", T.bfloat16(1.00390625)))
        A[1] = T.Cast("float32", T.reinterpret("uint16", T.bfloat16(float("inf"))))
        A[2] = T.Cast("float32", T.reinterpret("uint16", T.bfloat16(float("nan"))))

    return main


def run_const(func):
    """Compile ``func`` for llvm, call it: the bits it writes."""
    import numpy as np

    import tvm

    lib = tvm.compile(func, target="llvm")
    a = tvm.runtime.tensor(np.zeros(3, "float32"))
    lib["main"](a)
    return a.numpy().tolist()


def floormod_program():
    """A bfloat16 T.let bound to a floormod of the argument (tirx.FloorMod: the script's
    T.floormod takes integers only)."""
    from tvm import tirx
    from tvm.script import tirx as T

    floormod = tirx.FloorMod

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: T.bfloat16):
        y: T.let[T.bfloat16] = floormod(x, T.bfloat16(2.0))
        A[0] = T.Cast("float32", y)

    return main


def compute_legalized_types(func):
    """After BF16ComputeLegalize alone: each binding's variable type and value, each
    floormod's operand type (the printer cannot print a floormod of floats)."""
    import tvm_ffi

    import tvm
    from tvm import tirx

    out = tvm.tirx.transform.BF16ComputeLegalize()(tvm.IRModule({"main": func}))
    found = []

    def visit(node):
        if isinstance(node, tirx.Bind):
            found.append(f"{node.var.name}: {node.var.ty} = {type(node.value).__name__}")
        if isinstance(node, tirx.FloorMod):
            found.append(f"FloorMod of {node.a.ty}")

    tvm_ffi.structural_walk(out["main"].body, visit)
    return found


def _packed(func):
    """``func`` as an llvm entry function with an llvm host: MakePackedAPI lowers it."""
    import tvm

    target = tvm.target.Target("llvm", host="llvm")
    func = func.with_attr("target", target).with_attr("global_symbol", "main")
    return tvm.IRModule({"main": func})


def decode_program():
    """A bfloat16 argument stored into a float32 buffer."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: T.bfloat16):
        A[0] = T.Cast("float32", x)

    return main


def _kept(text):
    """The lines of ``text`` that bind ``x`` or store into ``A`` (an error: its line)."""
    keys = ("x: T.let", "A = T.Cast", "A[0] = ")
    lines = [x.strip() for x in text.splitlines() if x.strip().startswith(keys)]
    return "\n".join(lines) or text


def after_make_packed_api(func):
    """The function's IR after MakePackedAPI alone: the decode of ``x`` and the store."""
    import tvm

    return _kept(script_or_error(lambda: tvm.tirx.transform.MakePackedAPI()(_packed(func))))


def storage_select_program():
    """A bfloat16 Select of two bfloat16 arguments stored into a bfloat16 buffer."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "bfloat16"), x: T.bfloat16, y: T.bfloat16, c: T.bool):
        A[0] = T.Select(c, x, y)

    return main


def after_storage_legalize(func):
    """The function's IR after MakePackedAPI and BF16StorageLegalize, without
    BF16ComputeLegalize (or the error): what is left uncomputed must be refused."""
    import tvm

    passes = [tvm.tirx.transform.MakePackedAPI(), tvm.tirx.transform.BF16StorageLegalize()]
    return _kept(script_or_error(lambda: tvm.ir.transform.Sequential(passes)(_packed(func))))


DEMOS = {
    "blind8-bits-truncate": Demo(bits_program, run_bits),
    "blind8-nan-unkept": Demo(bits_program, run_bits),
    "blind8-nan-not-quiet": Demo(bits_program, run_bits),
    "blind8-const-tie-away": Demo(const_program, run_const),
    "blind8-const-inf-nan": Demo(const_program, run_const),
    "blind8-floormod-missed": Demo(floormod_program, compute_legalized_types),
    "blind8-decode-cast": Demo(decode_program, after_make_packed_api),
    "blind8-cast-from-accepted": Demo(decode_program, after_storage_legalize),
    "blind8-select-accepted": Demo(storage_select_program, after_storage_legalize),
}

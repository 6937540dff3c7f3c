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
"""Programs on which the bfloat16 host scalar's reference fix and each blind wrong fix differ
(harness/blind_demo.py; run with scripts/blind_demos.py --bug bfloat16_scalar).

Most are host functions compiled for the CPU (llvm) and called: a bfloat16 argument, constant
or cast stored as float32 or as its bits, where the rounding to bfloat16 (to nearest even, a
NaN kept a NaN) or the legalization of the host's bfloat16 arithmetic shows; two are compiled
for cuda sm_80 (no GPU needed), whose host code the BF16 passes skip before SplitHostDevice."""

import struct

import ml_dtypes
import numpy as np
import tvm_ffi

import tvm
from harness.blind_demo import Demo
from tvm import tirx
from tvm.script import tirx as T

# the float64 NaN whose payload is all ones (float32 0x7fffffff): rounding it with a bias
# carries it into 0x8000 (-0.0)
NAN = struct.unpack("<d", struct.pack("<Q", 0x7FFF_FFFF_FFFF_FFFF))[0]


def on_cpu(*args):
    """Observer: the function compiled for llvm and called with its first buffer, A, zeroed and
    then ``args`` (arrays as tensors): A's values and their bits."""

    def observe(func):
        lib = tvm.compile(func, target="llvm")
        buf = func.params[0]
        out = tvm.runtime.tensor(np.zeros([int(n) for n in buf.shape], str(buf.dtype)))
        lib["main"](out, *[tvm.runtime.tensor(a) if isinstance(a, np.ndarray) else a for a in args])
        values = out.numpy()
        bits = values.view(f"uint{8 * values.itemsize}").tolist()
        return f"A = {values.tolist()} bits {[hex(b) for b in bits]}"

    return observe


def host_arithmetic(func):
    """The function compiled for cuda sm_80 (llvm host): the float arithmetic of its host code."""
    target = tvm.target.Target({"kind": "cuda", "arch": "sm_80"}, host="llvm")
    host = tvm.compile(func, target=target).mod.inspect_source("ll")
    ops = ("fmul", "fadd", "fpext")
    return sorted(
        {
            x.split("=", 1)[1].split(",")[0].strip()
            for x in host.splitlines()
            if " = f" in x and any(op in x for op in ops)
        }
    )


@T.prim_func
def argument_bits(A: T.Buffer((2,), "uint16"), x: T.bfloat16):
    A[0] = T.reinterpret("uint16", x)
    A[1] = T.reinterpret("uint16", x)


@T.prim_func
def argument_widened(A: T.Buffer((1,), "float32"), x: T.bfloat16):
    A[0] = T.Cast("float32", x)


@T.prim_func
def constant_bits(A: T.Buffer((1,), "int32")):
    A[0] = T.Cast("int32", T.reinterpret("uint16", T.bfloat16(1.00390625)))


@T.prim_func
def cast_scalar_bits(A: T.Buffer((1,), "int32"), f: T.float32):
    A[0] = T.Cast("int32", T.reinterpret("uint16", T.Cast("bfloat16", f)))


@T.prim_func
def cast_load_bits(A: T.Buffer((2,), "uint16"), F: T.Buffer((2,), "float32")):
    for i in range(2):
        A[i] = T.reinterpret("uint16", T.Cast("bfloat16", F[i]))


@T.prim_func
def kept_load_bits(A: T.Buffer((2,), "int32"), B: T.Buffer((1,), "bfloat16")):
    y: T.let[T.bfloat16] = B[0]
    A[0] = T.Cast("int32", T.reinterpret("uint16", y))
    A[1] = T.Cast("int32", T.reinterpret("uint16", y)) + 1


@T.prim_func
def bound_mod(A: T.Buffer((1,), "float32"), n: T.int32):
    x: T.let[T.bfloat16] = T.Mod(T.Cast("bfloat16", n), T.bfloat16(3))
    A[0] = T.Cast("float32", x)


def argument_mods():
    """The bits of x % 3 and (x * 3) % 5 of a bfloat16 argument x (truncmod, the `%` of the
    patch: TVMScript's % refuses floats, so the Mod nodes replace the Adds written)."""

    @T.prim_func
    def func(A: T.Buffer((2,), "uint16"), x: T.bfloat16):
        A[0] = T.reinterpret("uint16", x + T.bfloat16(3.0))
        A[1] = T.reinterpret("uint16", x * T.bfloat16(3.0) + T.bfloat16(5.0))

    to_mod = (tirx.Add, lambda node: tirx.Mod(node.a, node.b))
    return func.with_body(tvm_ffi.structural_map(func.body, to_mod))


@T.prim_func
def kernel_of_argument(A: T.Buffer((4,), "uint16"), x: T.bfloat16):
    y: T.let[T.bfloat16] = x * T.bfloat16(2.0) + T.bfloat16(1.0)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = T.reinterpret("uint16", y)


@T.prim_func
def kernel_of_int(A: T.Buffer((8,), "float32"), n: T.int32):
    x: T.let[T.bfloat16] = T.Cast("bfloat16", n) * T.bfloat16(0.5)
    for i in T.thread_binding(8, thread="threadIdx.x"):
        A[i] = T.Cast("float32", x)


DEMOS = {
    # 1.00390625, a float32 tie (0x3f808000), stored as bfloat16 bits: rounded to even, 0x3f80;
    # the wrong fix rounds the constant away from zero, 0x3f81
    "blind2-const-ties-away": Demo(lambda: constant_bits, on_cpu()),
    # the bits of a float32 argument cast to bfloat16, the NaN 0x7fffffff: kept a NaN, 0x7fff;
    # the wrong fix converts the cast back with DTypeConversion, 0x8000
    "blind2-convertback-plain": Demo(lambda: cast_scalar_bits, on_cpu(NAN)),
    # 1.005859375 (0x3f80c000, above halfway) widened: rounded to 0x3f81; the wrong fix's
    # decode truncates it to 0x3f80
    "blind2-decode-truncates": Demo(lambda: argument_widened, on_cpu(1.005859375)),
    # the int 3 passed for x: decoded as 3.0; the wrong fix reads the int's bits as a double
    "blind2-float-slot-only": Demo(lambda: argument_widened, on_cpu(3)),
    # the NaN widened: a quiet NaN; the wrong fix's rounding bias carries it into -0.0
    "blind2-nan-not-kept": Demo(lambda: argument_widened, on_cpu(NAN)),
    # a bfloat16 bound on the host of a cuda function: legalized after MakePackedAPI, it
    # compiles; the wrong fix legalizes before, where the host still has the cuda target
    "blind2-legalize-before-packed-api": Demo(lambda: kernel_of_int, host_arithmetic),
    # a bound (n as bfloat16) % 3, n = -7: computed in float32, -1.0; the wrong fix leaves the
    # % in bfloat16, which the compile rejects
    "blind2-mod-forgotten": Demo(lambda: bound_mod, on_cpu(-7)),
    # a bound load of the signalling NaN 0x7f81, stored as bits: kept, 0x7f81; the wrong fix
    # retypes the binding to float32 and back, which quiets it (0x7fc1)
    "blind2-retype-kept-values": Demo(
        lambda: kept_load_bits,
        on_cpu(np.array([0x7F81], "uint16").view(ml_dtypes.bfloat16)),
    ),
    # 1.015 (0x3f81eb85) stored as bits: rounded, 0x3f82; the wrong fix truncates, 0x3f81
    "blind3-bits-truncate": Demo(lambda: argument_bits, on_cpu(1.015)),
    # the tie 1.00390625 stored as bits: to even, 0x3f80; the wrong fix away from zero, 0x3f81
    "blind3-ties-away": Demo(lambda: argument_bits, on_cpu(1.00390625)),
    # the NaN stored as bits: 0x7fff; the wrong fix's rounding carries it into 0x8000
    "blind3-nan-not-kept": Demo(lambda: argument_bits, on_cpu(NAN)),
    # the bits of loads cast to bfloat16, the NaN 0x7fffffff and 1.015: 0x7fff and 0x3f82; the
    # wrong fix converts the cast back plainly, carrying the NaN into 0x8000
    "blind3-convert-back-plain": Demo(
        lambda: cast_load_bits,
        on_cpu(np.array([0x7FFFFFFF, 0x3F81EB85], "uint32").view("float32")),
    ),
    # x % 3 and (x * 3) % 5 for x = 7: computed in float32; the wrong fix leaves them in
    # bfloat16, which BF16StorageLegalize rejects
    "blind3-mod-not-promoted": Demo(argument_mods, on_cpu(7.0)),
    # y = x * 2 + 1 bound on the host of a cuda sm_80 function: legalized after MakePackedAPI,
    # float32 arithmetic; the wrong fix leaves bfloat16 arithmetic, which is rejected
    "blind3-no-host-legalize": Demo(lambda: kernel_of_argument, host_arithmetic),
}

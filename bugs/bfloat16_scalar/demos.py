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
NaN kept a NaN) or the legalization of the host's bfloat16 arithmetic shows. Some are compiled
for cuda sm_80 (no GPU needed), whose host code the BF16 passes skip before SplitHostDevice;
some are given to one BF16 legalization pass alone."""

import struct

import ml_dtypes
import numpy as np
import tvm_ffi

import tvm
from harness.blind_demo import Demo, script_or_error
from tvm import tirx
from tvm.script import tirx as T

SM80 = tvm.target.Target({"kind": "cuda", "arch": "sm_80"}, host="llvm")


def double(bits):
    """The float64 whose bits are ``bits``."""
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def single(bits):
    """The float32 whose bits are ``bits`` (as a Python float)."""
    return struct.unpack("<f", struct.pack("<I", bits))[0]


NAN = double(0x7FFF_FFFF_FFFF_FFFF)


def program(params, *lines, **values):
    """A demo's program: ``main(params)`` with the statement lines (TVMScript, four spaces per
    nesting level), which may name the Python ``values``."""
    text = f"@T.prim_func\ndef main({params}):\n" + "".join(f"    {x}\n" for x in lines)
    return lambda: tvm.script.from_source(text, extra_vars={"T": T, **values})


def bits_of(expr, params=("x",), lets=()):
    """A demo's program: a host function that stores ``expr`` (an expression of the bfloat16
    scalars ``params`` and of ``lets``, host T.let lines) as uint16 bits into A[0]."""
    args = ", ".join(f"{p}: T.bfloat16" for p in params)
    return program(
        f"A: T.Buffer((1,), 'uint16'), {args}", *lets, f"A[0] = T.reinterpret('uint16', {expr})"
    )


def widened(params, value, dtype="bfloat16"):
    """A demo's program: a host T.let x (of ``dtype``) bound to ``value`` (an expression of the
    scalar ``params``), widened into A[0], a float32."""
    return program(
        f"A: T.Buffer((1,), 'float32'), {params}",
        f"x: T.let[T.{dtype}] = {value}",
        "A[0] = T.Cast('float32', x)",
    )


def beside_kernel(params, value, store, threads=8):
    """A demo's program: a host T.let x: bfloat16 bound to ``value`` on the host of a kernel of
    ``threads`` threads ``i`` that runs ``store``."""
    return program(
        params,
        f"x: T.let[T.bfloat16] = {value}",
        f"for i in T.thread_binding({threads}, thread='threadIdx.x'):",
        f"    {store}",
    )


def mods(make):
    """A demo's program: ``make()``'s function with each Add a Mod (truncmod, the `%` of the
    patch: TVMScript's % refuses floats)."""

    def build():
        func = make()
        return func.with_body(tvm_ffi.structural_map(func.body, (tirx.Add, to_mod)))

    return build


def to_mod(node):
    """``node``'s operands under a Mod."""
    return tirx.Mod(node.a, node.b)


def vector_let():
    """Host code of a bfloat16x4 T.let over the broadcast bits of a uint16 x (valid for
    storage), its bits passed to an extern call."""
    x = tirx.Var("x", "uint16")
    v = tirx.Var("v", "bfloat16x4")
    bind = tirx.Bind(v, tirx.reinterpret("bfloat16x4", tirx.Broadcast(x, 4)))
    use = tirx.Evaluate(tirx.call_extern("int32", "sink", tirx.reinterpret("uint16x4", v)))
    return tirx.PrimFunc([x], tirx.SeqStmt([bind, use]))


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
    """Observer: the function compiled for cuda sm_80 (llvm host): the float arithmetic of its
    host code."""
    host = tvm.compile(func, target=SM80).mod.inspect_source("ll")
    ops = ("fmul", "fadd", "fpext")
    return sorted(
        {
            x.split("=", 1)[1].split(",")[0].strip()
            for x in host.splitlines()
            if " = f" in x and any(op in x for op in ops)
        }
    )


def compiles(**options):
    """Observer: tvm.compile for cuda sm_80 (llvm host) with ``options``: "compiles"."""

    def observe(func):
        tvm.compile(func, target=SM80, **options)
        return "compiles"

    return observe


def legalized(name):
    """Observer: the BF16 pass ``name`` alone on the function (target llvm): its host code's
    TVMScript, or its error."""

    def observe(func):
        mod = tvm.IRModule({"main": func.with_attr("target", tvm.target.Target("llvm"))})
        return script_or_error(lambda: getattr(tvm.tirx.transform, name)()(mod))

    return observe


# A[0] = float32(x) of a bfloat16 argument x
WIDENED = program("A: T.Buffer((1,), 'float32'), x: T.bfloat16", "A[0] = T.Cast('float32', x)")
# the bits of x, stored twice
ARGUMENT_BITS = program(
    "A: T.Buffer((2,), 'uint16'), x: T.bfloat16",
    "A[0] = T.reinterpret('uint16', x)",
    "A[1] = T.reinterpret('uint16', x)",
)
# the parameters of a kernel storing a float32 in A, and of a host T.let, n
A8_N = "A: T.Buffer((8,), 'float32'), n: T.int32"
# a bfloat16 cast of n, plus one
N_PLUS_1 = "T.Cast('bfloat16', n) + T.bfloat16(1.0)"
# the bits of a bfloat16 constant, as float32
CONSTANT = (
    "A: T.Buffer((1,), 'float32')",
    "A[0] = T.Cast('float32', T.reinterpret('bfloat16', T.reinterpret('uint16', T.bfloat16(c))))",
)

DEMOS = {
    # round 2
    # 1.00390625, a float32 tie (0x3f808000), stored as bfloat16 bits: rounded to even, 0x3f80;
    # the wrong fix rounds the constant away from zero, 0x3f81
    "blind2-const-ties-away": Demo(
        program(
            "A: T.Buffer((1,), 'int32')",
            "A[0] = T.Cast('int32', T.reinterpret('uint16', T.bfloat16(1.00390625)))",
        ),
        on_cpu(),
    ),
    # the bits of a float32 argument cast to bfloat16, the NaN 0x7fffffff: kept a NaN, 0x7fff;
    # the wrong fix converts the cast back with DTypeConversion, 0x8000
    "blind2-convertback-plain": Demo(
        program(
            "A: T.Buffer((1,), 'int32'), f: T.float32",
            "A[0] = T.Cast('int32', T.reinterpret('uint16', T.Cast('bfloat16', f)))",
        ),
        on_cpu(NAN),
    ),
    # 1.005859375 (0x3f80c000, above halfway) widened: rounded to 0x3f81; the wrong fix's
    # decode truncates it to 0x3f80
    "blind2-decode-truncates": Demo(WIDENED, on_cpu(1.005859375)),
    # the int 3 passed for x: decoded as 3.0; the wrong fix reads the int's bits as a double
    "blind2-float-slot-only": Demo(WIDENED, on_cpu(3)),
    # the NaN widened: a quiet NaN; the wrong fix's rounding bias carries it into -0.0
    "blind2-nan-not-kept": Demo(WIDENED, on_cpu(NAN)),
    # a bfloat16 bound on the host of a cuda function (n as bfloat16, halved), read by the
    # kernel: legalized after MakePackedAPI, it compiles; the wrong fix legalizes before, where
    # the host still has the cuda target
    "blind2-legalize-before-packed-api": Demo(
        beside_kernel(
            A8_N, "T.Cast('bfloat16', n) * T.bfloat16(0.5)", "A[i] = T.Cast('float32', x)"
        ),
        host_arithmetic,
    ),
    # a bound (n as bfloat16) % 3, n = -7: computed in float32, -1.0; the wrong fix leaves the
    # % in bfloat16, which the compile rejects
    "blind2-mod-forgotten": Demo(
        widened("n: T.int32", "T.Mod(T.Cast('bfloat16', n), T.bfloat16(3))"),
        on_cpu(-7),
    ),
    # a bound load of the signalling NaN 0x7f81, stored as bits: kept, 0x7f81; the wrong fix
    # retypes the binding to float32 and back, which quiets it (0x7fc1)
    "blind2-retype-kept-values": Demo(
        program(
            "A: T.Buffer((2,), 'int32'), B: T.Buffer((1,), 'bfloat16')",
            "y: T.let[T.bfloat16] = B[0]",
            "A[0] = T.Cast('int32', T.reinterpret('uint16', y))",
            "A[1] = T.Cast('int32', T.reinterpret('uint16', y)) + 1",
        ),
        on_cpu(np.array([0x7F81], "uint16").view(ml_dtypes.bfloat16)),
    ),
    # round 3
    # 1.015 (0x3f81eb85) stored as bits: rounded, 0x3f82; the wrong fix truncates, 0x3f81
    "blind3-bits-truncate": Demo(ARGUMENT_BITS, on_cpu(1.015)),
    # the tie 1.00390625 stored as bits: to even, 0x3f80; the wrong fix away from zero, 0x3f81
    "blind3-ties-away": Demo(ARGUMENT_BITS, on_cpu(1.00390625)),
    # the NaN stored as bits: 0x7fff; the wrong fix's rounding carries it into 0x8000
    "blind3-nan-not-kept": Demo(ARGUMENT_BITS, on_cpu(NAN)),
    # the bits of loads cast to bfloat16, the NaN 0x7fffffff and 1.015: 0x7fff and 0x3f82; the
    # wrong fix converts the cast back plainly, carrying the NaN into 0x8000
    "blind3-convert-back-plain": Demo(
        program(
            "A: T.Buffer((2,), 'uint16'), F: T.Buffer((2,), 'float32')",
            "for i in range(2):",
            "    A[i] = T.reinterpret('uint16', T.Cast('bfloat16', F[i]))",
        ),
        on_cpu(np.array([0x7FFFFFFF, 0x3F81EB85], "uint32").view("float32")),
    ),
    # x % 3 and (x * 3) % 5 for x = 7: computed in float32; the wrong fix leaves them in
    # bfloat16, which BF16StorageLegalize rejects
    "blind3-mod-not-promoted": Demo(
        mods(
            program(
                "A: T.Buffer((2,), 'uint16'), x: T.bfloat16",
                "A[0] = T.reinterpret('uint16', x + T.bfloat16(3.0))",
                "A[1] = T.reinterpret('uint16', x * T.bfloat16(3.0) + T.bfloat16(5.0))",
            )
        ),
        on_cpu(7.0),
    ),
    # y = x * 2 + 1 bound on the host of a cuda sm_80 function: legalized after MakePackedAPI,
    # float32 arithmetic; the wrong fix leaves bfloat16 arithmetic, which is rejected
    "blind3-no-host-legalize": Demo(
        beside_kernel(
            "A: T.Buffer((4,), 'uint16'), y: T.bfloat16",
            "y * T.bfloat16(2.0) + T.bfloat16(1.0)",
            "A[i] = T.reinterpret('uint16', x)",
            threads=4,
        ),
        host_arithmetic,
    ),
    # round 4
    # 1.01171875 (0x3f81c000, an odd kept bit's tie)
    "blind4-bits-truncate": Demo(WIDENED, on_cpu(1.01171875)),
    "blind4-nan-not-kept": Demo(WIDENED, on_cpu(NAN)),
    # a host T.let x = bfloat16(n) + 1, widened into A[0]
    "blind4-let-rounded": Demo(
        widened("n: T.int32", N_PLUS_1),
        legalized("BF16ComputeLegalize"),
    ),
    # a host T.let x = truncmod(bfloat16(n), 3), widened into A[0]
    "blind4-truncmod-missed": Demo(
        widened("n: T.int32", "T.truncmod(T.Cast('bfloat16', n), T.bfloat16(3.0))"),
        on_cpu(7),
    ),
    # the report's crash: the host T.let unused beside the kernel, compiled through the tirx
    # pipeline
    "blind4-pipeline-s-tir-only": Demo(
        beside_kernel(A8_N, N_PLUS_1, "A[i] = T.float32(1)"), compiles(tir_pipeline="tirx")
    ),
    # 70000 is beyond float16's range
    "blind4-decode-through-float16": Demo(WIDENED, on_cpu(70000.0)),
    # the bits of bfloat16(y * 1) of a float32 argument y, through a host T.let
    "blind4-reinterpret-plain-cast": Demo(
        program(
            "A: T.Buffer((1,), 'uint16'), y: T.float32",
            "b: T.let[T.uint16] = T.reinterpret('uint16', T.Cast('bfloat16', y * T.float32(1)))",
            "A[0] = b",
        ),
        on_cpu(1.01171875),
    ),
    # round 5
    "blind5-bf16-ties-away": Demo(WIDENED, on_cpu(1.00390625)),
    "blind5-bf16-nan-not-kept": Demo(WIDENED, on_cpu(NAN)),
    # a host T.let x = bfloat16(n) truncmod bfloat16(m), widened into A[0]
    "blind5-bf16-truncmod-not-computed": Demo(
        widened(
            "n: T.int32, m: T.int32",
            "T.truncmod(T.Cast('bfloat16', n), T.Cast('bfloat16', m))",
        ),
        on_cpu(7, 2),
    ),
    # the report's program: the host T.let read by the kernel
    "blind5-bf16-host-legalize-tirx-pipeline-only": Demo(
        beside_kernel(A8_N, N_PLUS_1, "A[i] = T.Cast('float32', x)"), compiles()
    ),
    # the bits of a bfloat16 parameter stored through a pointer parameter (as
    # BF16StorageLegalize takes functions after MakePackedAPI)
    "blind5-bf16-params-not-remapped": Demo(
        program(
            "A_data: T.handle('uint16'), x: T.bfloat16",
            "A = T.decl_buffer((1,), 'uint16', data=A_data)",
            "A[0] = T.reinterpret('uint16', x)",
        ),
        legalized("BF16StorageLegalize"),
    ),
    # a bfloat16 max of two bfloat16 parameters, never computed in float32, its bits stored
    # through a pointer parameter
    "blind5-bf16-minmax-not-rejected": Demo(
        program(
            "A_data: T.handle('uint16'), x: T.bfloat16, y: T.bfloat16",
            "A = T.decl_buffer((1,), 'uint16', data=A_data)",
            "z: T.let[T.bfloat16] = T.max(x, y)",
            "A[0] = T.reinterpret('uint16', z)",
        ),
        legalized("BF16StorageLegalize"),
    ),
    # a host T.let x = the bits of bfloat16(n) + 1, widened into A[0]
    "blind5-bf16-reinterpret-operand-not-rounded": Demo(
        widened(
            "n: T.int32",
            "T.reinterpret('uint16', T.Cast('bfloat16', n) + T.bfloat16(1))",
            dtype="uint16",
        ),
        on_cpu(5),
    ),
    # round 6: the bits of a bfloat16 expression stored into A[0]
    # a float32 tie: 1 + 2**-8 (bits 0x3f808000), even kept bit: 0x3f80
    "blind6-bf16-ties-away": Demo(bits_of("x"), on_cpu(1.0 + 2**-8)),
    # a negative NaN argument, its bits kept through a host T.let
    "blind6-bf16-nan-sign-dropped": Demo(
        bits_of("y", lets=["y: T.bfloat16 = x"]), on_cpu(-float("nan"))
    ),
    # the second of two parameters passed as a Python int
    "blind6-bf16-int-slot-as-double": Demo(bits_of("y", params=("x", "y")), on_cpu(1.5, 3)),
    # 70000 is beyond float16's range
    "blind6-bf16-decode-via-float16": Demo(bits_of("T.bfloat16(1.0) * x"), on_cpu(70000.0)),
    # % (Mod) of two bfloat16 parameters
    "blind6-bf16-mod-ops-left": Demo(mods(bits_of("x + y", params=("x", "y"))), on_cpu(7.5, 2.0)),
    # a constant with a float32 tie, odd kept bit (0x3f818000 -> 0x3f82)
    "blind6-bf16-const-truncated": Demo(bits_of("T.bfloat16(1.01171875)"), on_cpu(0.0)),
    # the bits of a sum computed in float32
    "blind6-bf16-keep-type-cast": Demo(bits_of("x + y", params=("x", "y")), on_cpu(1.0, 2.0)),
    # round 7
    # a bfloat16 constant's bits as float32: the tie 0x3f808000, the NaN 0x7fffffff
    "blind7-bf16-const-halfup": Demo(program(*CONSTANT, c=single(0x3F808000)), on_cpu()),
    "blind7-bf16-const-no-nan": Demo(program(*CONSTANT, c=single(0x7FFFFFFF)), on_cpu()),
    "blind7-bf16-inf-is-nan": Demo(WIDENED, on_cpu(float("inf"))),
    "blind7-bf16-truncate": Demo(WIDENED, on_cpu(single(0x3F81C000))),
    "blind7-bf16-nan-drops-sign": Demo(WIDENED, on_cpu(-float("nan"))),
    # host code left in bfloat16: a scalar sum of a uint16's bits (invalid for storage)
    "blind7-bf16-storage-accepts": Demo(
        program(
            "x: T.uint16",
            "T.evaluate(T.call_extern('int32', 'sink', T.reinterpret('uint16', "
            "T.reinterpret('bfloat16', x) + T.reinterpret('bfloat16', x))))",
        ),
        legalized("BF16StorageLegalize"),
    ),
    "blind7-bf16-vector-var-scalar": Demo(vector_let, legalized("BF16StorageLegalize")),
}

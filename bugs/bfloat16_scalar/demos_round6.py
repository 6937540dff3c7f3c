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
"""Blind round 6 demos of the bfloat16 host scalar fix: llvm functions run on the CPU."""

import numpy as np

from harness.blind_demo import Demo


def bf16_program(expr, params=("x",), lets=()):
    """A host function that stores ``expr`` (an expression of bfloat16 scalars ``params`` and of
    ``lets``, host T.let lines) as uint16 bits into A[0]."""

    def build():
        from tvm.script import from_source

        args = ", ".join(f"{p}: T.bfloat16" for p in params)
        body = "".join(f"    {line}\n" for line in lets)
        text = (
            "@T.prim_func\n"
            f"def main(A: T.Buffer((1,), 'uint16'), {args}):\n"
            f"{body}    A[0] = T.reinterpret('uint16', {expr})\n"
        )
        return from_source(text)

    return build


def mod_of_sum(build):
    """``build()``'s function with each Add a Mod (TVMScript refuses % of floats)."""

    def make():
        import tvm_ffi

        from tvm import tirx

        func = build()
        body = tvm_ffi.structural_map(func.body, (tirx.Add, lambda n: tirx.Mod(n.a, n.b)))
        return func.with_body(body)

    return make


def bits_of(*args):
    """Observer: compile for llvm, call with ``args``, A[0]'s bits in hex."""

    def observe(func):
        import tvm

        lib = tvm.compile(func, target="llvm")
        a = tvm.runtime.tensor(np.zeros(1, "uint16"))
        lib["main"](a, *args)
        return hex(int(a.numpy()[0]))

    return observe


DEMOS = {
    # a float32 tie: 1 + 2**-7 + 2**-8 (bits 0x3f818000), odd kept bit: both round up; even: 0x3f80
    "blind6-bf16-ties-away": Demo(bf16_program("x"), bits_of(1.0 + 2**-8)),
    # a negative NaN argument, its bits kept through a host T.let
    "blind6-bf16-nan-sign-dropped": Demo(
        bf16_program("y", lets=["y: T.bfloat16 = x"]), bits_of(-float("nan"))
    ),
    # the second of two parameters passed as a Python int
    "blind6-bf16-int-slot-as-double": Demo(bf16_program("y", params=("x", "y")), bits_of(1.5, 3)),
    # 70000 is beyond float16's range
    "blind6-bf16-decode-via-float16": Demo(bf16_program("T.bfloat16(1.0) * x"), bits_of(70000.0)),
    # % (Mod) of two bfloat16 parameters
    "blind6-bf16-mod-ops-left": Demo(
        mod_of_sum(bf16_program("x + y", params=("x", "y"))), bits_of(7.5, 2.0)
    ),
    # a constant with a float32 tie, odd kept bit (0x3f818000 -> 0x3f82)
    "blind6-bf16-const-truncated": Demo(bf16_program("T.bfloat16(1.01171875)"), bits_of(0.0)),
    # the bits of a sum computed in float32
    "blind6-bf16-keep-type-cast": Demo(bf16_program("x + y", params=("x", "y")), bits_of(1.0, 2.0)),
}

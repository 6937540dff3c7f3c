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
"""Programs on which CodeGenC's reference fix for a reinterpret of a constant and each blind wrong
fix differ on apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python
scripts/blind_demos.py --bug reinterpret_of_constant): the kernel or host source each fix's
build prints (no OpenCL runtime of this line is loaded here)."""

import re

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo

# a temporary's declaration: `float v_1 = ...`
_TEMP = re.compile(r"\s*[\w ]+ v(_\d+)? = ")
# 2.0f's bits as uint32 (0x40000000)
TWO_BITS = "T.reinterpret(T.float32(2.0), ty=T.uint32)"
TO_UINT8X4 = "A[T.Ramp(0, 1, 4)] = T.reinterpret(T.int32(0x04030201), ty=T.uint8x4)"


def kernels(dtype, extent, *blocks, launch=True):
    """A function of one tensor ``A`` of ``extent`` ``dtype`` elements whose body is one kernel
    (a launch of one thread) per block of statements, or the statements of the only block on
    the host where ``launch`` is False."""
    lines = ["@T.function", f'def main(A: T.Tensor(({extent},), "{dtype}")):']
    for block in blocks:
        indent = "    "
        if launch:
            lines.append('    with T.launch_thread("threadIdx.x", 1):')
            indent = "        "
        lines += [indent + x for x in block]
    return tvm_tirx.script.from_source("\n".join(lines) + "\n", extra_vars={"T": T})


def one(dtype, extent, *statements, **kw):
    """A program: ``kernels`` of one block."""
    return lambda: kernels(dtype, extent, list(statements), **kw)


def _compiled_source(func, target):
    """The source ``func`` compiles to for ``target``: the host's for "c", else the kernels'
    (with an llvm host)."""
    if target == "c":
        return tvm_tirx.tirx.compile(func, target="c").mod.inspect_source()
    lib = tvm_tirx.tirx.compile(func, target=tvm_tirx.target.Target(target, host="llvm"))
    return "\n".join(m.inspect_source() for m in lib.mod.imports)


def taken(target):
    """Observer: the statements of ``target``'s source that reinterpret through an address or
    bind a temporary, in one text."""

    def observe(func):
        source = _compiled_source(func, target)
        return " / ".join(x.strip() for x in source.splitlines() if "(&(" in x or _TEMP.match(x))

    return observe


def kernel_lines(func):
    """Observer: the statements of the OpenCL kernels of ``func``."""
    source = _compiled_source(func, "opencl")
    return [x.strip() for x in source.splitlines() if x.startswith("  ")]


def host_lines(func):
    """Observer: the "c" target's host code of ``func``: the lines with the reinterpret's
    temporary."""
    source = _compiled_source(func, "c")
    return [x.strip() for x in source.splitlines() if "A[0] =" in x or " v = " in x]


DEMOS = {
    # round 5: A of four elements
    "blind5-reinterp-float-only": Demo(
        one("float32", 4, "A[0] = T.reinterpret(T.int32(1075838976), ty=T.float32)"),
        taken("opencl"),
    ),
    "blind5-reinterp-target-type-temp": Demo(
        one("uint32", 4, "A[1] = T.reinterpret(T.float32(2.5), ty=T.uint32)"),
        taken("opencl"),
    ),
    "blind5-reinterp-no-c-host": Demo(
        one(
            "int32",
            4,
            "A[0] = T.reinterpret(T.float32(-1.5), ty=T.int32)",
            launch=False,
        ),
        taken("c"),
    ),
    "blind5-reinterp-stores-only": Demo(
        one(
            "int32",
            4,
            "if T.reinterpret(T.float32(-0.0), ty=T.int32) < 0:",
            "    A[2] = 7",
        ),
        taken("opencl"),
    ),
    "blind5-reinterp-one-temp-per-type": Demo(
        one(
            "uint32",
            4,
            "A[0] = T.reinterpret(T.float32(1.0), ty=T.uint32) - "
            "T.reinterpret(T.float32(0.5), ty=T.uint32)",
        ),
        taken("opencl"),
    ),
    "blind5-reinterp-scalar-targets-only": Demo(
        one("uint8", 4, TO_UINT8X4),
        taken("opencl"),
    ),
    "blind5-reinterp-first-function-only": Demo(
        lambda: kernels(
            "int32",
            4,
            ["A[0] = T.reinterpret(T.float32(1.0), ty=T.int32)"],
            ["A[3] = T.reinterpret(T.float32(-2.0), ty=T.int32)"],
        ),
        taken("opencl"),
    ),
    "blind5-reinterp-no-float64": Demo(
        one("int64", 4, "A[0] = T.reinterpret(T.float64(2.0), ty=T.int64)"),
        taken("opencl"),
    ),
    # round 6: A of one element (four uint8 for a vector)
    "blind6-temp-of-target-type": Demo(one("uint32", 1, f"A[0] = {TWO_BITS}"), kernel_lines),
    "blind6-float-constants-only": Demo(
        one("float32", 1, "A[0] = T.reinterpret(T.int32(1065353216), ty=T.float32)"),
        kernel_lines,
    ),
    "blind6-first-function-only": Demo(
        lambda: kernels(
            "uint32",
            1,
            [f"A[0] = {TWO_BITS}"],
            ["A[0] = A[0] + T.reinterpret(T.float32(1.0), ty=T.uint32)"],
        ),
        kernel_lines,
    ),
    "blind6-stores-only": Demo(
        one(
            "uint32",
            1,
            "if T.reinterpret(T.float32(1.0), ty=T.uint32) == T.uint32(1065353216):",
            "    A[0] = T.uint32(7)",
        ),
        kernel_lines,
    ),
    "blind6-no-c-host": Demo(one("uint32", 1, f"A[0] = {TWO_BITS}", launch=False), host_lines),
    "blind6-scalar-targets-only": Demo(one("uint8", 4, TO_UINT8X4), kernel_lines),
    "blind6-temp-with-target-lanes": Demo(one("uint8", 4, TO_UINT8X4), kernel_lines),
}

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
fix differ (harness/blind_demo.py; run with scripts/blind_demos.py --bug
reinterpret_of_constant).

Every program is valid; most are kernels built for OpenCL and run on pocl, where the unfixed
source takes the address of a literal and the OpenCL build fails; others show the "c" target's
host source or the OpenCL kernel source."""

import re
import tempfile
from pathlib import Path

import numpy as np
import tvm_ffi

import tvm
from harness.blind_demo import Demo, compile_and_run, message, script_of
from tvm.script import tirx as T

# a temporary's declaration: `float v_1 = ...`
_TEMP = re.compile(r"\s*[\w ]+ v(_\d+)? = ")
# 2.0f's bits as uint32 (0x40000000)
TWO_BITS = 'T.reinterpret("uint32", T.float32(2.0))'
# round 4's two buffers
AB = 'A: T.Buffer((2,), "uint32"), B: T.Buffer((2,), "float32")'


def buf(dtype, extent):
    """The parameter ``A``: ``extent`` elements of ``dtype``."""
    return f'A: T.Buffer(({extent},), "{dtype}")'


def kernels(params, *blocks, launch=True, threads=1):
    """A PrimFunc ``main(params)`` whose body is one kernel (a thread_binding ``t`` of
    ``threads`` threads) per block of TVMScript statements, or the statements of the only block
    on the host where ``launch`` is False."""
    lines = ["@T.prim_func", f"def main({params}):"]
    for block in blocks:
        indent = "    "
        if launch:
            lines.append(f'    for t in T.thread_binding({threads}, thread="threadIdx.x"):')
            indent = "        "
        lines += [indent + x for x in block]
    return tvm.script.from_source("\n".join(lines) + "\n", extra_vars={"T": T})


def one(params, *statements, **kw):
    """A program: ``kernels`` of one block."""
    return lambda: kernels(params, list(statements), **kw)


def values(func):
    """Observer: ``func`` built for OpenCL (llvm host) and run on pocl with its buffers zeroed:
    their values, or the error."""
    zeros = [np.zeros([int(x) for x in p.ty.shape], str(p.ty.dtype)) for p in func.params]
    return compile_and_run(func, zeros, list(range(len(zeros))))


def on_pocl(program):
    return Demo(program, values, opencl=True)


def run_as_c(func):
    """``func`` built for the "c" target, exported with gcc and run on the CPU: its buffer's
    values, or gcc's error."""
    lib = tvm.compile(func, target="c")
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "lib.so")
        try:
            lib.export_library(path)
        except Exception as err:  # gcc refuses the source
            lines = [x for x in str(err).splitlines() if " error: " in x]
            return f"export failed: {(lines or [message(err)])[0].split(' error: ', 1)[-1][:200]}"
        loaded = tvm.runtime.load_module(path)
        a = tvm.runtime.tensor(np.zeros(2, "uint32"), tvm.cpu(0))
        loaded["main"](a)
        return f"values: {a.numpy().tolist()}"


def host_lines(keep, joined=False):
    """Observer: the lines of the "c" target's host source that ``keep`` selects, stripped (a
    list, or one text where ``joined``)."""

    def observe(func):
        source = tvm.compile(func, target="c").mod.inspect_source()
        lines = [x.strip() for x in source.splitlines() if keep(x)]
        return " / ".join(lines) if joined else lines

    return observe


def kernel_source(func):
    """The OpenCL kernel's body lines (compiled to source only)."""
    try:
        src = tvm.compile(func, target="opencl").mod.imports[0].inspect_source()
    except Exception as err:
        return f"{type(err).__name__}: {str(err).strip().splitlines()[-1]}"
    body = src[src.index("__kernel") :]
    return " | ".join(x.strip() for x in body.splitlines()[1:] if x.strip() and x.strip() != "}")


def device_module_after_build(func):
    """The device module tvm.compile hands to target.build.opencl, printed after the build."""
    name = "target.build.opencl"
    build = tvm_ffi.get_global_func(name)  # the fix's stand-in
    given = []

    def keep(mod, target):
        given.append(mod)
        return build(mod, target)

    tvm_ffi.register_global_func(name, keep, override=True)
    try:
        tvm.compile(func, target="opencl")
    finally:
        tvm_ffi.register_global_func(name, build, override=True)
    return script_of(given[0])


def stored(src_dtype, value, dst_dtype, lanes=1):
    """Round 7's kernel: one thread storing ``reinterpret(dst_dtype x lanes, src_dtype(value))``
    to A."""
    vec = dst_dtype if lanes == 1 else f"{dst_dtype}x{lanes}"
    index = 0 if lanes == 1 else f"T.Ramp(0, 1, {lanes})"
    return one(
        buf(dst_dtype, lanes),
        f'A[{index}] = T.reinterpret("{vec}", T.Cast("{src_dtype}", {value}))',
    )


IN_CONDITION = [
    'if T.reinterpret("int32", T.float32(2.0)) == 0x40000000:',
    "    A[0] = 7",
]
IN_CONDITION_UINT = [
    'if T.reinterpret("uint32", T.float32(1.0)) == T.uint32(1065353216):',
    "    A[0] = T.uint32(7)",
]
TO_UINT8X4 = 'A[T.Ramp(0, 1, 4)] = T.reinterpret("uint8x4", T.int32(0x04030201))'

DEMOS = {
    # round 3
    # a host function built for "c": the wrong fix wraps the device builds only, gcc refuses
    "blind3-device-builds-only": Demo(
        one(buf("uint32", 2), f"A[0] = {TWO_BITS}", "A[1] = T.uint32(5)", launch=False),
        run_as_c,
    ),
    # an int32 constant's bits as float32: the wrong fix stores float constants only
    "blind3-float-constants-only": on_pocl(
        one(buf("float32", 1), 'A[0] = T.reinterpret("float32", T.int32(0x3F800000))')
    ),
    # the device module after the build: the wrong fix rewrites it in place, not a clone
    "blind3-no-clone": Demo(one(buf("uint32", 1), f"A[0] = {TWO_BITS}"), device_module_after_build),
    # an int32 constant as uint8x4 (a vector store): the wrong fix skips vector target types
    "blind3-scalar-target-only": on_pocl(
        one(
            buf("uint8", 4),
            'A[T.Ramp(0, 1, 4)] = T.reinterpret("uint8x4", T.int32(0x01020304))',
        )
    ),
    # two kernels: the wrong fix rewrites the first only
    "blind3-second-kernel": on_pocl(
        lambda: kernels(
            buf("uint32", 2),
            [f"A[0] = {TWO_BITS}"],
            ['A[1] = T.reinterpret("uint32", T.float32(1.0))'],
        )
    ),
    # one constant in an if's branch and after it: the wrong fix's one temporary is declared in
    # the branch only
    "blind3-shared-temporary": on_pocl(
        one(
            buf("uint32", 2),
            "if t == 0:",
            f"    A[0] = {TWO_BITS}",
            f"A[1] = {TWO_BITS}",
            threads=2,
        )
    ),
    # a reinterpret in an if condition: the wrong fix rewrites stores only
    "blind3-stores-only": on_pocl(one(buf("int32", 1), *IN_CONDITION)),
    # 2.0f's bits as uint32: the wrong fix's temporary is uint32, so C converts 2.0f to 2
    "blind3-target-type-temporary": on_pocl(one(buf("uint32", 1), f"A[0] = {TWO_BITS}")),
    # round 4: kernels of A (uint32) and B (float32)
    "blind4-float-only": on_pocl(
        one(AB, 'B[0] = T.reinterpret("float32", T.int32(0x3F800000))')  # 1.0f
    ),
    "blind4-temp-target-type": on_pocl(one(AB, f"A[0] = {TWO_BITS}")),
    "blind4-stores-only": on_pocl(
        one(
            AB,
            'if T.reinterpret("int32", T.float32(1.0)) == 0x3F800000:',  # an if's condition
            "    A[0] = T.uint32(7)",
        )
    ),
    "blind4-whole-value-only": on_pocl(
        one(AB, f"A[0] = {TWO_BITS} >> T.uint32(1)")  # an operand: 0x20000000
    ),
    "blind4-no-c-host": Demo(
        one(AB, f"A[0] = {TWO_BITS}", launch=False), host_lines(lambda x: " *)(&(" in x)
    ),
    "blind4-first-function-only": on_pocl(
        lambda: kernels(
            AB,
            [f"A[0] = {TWO_BITS}"],
            ['B[1] = T.reinterpret("float32", T.int32(0x3F800000))'],
        )
    ),
    # round 5: kernels of A, four elements
    "blind5-reinterp-float-only": on_pocl(
        one(buf("float32", 4), 'A[0] = T.reinterpret("float32", T.int32(1075838976))')
    ),
    "blind5-reinterp-target-type-temp": on_pocl(
        one(buf("uint32", 4), 'A[1] = T.reinterpret("uint32", T.float32(2.5))')
    ),
    "blind5-reinterp-no-c-host": Demo(
        one(
            buf("int32", 4),
            'A[0] = T.reinterpret("int32", T.float32(-1.5))',
            launch=False,
        ),
        host_lines(lambda x: "(&(" in x or _TEMP.match(x), joined=True),
    ),
    "blind5-reinterp-stores-only": on_pocl(
        one(
            buf("int32", 4),
            'if T.reinterpret("int32", T.float32(-0.0)) < 0:',
            "    A[2] = 7",
        )
    ),
    "blind5-reinterp-one-temp-per-type": on_pocl(
        one(
            buf("uint32", 4),
            'A[0] = T.reinterpret("uint32", T.float32(1.0)) - '
            'T.reinterpret("uint32", T.float32(0.5))',
        )
    ),
    "blind5-reinterp-scalar-targets-only": on_pocl(one(buf("uint8", 4), TO_UINT8X4)),
    "blind5-reinterp-first-function-only": on_pocl(
        lambda: kernels(
            buf("int32", 4),
            ['A[0] = T.reinterpret("int32", T.float32(1.0))'],
            ['A[3] = T.reinterpret("int32", T.float32(-2.0))'],
        )
    ),
    "blind5-reinterp-no-float64": on_pocl(
        one(buf("int64", 4), 'A[0] = T.reinterpret("int64", T.float64(2.0))')
    ),
    # round 6: kernels of A, one uint32 (or four uint8)
    "blind6-temp-of-target-type": on_pocl(one(buf("uint32", 1), f"A[0] = {TWO_BITS}")),
    "blind6-float-constants-only": on_pocl(
        one(
            buf("uint32", 1),
            'A[0] = T.Cast("uint32", T.reinterpret("float32", T.int32(1065353216)) '
            "* T.float32(3.0))",
        )
    ),
    "blind6-scalar-targets-only": on_pocl(one(buf("uint8", 4), TO_UINT8X4)),
    "blind6-stores-only": on_pocl(one(buf("uint32", 1), *IN_CONDITION_UINT)),
    "blind6-temp-with-target-lanes": on_pocl(one(buf("uint8", 4), TO_UINT8X4)),
    "blind6-first-function-only": on_pocl(
        lambda: kernels(
            buf("uint32", 1),
            [f"A[0] = {TWO_BITS}"],
            ['A[0] = A[0] + T.reinterpret("uint32", T.float32(1.0))'],
        )
    ),
    "blind6-no-c-host": Demo(
        one(buf("uint32", 1), f"A[0] = {TWO_BITS}", launch=False),
        host_lines(lambda x: "A[0] =" in x or " v" in x),
    ),
    # round 7: the OpenCL kernel source of one store, or its values on pocl
    "blind7-float-only": Demo(stored("int32", 1065353216, "float32"), kernel_source),
    "blind7-int-only": Demo(stored("float32", 2.0, "uint32"), kernel_source),
    "blind7-target-type-temp": on_pocl(stored("float32", 2.0, "uint32")),
    "blind7-scalar-target-only": Demo(stored("int32", 16909060, "uint8", 4), kernel_source),
    "blind7-32bit-only": Demo(stored("float64", 2.0, "uint64"), kernel_source),
    # the same constant reinterpreted inside a branch and after it
    "blind7-shared-temp": Demo(
        one(
            f"{buf('uint32', 3)}, n: T.int32",
            "if n > 0:",
            f"    A[1] = {TWO_BITS}",
            f"A[2] = {TWO_BITS}",
        ),
        kernel_source,
    ),
}

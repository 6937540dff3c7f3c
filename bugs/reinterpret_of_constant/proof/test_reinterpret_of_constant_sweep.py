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
"""Reinterprets of constants across dtype pairs, lanes and value classes (this repository only).

The upstream tests (test_target_codegen_c_host.py and test_target_codegen_opencl.py,
``*_reinterpret_keeps_the_bits``) take three scalar pairs on the C host and two kernels on
OpenCL. Here: every pair of the constants CodeGenC prints as literals (int32, float32,
float64) with scalar and vector targets, values with the top bit set, -0.0, subnormals,
infinities and NaN, and constants it already printed through a temporary (uint32, int64, int8)
that must keep their bits, each also as OpenCL source checked without a device (no literal's
address). OpenCL runs in-process on the OpenCL device (pocl here; skipped without one), the C
host target on the CPU (a C compiler). Each result is compared bit for bit with the constant's
own bits (a NaN: with any NaN, as the device's ``NAN`` has its own
payload). Then the places a reinterpret of a constant may stand in: a condition, a let value, a
loop extent, a branch and the code after it (each use needs its own lvalue in scope), two
constants of one type in one statement (each its own temporary), a module of two functions or
a kernel of two launches; on the C host and on the OpenCL device.
Last, the fix leaves the code of programs without such a reinterpret as it was, Metal's and
WebGPU's code alone (they print their own ``as_type``/``bitcast``), and the module it is given
as it was (the stand-in rewrites a copy; the C++ prints the temporary and changes no module).

Not swept: float16 and bfloat16 sources (pocl has no cl_khr_fp16, the C host no ``half``);
vectors and NaN/inf on the C host (its code generator prints neither: ``uint8_t4``, ``nanf``,
``inff`` are other defects); float values that need more than seven significant digits
(CodeGenC prints ``%e``, which loses them: another defect).
"""

import re

import numpy as np
import pytest
import tvm_ffi

import tvm
import tvm.testing
from bugs.reinterpret_of_constant import reference_fix
from tvm.script import ir as I
from tvm.script import tirx as T

_PHRASE = "reinterpret of a constant"
# the source types whose constants CodeGenC prints as literals it marks constant
_LITERALS = ("int32", "float32", "float64")

# id -> (source dtype, the constant's bits, target element dtype, target lanes)
SCALARS = {
    "float32-uint32:-0.0": ("float32", 0x80000000, "uint32", 1),
    "float32-int32:-2.5": ("float32", 0xC0200000, "int32", 1),
    "float32-uint32:least-subnormal": ("float32", 0x00000001, "uint32", 1),
    "float32-int32:negative-subnormal": ("float32", 0x80000003, "int32", 1),
    "float32-uint32:subnormal": ("float32", 0x00400000, "uint32", 1),
    "int32-float32:top-bit": ("int32", 0x80000000, "float32", 1),
    "int32-float32:a-nan's-bits": ("int32", 0x7FC00001, "float32", 1),
    "int32-uint32:-1": ("int32", 0xFFFFFFFF, "uint32", 1),
    "float64-uint64:-0.0": ("float64", 0x8000000000000000, "uint64", 1),
    "float64-int64:-2.0": ("float64", 0xC000000000000000, "int64", 1),
    "float64-uint64:least-subnormal": ("float64", 0x0000000000000001, "uint64", 1),
    "uint32-float32:top-bit": ("uint32", 0x80000000, "float32", 1),
    "int64-float64:top-bit": ("int64", 0xC000000000000000, "float64", 1),
    "int8-uint8:top-bit": ("int8", 0x80, "uint8", 1),
}
VECTORS = {
    "int32-uint8x4": ("int32", 0x04030201, "uint8", 4),
    "int32-int16x2:top-bits": ("int32", 0x8000FFFF, "int16", 2),
    "float32-uint16x2:-0.0": ("float32", 0x80000000, "uint16", 2),
    "float32-int8x4:-2.5": ("float32", 0xC0200000, "int8", 4),
    "float64-uint32x2:-2.0": ("float64", 0xC000000000000000, "uint32", 2),
    "float64-float32x2:1.5": ("float64", 0x3FF8000000000000, "float32", 2),
    "float64-uint8x8:-0.0": ("float64", 0x8000000000000000, "uint8", 8),
    "int64-int32x2": ("int64", 0x0000000180000000, "int32", 2),
}
# id -> (source dtype, value, target dtype): infinities and NaN (OpenCL prints INFINITY and
# NAN through a temporary already; the fix must not change that)
SPECIALS = {
    "float32-uint32:inf": ("float32", float("inf"), "uint32"),
    "float32-uint32:-inf": ("float32", -float("inf"), "uint32"),
    "float32-int32:nan": ("float32", float("nan"), "int32"),
    "float64-uint64:-inf": ("float64", -float("inf"), "uint64"),
    "float64-uint64:nan": ("float64", float("nan"), "uint64"),
}


def _bits_dtype(dtype):
    return f"uint{np.dtype(dtype).itemsize * 8}"


def _constant(source, bits):
    """The constant of type ``source`` whose bits are ``bits``, and its numpy value."""
    value = np.array([bits], _bits_dtype(source)).view(source)[0]
    return tvm.tirx.const(value.item(), source), value


def _bug_mark(source, raises):
    if source not in _LITERALS:
        return []
    return [pytest.mark.xfail(strict=True, raises=raises, reason=_PHRASE)]


def _params(cases, raises):
    return [
        pytest.param(*case, marks=_bug_mark(case[0], raises), id=i) for i, case in cases.items()
    ]


def _kernel(constant, dtype, lanes):
    vector = f"{dtype}x{lanes}" if lanes > 1 else dtype

    @T.prim_func
    def main(A: T.Buffer((lanes,), dtype)):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0:lanes] = T.reinterpret(vector, constant)

    return main


def _run_on_opencl(func, dtype, lanes):
    lib = tvm.compile(func, target="opencl")
    a = tvm.runtime.empty((lanes,), dtype, tvm.opencl(0))
    lib["main"](a)
    return a.numpy()


def _expected(value, dtype):
    return np.array([value]).view(dtype)


def _assert_same_bits(result, expected):
    np.testing.assert_array_equal(result.view("uint8"), expected.view("uint8"))


_OPENCL = pytest.mark.skipif(not tvm.testing.env.has_opencl(), reason="needs an OpenCL device")


@pytest.mark.parametrize(
    "source, bits, dtype, lanes", _params({**SCALARS, **VECTORS}, AssertionError)
)
def test_opencl_kernel_source_takes_no_literal_address(source, bits, dtype, lanes):
    """Without a device too: the kernel's OpenCL source takes the address of a variable, never
    of a literal, whatever the target's lanes"""
    constant, _ = _constant(source, bits)
    source_code = compiled_source(_kernel(constant, dtype, lanes), "opencl")
    addresses = re.findall(r"&\(([^()]*)\)", source_code)
    assert all(operand.isidentifier() for operand in addresses), addresses


@_OPENCL
@pytest.mark.parametrize(
    "source, bits, dtype, lanes", _params({**SCALARS, **VECTORS}, tvm.error.InternalError)
)
def test_opencl_kernel_reinterpret_of_constant_keeps_the_bits(source, bits, dtype, lanes):
    constant, value = _constant(source, bits)
    result = _run_on_opencl(_kernel(constant, dtype, lanes), dtype, lanes)
    _assert_same_bits(result, _expected(value, dtype))


@_OPENCL
@pytest.mark.parametrize("source, value, dtype", list(SPECIALS.values()), ids=list(SPECIALS))
def test_opencl_kernel_reinterpret_of_inf_and_nan(source, value, dtype):
    constant = tvm.tirx.const(value, source)
    result = _run_on_opencl(_kernel(constant, dtype, 1), dtype, 1).view(source)
    if np.isnan(value):
        assert np.isnan(result[0]), f"not a NaN: {result.view(_bits_dtype(source))}"
    else:
        _assert_same_bits(result, np.array([value], source))


@pytest.mark.parametrize("source, bits, dtype, lanes", _params(SCALARS, RuntimeError))
def test_c_host_reinterpret_of_constant_keeps_the_bits(tmp_path, source, bits, dtype, lanes):
    constant, value = _constant(source, bits)

    @T.prim_func
    def main(A: T.Buffer((1,), dtype)):
        A[0] = T.reinterpret(dtype, constant)

    path = str(tmp_path / "lib.so")
    tvm.compile(main, target="c").export_library(path)
    a = tvm.runtime.empty((1,), dtype, tvm.cpu(0))
    tvm.runtime.load_module(path)["main"](a)
    _assert_same_bits(a.numpy(), _expected(value, dtype))


# the bits of -2.5f, the constant the placement cases reinterpret
_PLACED_BITS = 0xC0200000


def _placed():
    return T.reinterpret("uint32", T.float32(-2.5))


def _placed_opposite():
    """The bits of 2.5f: ``_placed() - _placed_opposite()`` is the sign bit alone."""
    return T.reinterpret("uint32", T.float32(2.5))


def _c_host_placements():
    """id -> (a function or module of the C target, the functions to call with (A, 1), A after
    them): a reinterpret of a constant outside a plain store, or in more than one scope or
    function."""

    @T.prim_func
    def condition(A: T.Buffer((2,), "uint32"), n: T.int32):
        A[0] = T.uint32(0)
        A[1] = T.uint32(0)
        if _placed() == T.uint32(_PLACED_BITS):
            A[0] = T.uint32(1)

    @T.prim_func
    def let_value(A: T.Buffer((2,), "uint32"), n: T.int32):
        y: T.let[T.uint32] = _placed()
        A[0] = y
        A[1] = y + T.Cast("uint32", n)

    @T.prim_func
    def loop_extent(A: T.Buffer((2,), "uint32"), n: T.int32):
        A[0] = T.uint32(0)
        A[1] = T.uint32(0)
        for i in range(T.Cast("int32", _placed() >> T.uint32(30))):
            A[0] = A[0] + T.uint32(1)

    @T.prim_func
    def branch_then_after(A: T.Buffer((2,), "uint32"), n: T.int32):
        if n > 0:
            A[0] = _placed()
        A[1] = _placed()

    @T.prim_func
    def two_of_a_type(A: T.Buffer((2,), "uint32"), n: T.int32):
        A[0] = _placed() - _placed_opposite()

    @I.ir_module
    class TwoFunctions:
        @T.prim_func
        def main(A: T.Buffer((2,), "uint32"), n: T.int32):
            A[0] = _placed()

        @T.prim_func
        def second(A: T.Buffer((2,), "uint32"), n: T.int32):
            A[1] = _placed()

    bits = _PLACED_BITS
    return {
        "condition": (condition, ["condition"], [1, 0]),
        "let-value": (let_value, ["let_value"], [bits, bits + 1]),
        "loop-extent": (loop_extent, ["loop_extent"], [3, 0]),
        "branch-then-after": (branch_then_after, ["branch_then_after"], [bits, bits]),
        "two-functions": (TwoFunctions, ["main", "second"], [bits, bits]),
        "two-of-a-type": (two_of_a_type, ["two_of_a_type"], [0x80000000, 0]),
    }


_PLACEMENTS = [
    "condition",
    "let-value",
    "loop-extent",
    "branch-then-after",
    "two-functions",
    "two-of-a-type",
]
_PLACED_BUG = pytest.mark.xfail(strict=True, raises=RuntimeError, reason=_PHRASE)


@_PLACED_BUG
@pytest.mark.parametrize("placement", _PLACEMENTS)
def test_c_host_reinterpret_of_constant_anywhere(tmp_path, placement):
    program, calls, expected = _c_host_placements()[placement]
    path = str(tmp_path / "lib.so")
    tvm.compile(program, target="c").export_library(path)
    lib = tvm.runtime.load_module(path)
    a = tvm.runtime.tensor(np.zeros(2, "uint32"), tvm.cpu(0))
    for name in calls:
        lib[name](a, 1)
    np.testing.assert_array_equal(a.numpy(), np.array(expected, "uint32"))


def _kernel_placements():
    """id -> (a kernel of two threads writing A, A after it): the same on the device."""

    @T.prim_func
    def condition(A: T.Buffer((2,), "uint32")):
        for t in T.thread_binding(2, thread="threadIdx.x"):
            A[t] = T.uint32(0)
            if _placed() == T.uint32(_PLACED_BITS):
                A[t] = T.uint32(1)

    @T.prim_func
    def branch_then_after(A: T.Buffer((2,), "uint32")):
        for t in T.thread_binding(2, thread="threadIdx.x"):
            if t == 0:
                A[0] = _placed()
            A[1] = _placed()

    @T.prim_func
    def two_of_a_type(A: T.Buffer((2,), "uint32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = _placed() - _placed_opposite()

    @T.prim_func
    def two_launches(A: T.Buffer((2,), "uint32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = _placed()
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[1] = _placed()

    bits = _PLACED_BITS
    return {
        "condition": (condition, [1, 1]),
        "branch-then-after": (branch_then_after, [bits, bits]),
        "two-launches": (two_launches, [bits, bits]),
        "two-of-a-type": (two_of_a_type, [0x80000000, 0]),
    }


@_OPENCL
@pytest.mark.xfail(strict=True, raises=tvm.error.InternalError, reason=_PHRASE)
@pytest.mark.parametrize(
    "placement", ["condition", "branch-then-after", "two-launches", "two-of-a-type"]
)
def test_opencl_kernel_reinterpret_of_constant_anywhere(placement):
    kernel, expected = _kernel_placements()[placement]
    a = tvm.runtime.tensor(np.zeros(2, "uint32"), tvm.opencl(0))
    tvm.compile(kernel, target="opencl")["main"](a)
    np.testing.assert_array_equal(a.numpy(), np.array(expected, "uint32"))


def test_fix_leaves_the_module_it_builds_alone():
    """The stand-in builds a rewritten copy: the module handed to the build keeps its
    functions (as TVM's code generator does; the C++ fix rewrites no module)."""
    name = "target.build.c"
    build = tvm_ffi.get_global_func(name)  # the fix's stand-in where it is installed
    given = []

    def keep(mod, target):
        given.append((mod, dict(mod.functions.items())))
        return build(mod, target)

    tvm_ffi.register_global_func(name, keep, override=True)
    try:
        tvm.compile(_c_host_placements()["two-functions"][0], target="c")
    finally:
        tvm_ffi.register_global_func(name, build, override=True)
    ((mod, before),) = given
    after = dict(mod.functions.items())
    assert after.keys() == before.keys()
    assert all(after[gvar].same_as(func) for gvar, func in before.items())


def compiled_source(func, target):
    """The code ``tvm.compile`` writes for ``func``: the C host's, or the kernel's."""
    lib = tvm.compile(func, target=target)
    kind = tvm.target.Target(target).kind.name
    return lib.mod.inspect_source() if kind == "c" else lib.mod.imports[0].inspect_source()


def assert_source_unchanged(func, target):
    """``func`` compiles to the same code with the fix installed and inside ``unfixed()``."""
    fixed = compiled_source(func, target)
    with reference_fix.unfixed():
        released = compiled_source(func, target)
    assert fixed == released


def _without_constant(target):
    """Reinterprets the fix leaves alone: of an argument, of an expression, of a broadcast
    (in a kernel; the C host's code takes no thread binding and no vector type)."""

    @T.prim_func
    def kernel(A: T.Buffer((4,), "uint32"), x: T.float32):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.reinterpret("uint32", x)
            A[1] = T.reinterpret("uint32", x * T.float32(2))
            A[0:4] = T.reinterpret("uint32x4", T.Broadcast(T.float32(1.5), 4))

    @T.prim_func
    def host(A: T.Buffer((2,), "uint32"), x: T.float32):
        A[0] = T.reinterpret("uint32", x)
        A[1] = T.reinterpret("uint32", x * T.float32(2))

    return host if target == "c" else kernel


@pytest.mark.parametrize("target", ["c", "opencl", {"kind": "cuda", "arch": "sm_80"}])
def test_fix_leaves_other_reinterprets_alone(target):
    assert_source_unchanged(_without_constant(target), target)


@pytest.mark.parametrize("target", ["metal", "webgpu"])
def test_fix_leaves_metal_and_webgpu_alone(target):
    assert_source_unchanged(_kernel(tvm.tirx.const(-2.5, "float32"), "uint32", 1), target)

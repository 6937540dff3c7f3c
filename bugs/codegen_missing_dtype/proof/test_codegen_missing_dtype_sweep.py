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
"""The codegen_missing_dtype rule swept over dtypes, lanes and targets (this repository only).

Every type a WebGPU or Metal kernel's buffer holds (element type x lanes), and every type of a
WebGPU kernel's scalar argument: the ones the target lacks are refused with a ValueError that
names the target and the type; the ones it has compile, fixed or not (no valid program is
newly rejected). Which types a target lacks is stated here as a table, independently of the
reference fix's own predicates.

Where the missing type sits is swept too: float64 only in the arithmetic of the first or the
second kernel of a function whose parameters the target has, and on Metal a float64 buffer
beside a buffer of an integer type Metal has (int64 and uint64 included): the error names
float64; and every type a target has, in a buffer parameter or in the body before a float64
of the same kernel, is never the one named (a fix reads its tables only after the code
generator refused, so a one-type kernel cannot show a type counted missing wrongly). A narrow
argument of a kernel handed to the WebGPU code generator directly
(``tvm.target.codegen.build_module``, where patch 0004's widening does not run) is refused
naming it, and one it can pass (uint32 included) is never named; a kernel with both a buffer
type WebGPU lacks and an argument it cannot pass names the buffer's type, which the code
generator meets first. And the int64 that WebGPU's build narrows to i32 on purpose (an int64
argument, int64 arithmetic, a symbolic int64 extent) still compiles: a fix converts only what
the code generator refused, it does not refuse from the IR's types.
"""

import os
import sys
from pathlib import Path

import pytest

import tvm
from tvm.script import tirx as T

if str(Path(__file__).resolve().parents[3]) not in sys.path:  # `python FILE` from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from harness import upstream_tests

METAL = upstream_tests.load("codegen/test_target_codegen_metal.py")
WEBGPU = upstream_tests.load("codegen/test_target_codegen_webgpu.py")

BUG = pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="WebGPU and Metal refuse a dtype the target lacks with an internal error",
)

LANES = (1, 2, 3, 4, 8, 16)
HAS = None
VEC = "WGSL vectors have 2, 3 or 4 lanes"
I64 = "WGSL has no 64-bit integers"
F = "WGSL has f16 and f32 only"
NO = "WGSL has no such type"
# element -> per lane count (1, 2, 3, 4, 8, 16): HAS, or the reason patch 0014's
# CodeGenWebGPU::PrintType gives (a bool vector matches neither the int nor the uint code)
WEBGPU_VERDICT = {
    "bool": (HAS, NO, NO, NO, VEC, VEC),
    "int1": (HAS, HAS, HAS, HAS, VEC, VEC),
    "int4": (HAS, HAS, HAS, HAS, VEC, VEC),
    "int8": (HAS, HAS, HAS, HAS, VEC, VEC),
    "int16": (HAS, HAS, HAS, HAS, VEC, VEC),
    "int32": (HAS, HAS, HAS, HAS, VEC, VEC),
    "int64": (I64, I64, I64, I64, VEC, VEC),
    "uint1": (HAS, HAS, HAS, HAS, VEC, VEC),
    "uint4": (HAS, HAS, HAS, HAS, VEC, VEC),
    "uint8": (HAS, HAS, HAS, HAS, VEC, VEC),
    "uint16": (HAS, HAS, HAS, HAS, VEC, VEC),
    "uint32": (HAS, HAS, HAS, HAS, VEC, VEC),
    "uint64": (I64, I64, I64, I64, VEC, VEC),
    "float16": (HAS, HAS, HAS, HAS, VEC, VEC),
    "float32": (HAS, HAS, HAS, HAS, VEC, VEC),
    "float64": (F, F, F, F, VEC, VEC),
    "bfloat16": (HAS, HAS, HAS, HAS, VEC, VEC),
    "float8_e4m3fn": (HAS, HAS, HAS, HAS, VEC, VEC),
    "float8_e5m2": (HAS, HAS, HAS, HAS, VEC, VEC),
    "float8_e8m0fnu": (HAS, HAS, HAS, HAS, VEC, VEC),
    "float6_e2m3fn": (NO, NO, NO, NO, VEC, VEC),
    "float4_e2m1fn": (NO, NO, NO, NO, VEC, VEC),
}
Y, N = True, False
# element -> per lane count: whether patch 0014's CodeGenMetal::PrintType refuses it
METAL_VERDICT = {
    "bool": (N, Y, Y, Y, Y, Y),
    "int1": (N, N, N, N, Y, Y),
    "int4": (Y, Y, Y, Y, Y, Y),
    "int8": (N, N, N, N, Y, Y),
    "int16": (N, N, N, N, Y, Y),
    "int32": (N, N, N, N, Y, Y),
    "int64": (N, N, N, N, Y, Y),
    "uint1": (N, N, N, N, Y, Y),
    "uint4": (Y, Y, Y, Y, Y, Y),
    "uint8": (N, N, N, N, Y, Y),
    "uint16": (N, N, N, N, Y, Y),
    "uint32": (N, N, N, N, Y, Y),
    "uint64": (N, N, N, N, Y, Y),
    "float16": (N, N, N, N, Y, Y),
    "float32": (N, N, N, N, Y, Y),
    "float64": (Y, Y, Y, Y, Y, Y),
    "bfloat16": (N, N, N, N, Y, Y),
    "float8_e4m3fn": (N, N, N, N, Y, Y),
    "float8_e5m2": (N, N, N, N, Y, Y),
    "float8_e8m0fnu": (N, N, N, N, Y, Y),
    "float6_e2m3fn": (Y, Y, Y, Y, Y, Y),
    "float4_e2m1fn": (Y, Y, Y, Y, Y, Y),
}
# the types that reach the code generators as their storage type
STORAGE = {"bfloat16": "uint16", "float8_e4m3fn": "uint8", "float8_e5m2": "uint8"}
STORAGE["float8_e8m0fnu"] = "uint8"


def refused(target, dtype, then=""):
    """``pytest.raises`` of the ValueError naming ``dtype`` as a type ``target`` cannot
    represent (``then``: the pattern that follows the type's name)."""
    return pytest.raises(
        ValueError, match=rf"the {target} target cannot represent the type {dtype}{then}"
    )


def verdict(target, element, lanes):
    """HAS, or what the refusal says after the type (WebGPU: its reason; Metal: nothing)."""
    position = LANES.index(lanes)
    if target == "webgpu":
        return WEBGPU_VERDICT[element][position]
    return "" if METAL_VERDICT[element][position] else HAS


def dtype_of(element, lanes):
    """The type ``element`` x ``lanes`` as TVM spells it (``float32``, ``float32x4``)."""
    return element if lanes == 1 else f"{element}x{lanes}"


def kernel(element, lanes, scalar="int32"):
    """The upstream WebGPU file's kernel storing its ``scalar`` argument cast to the type."""
    return WEBGPU._cast_kernel(dtype_of(element, lanes), scalar)


def _cases(missing):
    cases = []
    for target in ("webgpu", "metal"):
        for element in WEBGPU_VERDICT:
            for lanes in LANES:
                if (verdict(target, element, lanes) is not HAS) == missing:
                    marks = [BUG] if missing else []
                    cases.append(pytest.param(target, element, lanes, marks=marks))
    return cases


@pytest.mark.parametrize("target, element, lanes", _cases(missing=True))
def test_type_the_target_lacks_is_a_value_error_naming_it(target, element, lanes):
    dtype = dtype_of(STORAGE.get(element, element), lanes)
    reason = verdict(target, element, lanes)
    with refused(target, dtype, f": {reason}$" if reason else "$"):
        tvm.compile(kernel(element, lanes), target=target)


@pytest.mark.parametrize("target, element, lanes", _cases(missing=False))
def test_type_the_target_has_compiles(target, element, lanes):
    tvm.compile(kernel(element, lanes), target=target)


def _narrow_scalars_widened():
    """Whether narrow_scalar's fix (patch 0004) is installed: it passes an int8, int16 or
    float16 kernel argument as 32 bits, so WebGPU never sees one."""
    fixes = os.environ.get("TVM_REFERENCE_FIXES", "").split(",")
    return "narrow_scalar" in fixes or os.environ.get("TVM_WRONG_FIX", "").startswith(
        "narrow_scalar:"
    )


NARROW = pytest.mark.skipif(
    _narrow_scalars_widened(), reason="narrow_scalar's fix widens the argument to 32 bits"
)


@BUG
@pytest.mark.parametrize(
    "scalar",
    [pytest.param(s, marks=NARROW) for s in ("int8", "int16", "float16")] + ["uint64", "float64"],
)
def test_webgpu_kernel_argument_it_cannot_pass_is_a_value_error(scalar):
    """Without patch 0004 a narrow kernel argument reaches AddFunction: a ValueError naming it."""
    with pytest.raises(ValueError, match=rf"cannot pass a kernel argument of type {scalar}:"):
        tvm.compile(kernel("float32", 1, scalar), target="webgpu")


@BUG
@pytest.mark.parametrize("scalar", ["uint64", "float64"])
@pytest.mark.parametrize("element, lanes", [("int64", 1), ("uint64", 3), ("float64", 1)])
def test_webgpu_names_a_buffer_type_before_a_kernel_argument(element, lanes, scalar):
    """A WebGPU kernel with a buffer of a type WGSL lacks and a kernel argument it cannot pass:
    the code generator declares the buffers before the arguments, so the ValueError names the
    buffer's type, not the argument's."""
    with refused("webgpu", dtype_of(element, lanes), r"\b"):
        tvm.compile(kernel(element, lanes, scalar), target="webgpu")


@pytest.mark.parametrize("scalar", ["int32", "uint32", "float32"])
def test_webgpu_kernel_argument_it_passes_compiles(scalar):
    tvm.compile(kernel("float32", 1, scalar), target="webgpu")


@BUG
@pytest.mark.parametrize("scalar", ["int32", "uint32", "float32"])
def test_webgpu_kernel_argument_it_passes_is_not_named(scalar):
    """A WebGPU kernel computing in float64 from an argument WGSL passes (i32, u32, f32): the
    ValueError names float64, not the argument."""
    main = WEBGPU._float64_in_kernel(scalar, second=False)
    with refused("webgpu", "float64", ":"):
        tvm.compile(main, target="webgpu")


@pytest.mark.parametrize("target", ["webgpu", "metal"])
def test_internal_error_of_another_kind_stays_internal(target):
    """An internal error of the code generator that is not about a type is left as it is."""
    from bugs.codegen_missing_dtype import reference_fix as fix

    def failing(mod, target_obj):
        raise tvm.error.InternalError("another check")

    with pytest.raises(tvm.error.InternalError, match="another check"):
        fix._fixed_build(target, failing)(tvm.IRModule({"main": kernel("int32", 1)}), None)


def _scalable_buffer(lanes=4):
    """A kernel taking a pointer to a scalable vector type (no target has it), then computing
    in float64 into a float32 buffer."""
    dtype = f"float32xvscalex{lanes}"

    @T.prim_func
    def main(A_ptr: T.handle(dtype), B_ptr: T.handle("float32"), n: T.int32):
        T.func_attr({"calling_conv": 2, "global_symbol": "main"})
        B = T.decl_buffer((1,), "float32", data=B_ptr)
        B[0] = T.Cast("float32", T.Cast("float64", n) * T.float64(2))

    return main


def _no_calling_conv(calling_conv=None):
    """A float64 kernel without a calling convention, or with another than a kernel's (2)."""

    @T.prim_func
    def main(A_ptr: T.handle("float64"), n: T.int32):
        T.func_attr({"global_symbol": "main"})
        A = T.decl_buffer((1,), "float64", data=A_ptr)
        A[0] = T.Cast("float64", n)

    return main if calling_conv is None else main.with_attr("calling_conv", calling_conv)


def _packed_calling_conv():
    return _no_calling_conv(1)


def _unknown_calling_conv():
    return _no_calling_conv(3)


def _no_global_symbol():
    """A float64 kernel without a symbol."""

    @T.prim_func
    def main(A_ptr: T.handle("float64"), n: T.int32):
        T.func_attr({"calling_conv": 2})
        A = T.decl_buffer((1,), "float64", data=A_ptr)
        A[0] = T.Cast("float64", n)

    return main.without_attr("global_symbol")


@pytest.mark.parametrize("target", ["webgpu", "metal"])
@pytest.mark.parametrize(
    "program",
    [
        _scalable_buffer,
        _no_calling_conv,
        _packed_calling_conv,
        _unknown_calling_conv,
        _no_global_symbol,
    ],
)
def test_internal_check_met_before_a_type_stays_internal(target, program):
    """The build stops at an internal check before it prints the float64 (a scalable vector's
    lane count, a kernel without a calling convention or a symbol): patch 0014 leaves that
    error as it is, so no type is named."""
    with pytest.raises(tvm.error.InternalError):
        tvm.target.codegen.build_module(tvm.IRModule({"main": program()}), target)


@T.prim_func
def _float64_before_scalable(B_ptr: T.handle("float64"), A_ptr: T.handle("float32xvscalex4")):
    T.func_attr({"calling_conv": 2, "global_symbol": "main"})
    B = T.decl_buffer((1,), "float64", data=B_ptr)
    A = T.decl_buffer((1,), "float32xvscalex4", data=A_ptr)
    A[0] = T.Broadcast(T.Cast("float32", B[0]), 4 * T.vscale())


@BUG
@pytest.mark.parametrize("target", ["webgpu", "metal"])
def test_type_printed_before_a_scalable_vector_is_named(target):
    """A float64 buffer declared before a scalable vector buffer: the code generator refuses
    the float64 first, so the ValueError names it."""
    mod = tvm.IRModule({"main": _float64_before_scalable})
    with refused(target, "float64"):
        tvm.target.codegen.build_module(mod, target)


def two_kernels(missing_in, int_dtype):
    """A function of two kernels over an ``int_dtype`` buffer A and a float32 buffer B: the
    kernel ``missing_in`` ("first" or "second") computes in float64 from A, the other writes A.
    The float64 is in one kernel's arithmetic only, never in a parameter. The second is the
    upstream Metal file's kernel."""
    if missing_in == "second":
        return METAL._float64_in_second_kernel(int_dtype)

    @T.prim_func
    def first(A: T.Buffer((1,), int_dtype), B: T.Buffer((1,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            B[0] = T.Cast("float32", T.Cast("float64", A[0]) * T.float64(3))
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast(int_dtype, 1)

    return first


# the integer types each target has (Metal's include the 64-bit ones)
HAS_INTEGERS = {"webgpu": ("int32", "uint32"), "metal": ("int32", "int64", "uint64")}


@BUG
@pytest.mark.parametrize(
    "target, int_dtype",
    [(target, dtype) for target, dtypes in HAS_INTEGERS.items() for dtype in dtypes],
)
@pytest.mark.parametrize("missing_in", ["first", "second"])
def test_type_missing_in_a_kernel_body_is_named(target, int_dtype, missing_in):
    """A float64 value in the arithmetic of either kernel of a function, whose parameters the
    target has, is a ValueError naming float64 (not a parameter's type)."""
    with refused(target, "float64", r"\b"):
        tvm.compile(two_kernels(missing_in, int_dtype), target=target)


@BUG
@pytest.mark.parametrize("has", ["int64", "uint64", "int8", "uint16"])
@pytest.mark.parametrize("order", ["has-first", "missing-first"])
def test_metal_names_the_type_it_lacks_beside_one_it_has(has, order):
    """A Metal kernel with a buffer of an integer type Metal has and a float64 buffer, in
    either order: the ValueError names float64."""

    def kernel(first, second):
        @T.prim_func
        def main(A: T.Buffer((1,), first), B: T.Buffer((1,), second)):
            for _ in T.thread_binding(1, thread="threadIdx.x"):
                B[0] = T.Cast(second, A[0])

        return main

    dtypes = (has, "float64") if order == "has-first" else ("float64", has)
    with refused("metal", "float64", r"\b"):
        tvm.compile(kernel(*dtypes), target="metal")


# the types each target has that the lowering rewrites before a kernel body reaches the code
# generator: bfloat16 and the float8 types are computed in float32, and Metal's int64 vectors
# (a local buffer's) narrowed to int32; in a buffer parameter they reach it as stored
REWRITTEN_IN_BODY = {
    (target, element, lanes)
    for target in ("webgpu", "metal")
    for element in ("bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu")
    for lanes in (1, 2, 3, 4)
} | {("metal", "int64", lanes) for lanes in (2, 3, 4)}


def has_before_float64(dtype, position):
    """A kernel with a value of ``dtype`` before its float64: in a buffer parameter before a
    float64 buffer ("buffer"), or in a local buffer before float64 arithmetic ("body")."""
    element, _, lanes = dtype.partition("x")

    def value(n):
        return T.Broadcast(T.Cast(element, n), int(lanes)) if lanes else T.Cast(element, n)

    @T.prim_func
    def in_buffer(A: T.Buffer((1,), dtype), B: T.Buffer((1,), "float64"), n: T.int32):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = value(n)
            B[0] = T.Cast("float64", n) * T.float64(3)

    @T.prim_func
    def in_body(B: T.Buffer((1,), "float32"), n: T.int32):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            C = T.alloc_buffer((1,), dtype, scope="local")
            C[0] = value(n)
            B[0] = T.Cast("float32", T.Cast("float64", n) * T.float64(3))

    return in_buffer if position == "buffer" else in_body


def _has_before_float64_cases():
    cases = []
    for target, element, lanes in (case.values for case in _cases(missing=False)):
        for position in ("buffer", "body"):
            if position == "buffer" or (target, element, lanes) not in REWRITTEN_IN_BODY:
                cases.append(pytest.param(target, element, lanes, position))
    return cases


@BUG
@pytest.mark.parametrize("target, element, lanes, position", _has_before_float64_cases())
def test_type_the_target_has_before_one_it_lacks_is_not_named(target, element, lanes, position):
    """Every type the target has, in a buffer or in the body before a float64 of the same
    kernel: the ValueError names float64, the type the target lacks."""
    with refused(target, "float64", r"\b"):
        tvm.compile(has_before_float64(dtype_of(element, lanes), position), target=target)


def select_beside_float64(order):
    """A kernel whose vector comparison (a bool vector no code generator prints: a select
    reads it) comes before or after float64 arithmetic."""

    @T.prim_func
    def select_first(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            for i in T.vectorized(4):
                B[i] = T.Select(A[i] > T.float32(0), A[i], T.float32(0))
            B[0] = T.Cast("float32", T.Cast("float64", A[0]) * T.float64(2))

    @T.prim_func
    def float64_first(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            B[0] = T.Cast("float32", T.Cast("float64", A[0]) * T.float64(2))
            for i in T.vectorized(4):
                B[i] = T.Select(A[i] > T.float32(0), A[i], T.float32(0))

    return select_first if order == "select-first" else float64_first


@BUG
@pytest.mark.parametrize("target", ["webgpu", "metal"])
@pytest.mark.parametrize("order", ["select-first", "float64-first"])
def test_unprinted_bool_vector_is_not_named(target, order):
    """The code generators refuse the float64 of a kernel, not the bool vector of a selected
    comparison that they never print: the ValueError names float64."""
    with refused(target, "float64", r"\b"):
        tvm.compile(select_beside_float64(order), target=target)


# a device kernel (calling convention 2) that stores its argument, as the code generator
# receives it: no SplitHostDevice, so patch 0004 cannot widen the argument
device_kernel = WEBGPU._argument_kernel


@BUG
@pytest.mark.parametrize("scalar", ["int8", "int16", "uint8", "uint16", "float16", "bool"])
def test_webgpu_codegen_kernel_argument_it_cannot_pass_is_a_value_error(scalar):
    """A narrow argument of a kernel given to the WebGPU code generator directly (as
    tvm.target.codegen.build_module does) is a ValueError naming it, with patch 0004 or not."""
    mod = tvm.IRModule({"main": device_kernel(scalar)})
    with pytest.raises(ValueError, match=rf"cannot pass a kernel argument of type {scalar}:"):
        tvm.target.codegen.build_module(mod, "webgpu")


@pytest.mark.parametrize("scalar", ["int32", "uint32", "float32"])
def test_webgpu_codegen_kernel_argument_it_passes_compiles(scalar):
    tvm.target.codegen.build_module(tvm.IRModule({"main": device_kernel(scalar)}), "webgpu")


@T.prim_func
def _int64_index_arithmetic(A: T.Buffer((4,), "float32"), n: T.int32):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        A[t] = T.Cast("float32", T.Cast("int64", n) * T.int64(3) // T.int64(2))


@T.prim_func
def _int64_offset_argument(A: T.Buffer((8,), "float32"), n: T.int64):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        A[n + T.Cast("int64", t)] = T.float32(1)


@T.prim_func
def _int64_symbolic_extent(a: T.handle, n: T.int64):
    A = T.match_buffer(a, (n,), "float32")
    for i in T.thread_binding(n, thread="blockIdx.x"):
        A[i] = T.float32(1)


@pytest.mark.parametrize(
    "func",
    [
        kernel("int32", 1, "int64"),
        kernel("float32", 1, "int64"),
        _int64_index_arithmetic,
        _int64_offset_argument,
        _int64_symbolic_extent,
    ],
    ids=["argument-int32", "argument-float32", "arithmetic", "offset", "symbolic-extent"],
)
def test_webgpu_compiles_the_int64_it_narrows(func):
    """WebGPU's build narrows int64 values and arguments to i32 (ForceNarrowIndexToInt32):
    such kernels compile, fixed or not; a fix refuses only what the code generator refused."""
    tvm.compile(func, target="webgpu")

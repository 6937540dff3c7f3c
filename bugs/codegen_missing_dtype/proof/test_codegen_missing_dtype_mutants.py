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
"""WebGPU's and Metal's refusals on the programs that tell mutants of the fix apart (proof only).

Each case below is a program on which a mutant of bugs/codegen_missing_dtype/reference_fix.py
(scripts/mutants.py) names another type than the reference fix, or none, and which the sweep
(test_codegen_missing_dtype_sweep.py) does not build:

* a vector of 5 lanes, one past the 4 both targets allow (mutants let 5 lanes through);
* a kernel given to the code generator directly (``tvm.target.codegen.build_module``), where
  no lowering has stored bfloat16 and float8 values as unsigned integers: WebGPU lacks them,
  Metal lacks the float8 types and bfloats of other than 16 bits and has bfloat16, both lack
  bool vectors, and WebGPU has a 128-bit integer (it refuses 64 bits only): mutants took
  such a type for one the target has (bfloat16, float8_e3m4, float8x4, bfloat8, bfloat32,
  boolx2, int64x4), or counted Metal's bfloat16 or WebGPU's int128 missing, which shows
  beside a float64;
* a call returning nothing (``void``) before a float64: the error names float64 (mutants
  counted void missing);
* a selected comparison of 2 or 3 lanes (a bool vector no code generator prints) before a
  float64: the error names float64 (a mutant let 2-lane bool vectors into the first search);
* a float64 constant passed to an external function, WebGPU's only float64 (printed by the
  constant's printer, not by PrintType; Metal prints it): the error names float64 (a wrong fix
  left that printer's internal error).
"""

import pytest
from test_codegen_missing_dtype_sweep import BUG, refused

import tvm
from tvm.script import tirx as T


def _value(dtype, n):
    element, _, lanes = dtype.partition("x")
    return T.Broadcast(T.Cast(element, n), int(lanes)) if lanes else T.Cast(element, n)


def cast_kernel(dtype):
    """A kernel that stores its int32 argument, cast to ``dtype``, in a ``dtype`` buffer."""

    @T.prim_func
    def main(A: T.Buffer((1,), dtype), n: T.int32):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = _value(dtype, n)

    return main


@BUG
@pytest.mark.parametrize("target", ["webgpu", "metal"])
@pytest.mark.parametrize("dtype", ["int32x5", "uint8x5", "float16x5", "float32x5"])
def test_vector_of_five_lanes_is_named(target, dtype):
    """A vector of 5 lanes is a ValueError naming it on both targets."""
    with refused(target, dtype):
        tvm.compile(cast_kernel(dtype), target=target)


def device_kernel(dtype, float64_after):
    """A device kernel storing its argument, cast to ``dtype``, in a ``dtype`` buffer, and with
    ``float64_after`` also in a float64 buffer declared after it: the module as the code
    generator receives it, bfloat16 and float8 values not yet stored as integers."""

    @T.prim_func
    def alone(A_ptr: T.handle(dtype), n: T.int32):
        T.func_attr({"calling_conv": 2})
        A = T.decl_buffer((1,), dtype, data=A_ptr)
        A[0] = _value(dtype, n)

    @T.prim_func
    def beside(A_ptr: T.handle(dtype), B_ptr: T.handle("float64"), n: T.int32):
        T.func_attr({"calling_conv": 2})
        A = T.decl_buffer((1,), dtype, data=A_ptr)
        B = T.decl_buffer((1,), "float64", data=B_ptr)
        A[0] = _value(dtype, n)
        B[0] = T.Cast("float64", n)

    return beside if float64_after else alone


def _build_module(func, target):
    tvm.target.codegen.build_module(tvm.IRModule({"main": func}), target)


NO = ": WGSL has no such type"
LACKS_DIRECTLY = [
    *[("webgpu", dtype, NO) for dtype in ("bfloat16", "bfloat16x2", "bfloat16x3", "bfloat16x4")],
    *[("webgpu", dtype, NO) for dtype in ("float8_e4m3fn", "float8_e4m3fnx4", "float8_e5m2x2")],
    ("webgpu", "float8_e3m4", NO),
    ("webgpu", "boolx2", NO),
    ("webgpu", "int64x4", ": WGSL has no 64-bit integers"),
    *[("metal", dtype, "") for dtype in ("float8_e4m3fn", "float8_e4m3fnx4", "float8_e5m2x2")],
    ("metal", "float8_e3m4", ""),
    ("metal", "boolx2", ""),
    *[("metal", dtype, "") for dtype in ("bfloat8", "bfloat8x2", "bfloat32", "bfloat32x2")],
]


@BUG
@pytest.mark.parametrize(
    "target, dtype, reason",
    [pytest.param(*case, id=f"{case[0]}-{case[1]}") for case in LACKS_DIRECTLY],
)
def test_code_generator_given_a_type_it_lacks_names_it(target, dtype, reason):
    """bfloat16 and float8 given to the code generator as they are (not stored as integers),
    a bfloat of other than 16 bits, a bool vector, WebGPU's int64x4 (int8x4 is packed into a
    u32, no other 4-lane vector): a type the target lacks is a ValueError naming it."""
    with refused(target, dtype, f"{reason}$"):
        _build_module(device_kernel(dtype, float64_after=False), target)


HAS_DIRECTLY = [
    *[("metal", dtype) for dtype in ("bfloat16", "bfloat16x2", "bfloat16x3", "bfloat16x4")],
    *[("webgpu", dtype) for dtype in ("int128", "int128x2", "uint128", "uint128x4")],
]


@BUG
@pytest.mark.parametrize("target, dtype", HAS_DIRECTLY)
def test_code_generator_given_a_type_it_has_names_the_float64_beside_it(target, dtype):
    """Metal's bfloat16 and WebGPU's 128-bit integers, in a buffer before a float64 buffer of
    a kernel given to the code generator directly: the ValueError names float64."""
    with refused(target, "float64"):
        _build_module(device_kernel(dtype, float64_after=True), target)


def void_call_before_float64(kernel):
    """A function calling an extern function that returns nothing, then computing in float64:
    in one kernel, or the call in a first kernel and the float64 in a second."""

    @T.prim_func
    def same(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            T.evaluate(T.call_extern("void", "touch", A[0]))
            B[0] = T.Cast("float32", T.Cast("float64", A[0]) * T.float64(3))

    @T.prim_func
    def first(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            T.evaluate(T.call_extern("void", "touch", A[0]))
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            B[0] = T.Cast("float32", T.Cast("float64", A[0]) * T.float64(3))

    return same if kernel == "same" else first


@BUG
@pytest.mark.parametrize("target", ["webgpu", "metal"])
@pytest.mark.parametrize("kernel", ["same", "first"])
def test_void_call_before_float64_is_not_named(target, kernel):
    """A call returning nothing before a float64 (of the same or the next kernel): the
    ValueError names float64, not void."""
    with refused(target, "float64", r"\b"):
        tvm.compile(void_call_before_float64(kernel), target=target)


def select_beside_float64(lanes):
    """A kernel whose ``lanes``-lane comparison (a bool vector no code generator prints: a
    select reads it) comes before float64 arithmetic."""

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            for i in T.vectorized(lanes):
                B[i] = T.Select(A[i] > T.float32(0), A[i], T.float32(0))
            B[0] = T.Cast("float32", T.Cast("float64", A[0]) * T.float64(2))

    return main


@BUG
@pytest.mark.parametrize("target", ["webgpu", "metal"])
@pytest.mark.parametrize("lanes", [2, 3])
def test_unprinted_bool_vector_of_two_or_three_lanes_is_not_named(target, lanes):
    """A selected comparison of 2 or 3 lanes before a float64: the ValueError names float64
    (the sweep's comparison has 4 lanes)."""
    with refused(target, "float64", r"\b"):
        tvm.compile(select_beside_float64(lanes), target=target)


CONSTANT_SITES = {
    "stored": lambda: T.call_pure_extern("float32", "f", T.float64(1.5)),
    "nested": lambda: T.call_extern("float32", "f", T.call_extern("int32", "g", T.float64(1.5))),
}


def float64_constant_argument(site):
    """A kernel whose only float64 is a constant passed to an external function, its value
    stored (the upstream test evaluates it) or passed on to another."""

    @T.prim_func
    def main(A: T.Buffer((1,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = CONSTANT_SITES[site]()

    return main


@BUG
@pytest.mark.parametrize("site", CONSTANT_SITES)
def test_webgpu_float64_constant_argument_is_named(site):
    """A float64 constant as a call's argument, the kernel's only float64: WebGPU's ValueError
    names float64."""
    with refused("webgpu", "float64", ": WGSL has f16 and f32 only"):
        tvm.compile(float64_constant_argument(site), target="webgpu")

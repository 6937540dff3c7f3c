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
"""One-element buffers through print -> parse (patch 0008), over more definition forms, access
sites, dtypes and scopes than its upstream tests (this repository only): a name defined
through the scalar syntax keeps the shorthand, any other prints as a buffer."""

import os

import pytest

import tvm
import tvm.testing
from harness.print_entry_points import ENTRY_POINTS, printed
from tvm.script import ir as I
from tvm.script import tirx as T

BUG = pytest.mark.xfail(
    strict=True,
    raises=(tvm.error.DiagnosticError, AssertionError),
    reason="a one-element buffer parameter prints through the scalar shorthand",
)


def _parameter_load(dtype):
    @T.prim_func
    def func(A: T.Buffer((1,), dtype), C: T.Buffer((2,), dtype)):
        C[1] = A[0] + A[0]

    return func


def _second_parameter_load(dtype):
    @T.prim_func
    def func(A: T.Buffer((1,), dtype), B: T.Buffer((1,), dtype), C: T.Buffer((2,), dtype)):
        C[1] = A[0] + B[0]

    return func


def _match_buffer_store(dtype):
    @T.prim_func
    def func(a: T.handle, x: T.int32):
        A = T.match_buffer(a, (1,), dtype)
        for i in range(2):
            A[0] = T.Cast(dtype, x + i)

    return func


def _match_buffer_load_in_loop(dtype):
    @T.prim_func
    def func(a: T.handle, C: T.Buffer((2,), dtype)):
        A = T.match_buffer(a, (1,), dtype)
        for i in range(2):
            C[i] = A[0]

    return func


def _match_buffer_in_sblock_load(dtype):
    @T.prim_func(check_well_formed=False)
    def func(A: T.Buffer((4,), dtype), C: T.Buffer((2,), dtype)):
        with T.sblock("b"):
            B = T.match_buffer(A[1:2], (1,), dtype)
            C[1] = B[0] + B[0]

    return func


def _match_buffer_in_sblock_store(dtype):
    @T.prim_func(check_well_formed=False)
    def func(A: T.Buffer((4,), dtype), x: T.int32):
        with T.sblock("b"):
            B = T.match_buffer(A[1:2], (1,), dtype)
            B[0] = T.Cast(dtype, x)

    return func


def _match_buffer_shadowing_a_parameter(dtype):
    # the match_buffer A prints as A_1: the record is of the buffer, not of its printed name
    @T.prim_func(check_well_formed=False)
    def func(A: T.Buffer((1,), dtype), C: T.Buffer((4,), dtype), D: T.Buffer((4,), dtype)):
        D[0] = A[0]
        for i in range(4):
            with T.sblock("b"):
                vi = T.axis.spatial(4, i)
                A = T.match_buffer(C[vi], (1,), dtype)
                D[vi] = A[0] + A[0]

    return func


def _parameter_shadowed_by_a_cell(dtype):
    ty = getattr(T, dtype)

    @T.prim_func
    def func(A: T.Buffer((1,), dtype), C: T.Buffer((2,), dtype)):
        for i in range(2):
            A: ty = A[0] + A[0]
            C[i] = A

    return func


def _flatten_buffer_output(dtype):
    @I.ir_module
    class Module:
        @T.prim_func
        def main(A: T.Buffer((1,), dtype), x: T.int32):
            A[0] = T.Cast(dtype, x)

    return tvm.tirx.transform.FlattenBuffer()(Module)


def _two_functions(dtype):
    @I.ir_module
    class Module:
        @T.prim_func
        def cell(x: T.int32, C: T.Buffer((2,), dtype)):
            c = T.local_scalar(dtype)
            c = T.Cast(dtype, x)
            C[1] = c

        @T.prim_func
        def parameter(A: T.Buffer((1,), dtype), C: T.Buffer((2,), dtype)):
            C[1] = A[0]

    return Module


def _cell_and_buffer_of_one_name(dtype):
    @I.ir_module
    class Module:
        @T.prim_func
        def cell(x: T.int32, C: T.Buffer((2,), dtype)):
            A = T.local_scalar(dtype)
            A = T.Cast(dtype, x)
            C[1] = A

        @T.prim_func
        def parameter(A: T.Buffer((1,), dtype), C: T.Buffer((2,), dtype)):
            C[1] = A[0]

    return Module


@BUG
@pytest.mark.parametrize("dtype", ["float32", "int8", "float16"])
@pytest.mark.parametrize(
    "make",
    [
        _parameter_load,
        _second_parameter_load,
        _match_buffer_load_in_loop,
        _match_buffer_in_sblock_load,
        _match_buffer_shadowing_a_parameter,
        _parameter_shadowed_by_a_cell,
        _flatten_buffer_output,
        _two_functions,
        _cell_and_buffer_of_one_name,
    ],
)
def test_one_element_buffer_round_trips(make, dtype):
    """A one-element buffer that is not a scalar name survives print -> parse"""
    obj = make(dtype)
    # the match_buffer in an sblock outside s_tir (the one that keeps the default layout) is
    # not well-formed
    parsed = tvm.script.from_source(obj.script(), check_well_formed=False)
    tvm.ir.assert_structural_equal(obj, parsed)


@BUG
@pytest.mark.parametrize("make", [_match_buffer_store, _match_buffer_in_sblock_store])
def test_one_element_buffer_stores_print_their_index(make):
    """A store to a one-element buffer that is not a scalar name prints with its index"""
    text = make("float32").script()
    stores = [line.strip() for line in text.splitlines() if " = T.Cast(" in line]
    assert stores and all(line.split(" = ")[0].endswith("[0]") for line in stores), stores


@BUG
@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_every_printing_entry_point_round_trips(entry):
    """However the program is printed, a one-element buffer parameter prints as a buffer"""
    obj = _parameter_load("float32")
    tvm.ir.assert_structural_equal(obj, tvm.script.from_source(printed(obj, entry)))


@BUG
@pytest.mark.parametrize("entry", ["script", "str", "repr", "print"])
@pytest.mark.parametrize("shadowed", [False, True], ids=["parameter", "shadowing-match-buffer"])
def test_parameter_indexed_by_a_loop_variable_is_not_printed_as_another_program(entry, shadowed):
    """A one-element parameter, or a match_buffer that shadows it (printed ``A_1``), indexed by
    a loop variable: the fix prints the index (the C++) or refuses (the reference fix, whose
    text lost it), never ``A[0]`` for ``A[i]``, whatever prints it (the wheel's ``repr`` falls
    back to the unfixed printer when a printer raises)"""

    @T.prim_func(check_well_formed=False)
    def func(A: T.Buffer((1,), "float32"), C: T.Buffer((4,), "float32")):
        for i in range(1):
            if shadowed:
                with T.sblock("b"):
                    vi = T.axis.spatial(1, i)
                    A = T.match_buffer(C[vi], (1,), "float32")
                    for j in range(1):
                        C[vi] = A[j] * T.float32(2)
            else:
                C[i] = A[i]

    try:
        text = printed(func, entry)
    except NotImplementedError:
        return  # the reference fix: what it cannot restore is an error
    parsed = tvm.script.from_source(text, check_well_formed=False)
    tvm.ir.assert_structural_equal(parsed, func)


@BUG
@pytest.mark.parametrize("dtype", ["float32", "int32", "int8"])
@pytest.mark.parametrize("scalar_first", [True, False], ids=["scalar_first", "buffer_first"])
def test_buffer_and_scalar_of_one_name_in_two_functions_round_trip(scalar_first, dtype):
    """A one-element buffer parameter ``A`` of one function and a scalar parameter ``A`` (of
    any dtype) of another, printed before it or after: each function's one-element buffers
    are its own"""

    @T.prim_func
    def buffer(A: T.Buffer((1,), "float32"), C: T.Buffer((2,), "float32")):
        C[1] = A[0]

    @T.prim_func
    def scalar(A: T.int32, C: T.Buffer((2,), dtype)):
        for i in range(2):
            C[i] = T.Cast(dtype, A + i)

    names = ("a", "b") if scalar_first else ("b", "a")
    mod = tvm.IRModule({names[0]: scalar, names[1]: buffer})
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script()))


def test_names_shared_across_functions_print_per_function():
    """A host cell and the kernel's scalar parameter of the same name, after SplitHostDevice,
    print and parse back: a name of one function says nothing of the other's"""

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((1,), "float32"), B: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            c[0] = A[0]
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                B[i] = c[0]

    split = tvm.tirx.transform.SplitHostDevice()(Module)
    tvm.ir.assert_structural_equal(split, tvm.script.from_source(split.script()))


def _scalar_names(dtype):
    @T.prim_func
    def func(x: T.int32, C: T.Buffer((4,), dtype)):
        c: T.let[T.int32] = x + 1
        a = T.local_scalar(dtype)
        a = T.Cast(dtype, c)
        s: T.let[T.int32] = c * 2
        d = T.decl_scalar(dtype, C.data, "global", 3)
        for i in range(2):
            for j in range(2):
                C[i * 2 + j] = a + d
                a = a + T.Cast(dtype, s)

    return func


@pytest.mark.parametrize("dtype", ["float32", "int8", "float16"])
def test_scalar_names_keep_the_shorthand(dtype):
    """Cells of every scalar form, used two scopes down, keep the shorthand and round-trip"""
    func = _scalar_names(dtype)
    text = func.script()
    tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
    assert "C[i * 2 + j] = a + d" in text, text


def _allocated_addr(form, dtype):
    ty = getattr(T, dtype)

    @T.prim_func
    def func(A: T.Buffer((4,), dtype), C: T.Buffer((2,), "float32")):
        if form == "sugar":
            c: ty = A[0]
        elif form == "local_scalar":
            c = T.local_scalar(dtype)
            c = A[0]
        else:
            c = T.decl_scalar(dtype, A.data, "global", 1)
        t = T.decl_buffer((2,), "float32", scope="tmem", allocated_addr=c)
        C[1] = t[0]

    return func


@pytest.mark.parametrize("dtype", ["uint32", "int32"])
@pytest.mark.parametrize("form", ["sugar", "local_scalar", "decl_scalar"])
def test_allocated_addr_of_a_scalar_name_round_trips(form, dtype):
    """A scalar name of any form and dtype given as a decl_buffer's allocated_addr prints as
    the bare name and parses back"""
    func = _allocated_addr(form, dtype)
    tvm.ir.assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.fixture
def cell_fix():
    """Patch 0005's reference fix (0008 applies after it: only with it does the printer
    declare a cell outside local scope through ``T.shared_scalar`` / ``T.alloc_scalar``), where
    the run has not installed it or one of its wrong fixes"""
    fixes = os.environ.get("TVM_REFERENCE_FIXES", "").split(",")
    if "printer_cell" in fixes or os.environ.get("TVM_WRONG_FIX", "").startswith("printer_cell:"):
        yield
        return
    from bugs.printer_cell import reference_fix

    undo = reference_fix.install()
    try:
        yield
    finally:
        undo()


@pytest.mark.parametrize("dtype", ["float32", "int32", "int8"])
@pytest.mark.parametrize("scope", ["local", "shared", "global", "shared.dyn"])
def test_scalar_names_of_every_scope_keep_the_shorthand(cell_fix, scope, dtype):
    """A cell of any scope, declared through the scalar syntax (the sugar, ``T.local_scalar``,
    ``T.shared_scalar``, ``T.alloc_scalar``), keeps the shorthand at its loads and stores, used
    in a loop too, and round-trips"""

    @T.prim_func
    def func(x: T.int32, C: T.Buffer((4,), dtype)):
        e = T.alloc_buffer((1,), dtype, scope=scope)
        e[0] = T.Cast(dtype, x)
        for i in range(4):
            C[i] = e[0]
            e[0] = e[0] + T.Cast(dtype, i)

    tvm.ir.assert_structural_equal(func, tvm.script.from_source(func.script()))

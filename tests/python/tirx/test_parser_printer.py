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
import pytest

import tvm
import tvm.script
import tvm.testing
from tvm.ir import assert_structural_equal
from tvm.script import ir as I
from tvm.script import tirx as T


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="TVMScript scalar sugar drops the cell's annotations"
)
@pytest.mark.parametrize(
    "annotations",
    [{"device_type": 1}, {"pragma_note": "keep"}],
    ids=["device_type", "other_key"],
)
@pytest.mark.parametrize("init", [True, False], ids=["with_init", "without_init"])
def test_scalar_cell_keeps_annotations_through_print_parse(annotations, init):
    """A one-element local cell keeps its allocation's annotations through print -> parse"""

    @T.prim_func
    def func(x: T.float32):
        c = T.alloc_local((1,), "float32", annotations=annotations)
        if init:
            c[0] = x
        T.evaluate(c[0])

    assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="TVMScript scalar sugar drops the cell's scope"
)
@pytest.mark.parametrize("scope", ["shared", "shared.dyn", "global"])
def test_scalar_cell_keeps_scope_through_print_parse(scope):
    """A one-element cell outside local scope keeps its scope through print -> parse"""

    @T.prim_func
    def func(x: T.float32):
        c = T.alloc_buffer((1,), "float32", scope=scope)
        c[0] = x
        T.evaluate(c[0])

    assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "bool"])
def test_plain_scalar_cell_round_trips(dtype):
    """A one-element local cell without annotations round-trips through the scalar sugar"""

    @T.prim_func
    def func(x: T.int32):
        c = T.alloc_local((1,), dtype)
        c[0] = T.Cast(dtype, x)
        T.evaluate(c[0])

    assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.DiagnosticError,
    reason="a one-element buffer parameter prints its data as A.buffer.data, not A.data",
)
@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_one_element_parameter_data_round_trips(dtype):
    """The data pointer of a one-element buffer parameter prints as `A.data` and parses back"""

    @T.prim_func
    def func(A: T.Buffer((1,), dtype), x: T.int32):
        A_1 = T.decl_buffer((1,), dtype, data=A.data, layout=None)
        A_1[0] = T.Cast(dtype, x)

    assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_two_element_parameter_data_round_trips(dtype):
    """The data pointer of a two-element buffer parameter prints as `A.data` and parses back"""

    @T.prim_func
    def func(A: T.Buffer((2,), dtype), x: T.int32):
        A_1 = T.decl_buffer((2,), dtype, data=A.data, layout=None)
        A_1[0] = T.Cast(dtype, x)

    assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_scalar_cell_data_round_trips(dtype):
    """The data pointer of a one-element local cell prints through its buffer and parses back"""

    @T.prim_func
    def func(x: T.int32, B: T.Buffer((2,), dtype)):
        c = T.alloc_local((1,), dtype)
        c[0] = T.Cast(dtype, x)
        d = T.decl_buffer((1,), dtype, data=c.data)
        B[0] = d[0]

    assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.DiagnosticError,
    reason="a one-element buffer parameter prints its data as A.buffer.data, not A.data",
)
@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_flatten_buffer_output_with_one_element_parameter_round_trips(dtype):
    """FlattenBuffer's output for a one-element buffer parameter round-trips"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main(A: T.Buffer((1,), dtype), x: T.int32):
            A[0] = T.Cast(dtype, x)

    After = tvm.tirx.transform.FlattenBuffer()(Before)
    assert_structural_equal(After, tvm.script.from_source(After.script()))


if __name__ == "__main__":
    tvm.testing.main()

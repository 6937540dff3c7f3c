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
import tvm_tirx
import tvm_tirx.testing
from tvm_tirx.script import from_source
from tvm_tirx.script import tirx as T


def _round_trip(func):
    return from_source(func.script(), extra_vars={"T": T})


@pytest.mark.parametrize(
    "annotations", [{"device_type": 1}, {"pragma_note": "keep"}], ids=["device_type", "other_key"]
)
def test_cell_keeps_annotations_through_print_parse(annotations):
    """A one-element local cell keeps its allocation's annotations through print -> parse"""

    @T.function
    def func(x: T.float32):
        c = T.alloc_tensor(
            ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations=annotations
        )
        c[0] = x
        T.evaluate(c[0])

    tvm_tirx.ir.assert_structural_equal(func, _round_trip(func))


@pytest.mark.parametrize("scope", ["shared", "global"])
def test_cell_keeps_scope_through_print_parse(scope):
    """A one-element cell outside local scope keeps its scope through print -> parse"""

    @T.function
    def func(x: T.float32):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope=scope)])
        c[0] = x
        T.evaluate(c[0])

    tvm_tirx.ir.assert_structural_equal(func, _round_trip(func))


def test_annotated_scalar_assignment_is_local_cell():
    """`c: T.float32 = v` declares a one-element local cell initialized to v"""

    @T.function(private=True)
    def before(x: T.float32):
        c: T.float32 = x
        T.evaluate(c)

    @T.function(private=True)
    def expected(x: T.float32):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        c[0] = x
        T.evaluate(c[0])

    tvm_tirx.ir.assert_structural_equal(before, expected)


def test_plain_scalar_assignment_is_let_binding():
    """`c = v` of a scalar expression binds c to v (a T.let), no cell"""

    @T.function(private=True)
    def before(x: T.float32):
        c = x * T.float32(2)
        T.evaluate(c)

    @T.function(private=True)
    def expected(x: T.float32):
        c: T.let[T.float32] = x * T.float32(2)
        T.evaluate(c)

    tvm_tirx.ir.assert_structural_equal(before, expected)


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_one_element_parameter_data_round_trips(dtype):
    """The data pointer of a one-element tensor parameter prints as `A.data` and parses back"""

    @T.function
    def func(A: T.Tensor((1,), dtype), x: T.int32):
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((1,), dtype)])
        A_1[0] = T.Cast(dtype, x)

    tvm_tirx.ir.assert_structural_equal(func, _round_trip(func))


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_flatten_tensor_output_with_one_element_parameter_round_trips(dtype):
    """FlattenTensor's output for a one-element tensor parameter round-trips"""

    @T.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((1,), dtype), x: T.int32):
            A[0] = T.Cast(dtype, x)

    After = tvm_tirx.tirx.transform.FlattenTensor()(Before)
    tvm_tirx.ir.assert_structural_equal(After, _round_trip(After))


if __name__ == "__main__":
    tvm_tirx.testing.main()

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
from tvm_tirx.script import ir as I
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx import transform as tr


def _reparsed(node):
    """``node`` printed with ``.script()`` and parsed back"""
    return from_source(node.script(), extra_vars={"T": T})


@pytest.mark.parametrize(
    "annotations", [{"device_type": 1}, {"pragma_note": "keep"}], ids=["device_type", "other-key"]
)
def test_alloc_tensor_annotations_survive_script_round_trip(annotations):
    """A one-element local alloc_tensor prints its annotations= and parses them back"""

    @T.function
    def func(x: T.float32):
        c = T.alloc_tensor(
            ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations=annotations
        )
        c[0] = x
        T.evaluate(c[0])

    tvm_tirx.ir.assert_structural_equal(func, _reparsed(func))


@pytest.mark.parametrize("scope", ["shared", "global"])
def test_alloc_tensor_scope_survives_script_round_trip(scope):
    """A one-element alloc_tensor outside local scope prints its scope and parses it back"""

    @T.function
    def func(x: T.float32):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope=scope)])
        c[0] = x
        T.evaluate(c[0])

    tvm_tirx.ir.assert_structural_equal(func, _reparsed(func))


def test_annotated_scalar_assignment_parses_as_local_alloc_tensor():
    """`c: T.float32 = x` parses as a one-element local alloc_tensor storing x"""

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


def test_unannotated_scalar_assignment_parses_as_bind():
    """`c = <scalar expression>` parses as a Bind of c (printed `T.let`), no alloc_tensor"""

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
def test_decl_tensor_over_one_element_param_data_survives_script_round_trip(dtype):
    """decl_tensor(A.data) of a one-element T.Tensor parameter prints `A.data` and reparses"""

    @T.function
    def func(A: T.Tensor((1,), dtype), x: T.int32):
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((1,), dtype)])
        A_1[0] = T.Cast(dtype, x)

    tvm_tirx.ir.assert_structural_equal(func, _reparsed(func))


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_flatten_tensor_result_for_one_element_param_survives_script_round_trip(dtype):
    """What FlattenTensor makes of a one-element T.Tensor parameter prints and reparses"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((1,), dtype), x: T.int32):
            A[0] = T.Cast(dtype, x)

    After = tr.FlattenTensor()(Before)
    tvm_tirx.ir.assert_structural_equal(After, _reparsed(After))


if __name__ == "__main__":
    tvm_tirx.testing.main()

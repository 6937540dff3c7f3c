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
import numpy as np
import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T

_REINTERPRET = pytest.mark.xfail(
    strict=True, raises=RuntimeError, reason="reinterpret of a constant: no lvalue"
)


@pytest.mark.parametrize(
    "constant", [pytest.param(True, marks=_REINTERPRET), False], ids=["constant", "argument"]
)
@pytest.mark.parametrize(
    "source, value, dtype",
    [("float32", -0.0, "uint32"), ("int32", 0x3FC00000, "float32"), ("float64", -2.0, "int64")],
)
def test_reinterpret_keeps_the_bits(tmp_path, constant, source, value, dtype):
    """A reinterpret gives the bits of its argument, a constant's too, wherever it is"""
    ty = getattr(T, source)

    def bits(x, value=value):
        return T.reinterpret(dtype, ty(value) if constant else x)

    @T.prim_func
    def main(A: T.Buffer((2,), dtype), x: ty, zero: ty):
        # in a condition, in the branch it guards, after it beside another constant of its type
        if bits(x) == T.reinterpret(dtype, x):
            A[0] = bits(x)
        A[1] = bits(x) + bits(zero, 0)

    path = str(tmp_path / "lib.so")
    tvm.compile(main, target="c").export_library(path)
    a = tvm.runtime.empty((2,), dtype, tvm.cpu(0))
    tvm.runtime.load_module(path)["main"](a, value, type(value)(0))
    expected = np.array([value, value], source).view(dtype)
    np.testing.assert_array_equal(a.numpy().view("uint8"), expected.view("uint8"))


if __name__ == "__main__":
    tvm.testing.main()

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
from tvm.script import ir as I
from tvm.script import tirx as T
from tvm.testing import env


@pytest.mark.skipif(not env.has_llvm(), reason="need llvm")
@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="bfloat16 host scalar: MakePackedAPI and BF16ComputeLegalize stop at an ICHECK",
)
# 1 + 2**-8 lies halfway between two bfloat16 values and rounds to the even one, 1.0;
# 70000 is beyond float16's range and rounds to 70144
@pytest.mark.parametrize("x, expected", [(1.5, 3.0), (1.00390625, 2.0), (70000.0, 140288.0)])
def test_llvm_bfloat16_parameter(x, expected):
    """A bfloat16 parameter arrives rounded to bfloat16 and a bfloat16 T.let computes on it"""

    @I.ir_module(s_tir=True)
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((1,), "float32"), x: T.bfloat16, n: T.int32):
            T.func_attr({"target": T.target("llvm")})
            y: T.let[T.bfloat16] = x * T.Cast("bfloat16", n) * T.bfloat16(0.5)
            A[0] = T.Cast("float32", y)

    built = tvm.compile(Module)
    a = tvm.runtime.empty((1,), "float32")
    built(a, x, 4)
    np.testing.assert_array_equal(a.numpy(), [expected])


if __name__ == "__main__":
    tvm.testing.main()

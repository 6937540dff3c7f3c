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
import tvm_tirx
import tvm_tirx.testing
from tvm_tirx.script import tirx as T

_BFLOAT16_SCALAR = pytest.mark.xfail(
    strict=True,
    raises=RuntimeError,
    reason="bfloat16 host scalar argument: the llvm code generator gets an unlegalized bfloat16",
)


@pytest.mark.parametrize("dtype", ["float16", pytest.param("bfloat16", marks=_BFLOAT16_SCALAR)])
def test_16_bit_float_ffi_argument_of_llvm_function(dtype):
    """A float16/bfloat16 scalar parameter unpacks from the FFI call of an llvm executable"""

    @T.function
    def main(A: T.Tensor((4,), T.float32), x: getattr(T, dtype)):
        for i in range(4):
            A[i] = T.Cast("float32", x)

    executable = tvm_tirx.tirx.compile(main, target="llvm")
    a = tvm_tirx.runtime.tensor(np.zeros(4, "float32"))
    executable["main"](a, 1.5)
    tvm_tirx.testing.assert_allclose(a.numpy(), np.full(4, 1.5, "float32"))


if __name__ == "__main__":
    tvm_tirx.testing.main()

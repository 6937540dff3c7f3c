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
import struct

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T
from tvm.testing import env


# the FFI's float64 reaches bfloat16 through float32: 1 + 2**-8 + 2**-30 is the tie 1 + 2**-8
# there and rounds to 1.0 (even), the int 70000 to 70144 (beyond float16), a NaN stays a NaN;
# in float32, 1.0078125 * 3 * 0.375 is 1.1337890625 (1.140625 if each step rounded to bfloat16)
@pytest.mark.skipif(not env.has_llvm(), reason="need llvm")
@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="bfloat16 host scalar: MakePackedAPI stops at an ICHECK on a bfloat16 parameter",
)
@pytest.mark.parametrize(
    "x, n, expected",
    [
        (1 + 2**-8 + 2**-30, 4, 1.5),
        (70000, 2, 52608.0),
        (1.0078125, 3, 1.1337890625),
        (struct.unpack("<f", struct.pack("<I", 0x7FFFFFFF))[0], 1, float("nan")),
    ],
)
@pytest.mark.parametrize("pipeline", ["s_tir", "tirx"])
# a cuda function without a kernel runs on the host, which BF16ComputeLegalize skips
@pytest.mark.parametrize("target", ["llvm", {"kind": "cuda", "arch": "sm_80", "host": "llvm"}])
def test_llvm_bfloat16_host_scalar(target, pipeline, x, n, expected):
    """Host code computes on a bfloat16 argument in float32 alike for every target and pipeline"""

    @T.prim_func
    def main(x: T.bfloat16, n: T.int32) -> T.bfloat16:
        return x * T.Cast("bfloat16", n) * T.bfloat16(0.375)

    built = tvm.compile(main.with_attr("target", tvm.target.Target(target)), tir_pipeline=pipeline)
    np.testing.assert_array_equal(built(x, n), expected)


if __name__ == "__main__":
    tvm.testing.main()

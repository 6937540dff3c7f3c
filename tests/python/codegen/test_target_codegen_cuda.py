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
from tvm.testing import env


def _run_b_plus_c(mod, dtype, x, expected):
    """Compile ``mod`` for cuda and check that ``main(B, C, x)`` with ``B = arange(8)`` writes
    ``expected`` to ``C``"""
    lib = tvm.compile(mod, target="cuda")

    def run_and_check():
        dev = tvm.cuda(0)
        b = tvm.runtime.tensor(np.arange(8).astype(dtype), device=dev)
        c = tvm.runtime.empty((8,), dtype, device=dev)
        lib["main"](b, c, x)
        np.testing.assert_array_equal(c.numpy(), expected)

    tvm.testing.run_with_gpu_lock(run_and_check)


_UINT64 = pytest.mark.xfail(
    strict=True, raises=tvm.error.InternalError, reason="uint64 kernel scalar: no runtime packing"
)


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_cuda(), reason="need cuda")
@pytest.mark.parametrize("dtype", ["int64", pytest.param("uint64", marks=_UINT64)])
def test_cuda_64_bit_scalar_argument(dtype):
    """A 64-bit integer scalar reaches the kernel with all of its bits, the top one included"""
    ty = getattr(T, dtype)

    @T.prim_func
    def main(B: T.Buffer(8, dtype), C: T.Buffer(8, dtype), x: ty):
        # computed on the host: Python cannot pass a uint64 of 2**63 or more
        y: T.let[ty] = x << ty(23)
        z: T.let[T.uint32] = T.Cast("uint32", x) + 1  # a 32-bit argument after it
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + y + T.Cast(dtype, z)

    x = 2**40 + 3
    expected = np.arange(8).astype(dtype) + (np.array(x, dtype) << np.array(23, dtype)) + 4
    _run_b_plus_c(tvm.IRModule({"main": main}), dtype, x, expected)


if __name__ == "__main__":
    tvm.testing.main()

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
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T


@pytest.mark.parametrize("extent", [1, 2])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_vthread_constant_extent_of_any_integer_type(dtype, extent):
    """A virtual thread of a constant extent, 1 too, is unrolled; a thread's may be a variable."""
    zero, one, count = (tvm.tirx.const(value, dtype) for value in (0, 1, extent))

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((4,), "int32"), n: T.int32):
            tx = T.launch_thread("threadIdx.x", n)
            vt = T.launch_thread("vthread", count)
            A[vt] = tx

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((4,), "int32"), n: T.int32):
            tx = T.launch_thread("threadIdx.x", n)
            A[zero] = tx
            if extent == 2:
                A[one] = tx

    tvm.ir.assert_structural_equal(tvm.s_tir.transform.InjectVirtualThread()(Before), Expected)


@pytest.mark.xfail(strict=True, run=False, reason="non-constant vthread extent (SIGSEGV)")
@pytest.mark.parametrize("outer", [lambda L, n: n, lambda L, n: L[0]], ids=["var", "load"])
def test_vthread_nested_non_constant_extents_name_the_inner_one(outer):
    """Of nested virtual threads of non-constant extents, the inner one (visited first) is named."""

    @T.prim_func(s_tir=True)
    def main(L: T.Buffer((1,), "int32"), A: T.Buffer((16,), "int32"), n: T.int32):
        vo = T.int32()
        vi = T.int32()
        iv_outer = T.iter_var(vo, T.Range(0, outer(L, n)), "ThreadIndex", "vthread")
        with T.attr(iv_outer, "virtual_thread", outer(L, n)):
            iv_inner = T.iter_var(vi, T.Range(0, n * 2), "ThreadIndex", "cthread")
            with T.attr(iv_inner, "virtual_thread", n * 2):
                A[vo * 4 + vi] = 1

    with pytest.raises(ValueError, match="virtual thread cthread needs a constant extent"):
        tvm.s_tir.transform.InjectVirtualThread()(tvm.IRModule({"main": main}))


@pytest.mark.xfail(strict=True, run=False, reason="non-constant vthread extent (SIGSEGV)")
@pytest.mark.parametrize("tag", ["vthread", "vthread.x", "cthread"])
@pytest.mark.parametrize(
    "extent", [lambda L, n: n, lambda L, n: n * 2, lambda L, n: L[0]], ids=["var", "expr", "load"]
)
def test_vthread_non_constant_extent_is_rejected(tag, extent):
    """A virtual thread whose extent is not a constant is a ValueError naming its tag."""

    @T.prim_func(s_tir=True)
    def main(L: T.Buffer((1,), "int32"), A: T.Buffer((16,), "int32"), n: T.int32):
        vt = T.int32()
        with T.attr(
            T.iter_var(vt, T.Range(0, extent(L, n)), "ThreadIndex", tag),
            "virtual_thread",
            extent(L, n),
        ):
            A[vt] = 1

    with pytest.raises(ValueError, match=f"virtual thread {tag} needs a constant extent"):
        tvm.s_tir.transform.InjectVirtualThread()(tvm.IRModule({"main": main}))


if __name__ == "__main__":
    tvm.testing.main()

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
from tvm_tirx.script import ir as I
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx import transform as tr


@T.function
def _public(A: T.Tensor((8,), "float32")):
    for i in range(8):
        A[i] = T.float32(0)


@T.function(private=True)
def _private(A: T.Tensor((8,), "float32")):
    for i in range(8):
        A[i] = T.float32(1)


@pytest.mark.xfail(
    strict=True,
    raises=(ValueError, RuntimeError),
    reason="AnnotateEntryFunc changes its input module in place",
)
@pytest.mark.parametrize("immutable_module", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize(
    "functions",
    [
        {"main": _public},
        {"main": _private},
        {"main": _public, "main_helper": _private},
        {"a_helper": _private, "main": _public},
    ],
    ids=[
        "only-function",
        "only-private-function",
        "public-before-private",
        "private-before-public",
    ],
)
def test_annotate_entry_func_leaves_given_ir_module_unmarked(functions, immutable_module):
    """AnnotateEntryFunc sets tirx.is_entry_func on a copy, never on the IRModule passed in"""
    Before = tvm_tirx.IRModule(functions)
    Expected = Before.clone()
    with tvm_tirx.ir.transform.PassContext(config={"testing.immutable_module": immutable_module}):
        tr.AnnotateEntryFunc()(Before)
    tvm_tirx.ir.assert_structural_equal(Before, Expected)


@pytest.mark.parametrize(
    "functions",
    [{"main": _public}, {"main": _public, "main_helper": _private}],
    ids=["only-function", "public-before-private"],
)
def test_annotate_entry_func_result_keeps_the_ir_module_attrs(functions):
    """The IRModule AnnotateEntryFunc returns keeps the attrs of the IRModule it was given"""
    Before = tvm_tirx.IRModule(functions, attrs={"note": "kept"})
    After = tr.AnnotateEntryFunc()(Before)
    tvm_tirx.ir.assert_structural_equal(After.attrs, Before.attrs)


@pytest.mark.parametrize("only", [_public, _private], ids=["public", "private"])
def test_annotate_entry_func_marks_the_only_function(only):
    """The only function of an IRModule, public or private, is marked in the IRModule returned"""
    After = tr.AnnotateEntryFunc()(tvm_tirx.IRModule({"main": only}))
    tvm_tirx.ir.assert_structural_equal(After["main"], only.with_attr("tirx.is_entry_func", True))


@pytest.mark.parametrize(
    "order", [("main", "helper"), ("helper", "main")], ids=["public-first", "private-first"]
)
def test_annotate_entry_func_marks_the_public_function_beside_a_private_one(order):
    """The one public function of an IRModule with a private helper becomes its entry; the
    helper, the attrs and the global infos stay"""

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(0)

        @T.function(private=True)
        def helper(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(1)

    @I.ir_module
    class Expected:
        I.module_attrs({"note": "kept"})
        # the only global info apache/tvm-tirx registers is the base class
        I.module_global_infos({"info": [tvm_tirx.ir.GlobalInfo()]})

        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"tirx.is_entry_func": True})
            for i in range(8):
                A[i] = T.float32(0)

        @T.function(private=True)
        def helper(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(1)

    functions = {name: Module[name] for name in order}
    Before = tvm_tirx.IRModule(functions, Expected.attrs, Expected.global_infos)
    tvm_tirx.ir.assert_structural_equal(tr.AnnotateEntryFunc()(Before), Expected)


@pytest.mark.parametrize("private", [{}, {"helper": _private}], ids=["alone", "beside-private"])
def test_annotate_entry_func_marks_nothing_among_two_public_functions(private):
    """Two public functions leave the entry ambiguous: no tirx.is_entry_func is set"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(0)

        @T.function
        def other(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(1)

    @I.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(0)

        @T.function
        def other(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(1)

    def with_private(module):
        return tvm_tirx.IRModule({"main": module["main"], "other": module["other"], **private})

    After = tr.AnnotateEntryFunc()(with_private(Before))
    tvm_tirx.ir.assert_structural_equal(After, with_private(Expected))


if __name__ == "__main__":
    tvm_tirx.testing.main()

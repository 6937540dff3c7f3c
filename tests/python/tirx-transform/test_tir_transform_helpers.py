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


@T.prim_func(s_tir=True)
def _entry(A: T.Buffer(8, "float32")):
    A[0] = T.float32(0)


@T.prim_func(private=True, s_tir=True)
def _helper(A: T.Buffer(8, "float32")):
    A[0] = T.float32(1)


@pytest.mark.xfail(
    strict=True,
    raises=(ValueError, tvm.error.InternalError),
    reason="AnnotateEntryFunc changes its input module in place",
)
@pytest.mark.parametrize("immutable_module", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize(
    "functions",
    [{"main": _entry}, {"main": _helper}, {"main": _entry, "helper": _helper}],
    ids=["single", "single-private", "public-among-private"],
)
def test_annotate_entry_func_leaves_its_input_unchanged(functions, immutable_module):
    """AnnotateEntryFunc marks the entry function in a new module, not in the one given"""
    Before = tvm.IRModule(functions)
    Expected = Before.clone()
    with tvm.transform.PassContext(config={"testing.immutable_module": immutable_module}):
        tvm.tirx.transform.AnnotateEntryFunc()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


@pytest.mark.parametrize(
    "functions",
    [{"main": _entry}, {"main": _helper}, {"main": _entry, "helper": _helper}],
    ids=["single", "single-private", "public-among-private"],
)
def test_annotate_entry_func_output_is_the_module_with_its_entry_marked(functions):
    """AnnotateEntryFunc's output is the whole module (attributes, infos), its entry marked"""
    attrs, infos = {"note": "kept"}, {"vdevice": [I.vdevice("llvm")]}
    Before = tvm.IRModule(functions, attrs=attrs, global_infos=infos)
    marked = {**functions, "main": functions["main"].with_attr("tirx.is_entry_func", True)}
    Expected = tvm.IRModule(marked, attrs=attrs, global_infos=infos)
    tvm.ir.assert_structural_equal(tvm.tirx.transform.AnnotateEntryFunc()(Before), Expected)


@pytest.mark.parametrize("private", [{}, {"helper": _helper}], ids=["alone", "beside-private"])
def test_annotate_entry_func_marks_nothing_among_two_public_functions(private):
    """Two public PrimFuncs leave the entry ambiguous: AnnotateEntryFunc marks neither"""
    public = {"main": _entry, "other": _entry.with_attr("global_symbol", "other")}
    Before = tvm.IRModule({**public, **private})
    Expected = Before.clone()
    tvm.ir.assert_structural_equal(tvm.tirx.transform.AnnotateEntryFunc()(Before), Expected)


if __name__ == "__main__":
    tvm.testing.main()

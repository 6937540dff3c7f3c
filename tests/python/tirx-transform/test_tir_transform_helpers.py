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
from tvm.script import tirx as T


@T.prim_func(s_tir=True)
def _entry(A: T.Buffer(8, "float32")):
    for i in range(8):
        A[i] = T.float32(0)


@T.prim_func(private=True, s_tir=True)
def _helper(A: T.Buffer(8, "float32")):
    for i in range(8):
        A[i] = T.float32(1)


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="AnnotateEntryFunc changes its input module in place"
)
@pytest.mark.parametrize("helpers", [0, 1], ids=["single", "public-among-private"])
def test_annotate_entry_func_leaves_its_input_unchanged(helpers):
    """AnnotateEntryFunc marks the entry function in a new module, not in the one given"""
    functions = {"main": _entry, **{f"helper{i}": _helper for i in range(helpers)}}
    Before = tvm.IRModule(functions)
    Expected = Before.clone()
    tvm.tirx.transform.AnnotateEntryFunc()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


def test_annotate_entry_func_output_keeps_the_module_attributes():
    """The module AnnotateEntryFunc returns keeps the attributes of the module it is given"""
    Before = tvm.IRModule({"main": _entry}, attrs={"note": "kept"})
    After = tvm.tirx.transform.AnnotateEntryFunc()(Before)
    tvm.ir.assert_structural_equal(After.attrs, Before.attrs)


if __name__ == "__main__":
    tvm.testing.main()

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
"""The module passes that changed their input (patch 0006), over more module shapes (this
repository only). The upstream files test each pass's rule once: SplitHostDevice on a module of
two functions with one kernel each, AnnotateEntryFunc on each of its two branches, and the
module attributes of each output for a module of one function; here the other shapes (one or
two kernels in one or two functions, a module without kernels, one without an inferable entry,
more private helpers), the attributes of a module of two functions, and tvm.compile under
``testing.immutable_module``. The upstream modules (``_host_with_kernel``, ``_entry``,
``_helper``) are imported, not copied."""

import sys
from pathlib import Path

import pytest

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import upstream_tests

SPLIT = upstream_tests.load("tirx-transform/test_tir_transform_split_host_device.py")
HELPERS = upstream_tests.load("tirx-transform/test_tir_transform_helpers.py")
SPLIT_IN_PLACE = pytest.mark.xfail(
    strict=True, raises=ValueError, reason="SplitHostDevice changes its input module in place"
)
ANNOTATE_IN_PLACE = "AnnotateEntryFunc changes its input module in place"


@T.prim_func(s_tir=True)
def _host_with_two_kernels(A: T.Buffer(8, "float32")):
    T.func_attr({"target": T.target("cuda", host="llvm")})
    with T.attr(T.target("cuda"), "target", 0):
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] + T.float32(1)
    with T.attr(T.target("cuda"), "target", 0):
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] * T.float32(2)


@SPLIT_IN_PLACE
@pytest.mark.parametrize("kernels, functions", [(1, 1), (2, 1), (2, 2)])
def test_split_host_device_leaves_its_input_unchanged(kernels, functions):
    """SplitHostDevice returns a new module: the module it is given keeps its functions"""
    main = SPLIT._host_with_kernel if kernels == 1 else _host_with_two_kernels
    Before = tvm.IRModule({"main": main, **({"other": main} if functions == 2 else {})})
    Expected = Before.clone()
    tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


def test_split_host_device_without_kernels_leaves_its_input_unchanged():
    """A module without device regions is not changed, neither is the module given"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    Expected = Before.clone()
    tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


def test_split_host_device_output_keeps_the_module_attributes_of_two_functions():
    """The module SplitHostDevice returns keeps the attributes of a module of two functions"""
    main = SPLIT._host_with_kernel
    Before = tvm.IRModule({"main": main, "other": main}, attrs={"note": "kept"})
    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After.attrs, Before.attrs)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=ANNOTATE_IN_PLACE)
@pytest.mark.parametrize("helpers", [2, 3])
def test_annotate_entry_func_leaves_its_input_unchanged_among_helpers(helpers):
    """The public entry among several private helpers is marked in a new module only."""
    helper = HELPERS._helper
    Before = tvm.IRModule(
        {"main": HELPERS._entry, **{f"helper{i}": helper for i in range(helpers)}}
    )
    Expected = Before.clone()
    tvm.tirx.transform.AnnotateEntryFunc()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


def test_annotate_entry_func_output_keeps_the_module_attributes_among_helpers():
    """The module AnnotateEntryFunc returns keeps the attributes of a module with a helper"""
    functions = {"main": HELPERS._entry, "helper": HELPERS._helper}
    Before = tvm.IRModule(functions, attrs={"note": "kept"})
    After = tvm.tirx.transform.AnnotateEntryFunc()(Before)
    tvm.ir.assert_structural_equal(After.attrs, Before.attrs)


def test_annotate_entry_func_without_entry_leaves_its_input_unchanged():
    """A module with two public functions has no inferable entry: nothing changes"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            for i in range(8):
                A[i] = T.float32(0)

        @T.prim_func(s_tir=True)
        def other(A: T.Buffer(8, "float32")):
            for i in range(8):
                A[i] = T.float32(1)

    Expected = Before.clone()
    tvm.tirx.transform.AnnotateEntryFunc()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


@T.prim_func(s_tir=True)
def _kernel(A: T.Buffer(8, "float32")):
    for i in T.thread_binding(8, thread="threadIdx.x"):
        A[i] = A[i] + T.float32(1)


@pytest.mark.xfail(strict=True, raises=tvm.error.InternalError, reason=ANNOTATE_IN_PLACE)
@pytest.mark.parametrize("target", ["llvm", "cuda"])
def test_compile_under_immutable_module(target):
    """tvm.compile runs under testing.immutable_module: no pass changes the module it is given"""
    func = HELPERS._entry if target == "llvm" else _kernel
    with tvm.transform.PassContext(config={"testing.immutable_module": True}):
        tvm.compile(func, target=target)


if __name__ == "__main__":
    tvm.testing.main()

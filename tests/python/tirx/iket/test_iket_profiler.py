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
from tvm.backend.cuda import transforms as cuda_transforms
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


def _split_kernels():
    """Two CUDA kernels as SplitHostDevice leaves them, each with an IKET mark"""

    @I.ir_module
    class Module:
        @T.prim_func
        def main_kernel(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            if tx % 2 == 0:
                T.cuda.iket.mark("even")
            A[tx] = tx

        @T.prim_func
        def main_kernel_1(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark("store")
            A[tx] = A[tx] + 1

    return Module


@pytest.mark.xfail(
    strict=True,
    raises=(ValueError, tvm.error.InternalError),
    reason="LowerIket changes its input module in place",
)
@pytest.mark.parametrize("immutable_module", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize("iket_enabled", [False, True], ids=["strip", "instrument"])
def test_lower_iket_leaves_its_input_unchanged(iket_enabled, immutable_module):
    """LowerIket returns a new module: the module it is given keeps its IKET annotations"""
    Before = _split_kernels()
    if iket_enabled:
        Before = Before.with_attr("tirx.iket.enabled", True)
    Expected = Before.clone()
    with tvm.transform.PassContext(config={"testing.immutable_module": immutable_module}):
        cuda_transforms.LowerIket()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


def test_lower_iket_strips_every_function_of_the_module():
    """Without IKET enabled, LowerIket strips every function's marks and keeps the rest"""

    @I.ir_module
    class Before:
        I.module_attrs({"note": "kept"})
        I.module_global_infos({"vdevice": [I.vdevice("llvm")]})

        @T.prim_func(private=True)
        def kernel(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target("cuda"), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark("kernel")
            A[tx] = A[tx] + 1

        @T.prim_func
        def device_func(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target("cuda")})
            T.cuda.iket.mark("device_func")
            A[0] = 1

        @R.function
        def relax_func(x: R.Tensor((32,), "int32")) -> R.Tensor((32,), "int32"):
            return x

    @I.ir_module
    class Expected:
        I.module_attrs({"note": "kept"})
        I.module_global_infos({"vdevice": [I.vdevice("llvm")]})

        @T.prim_func(private=True)
        def kernel(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target("cuda"), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            A[tx] = A[tx] + 1

        @T.prim_func
        def device_func(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target("cuda")})
            A[0] = 1

        @R.function
        def relax_func(x: R.Tensor((32,), "int32")) -> R.Tensor((32,), "int32"):
            return x

    After = cuda_transforms.LowerIket()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


def test_lower_iket_instruments_the_module_a_run_iket_child_enables(monkeypatch):
    """A verified run-iket child's environment enables IKET for the module, as its attribute does"""
    monkeypatch.setenv("TVM_IKET_INJECTED_CHILD_ENABLE", "1")
    monkeypatch.setenv("TVM_IKET_OFFICIAL_PROFILE", "cutlass-4.6.0")
    monkeypatch.setenv("CUDA_INJECTION64_PATH", "/verified/libsmodel_injection.so")
    monkeypatch.setenv("SMODEL_INJECTION_CONFIG", "/verified/config.json")
    Before = _split_kernels()
    After = cuda_transforms.LowerIket()(Before)
    Expected = cuda_transforms.LowerIket()(Before.with_attr("tirx.iket.enabled", True))
    tvm.ir.assert_structural_equal(After, Expected.without_attr("tirx.iket.enabled"))


@pytest.mark.parametrize("enabled", [True, 2])
def test_lower_iket_numbers_the_events_of_every_kernel_together(enabled):
    """A nonzero tirx.iket.enabled instruments the kernels together: the second mark is event 2"""
    After = cuda_transforms.LowerIket()(_split_kernels().with_attr("tirx.iket.enabled", enabled))
    event = After["main_kernel_1"].body.body[0].value
    tvm.ir.assert_structural_equal(event.args[0], tvm.tirx.const(2, "uint32"))


@pytest.mark.parametrize("enabled", [True, 2])
def test_lower_iket_instrumented_module_keeps_its_attributes(enabled):
    """With IKET enabled, the module LowerIket returns keeps every attribute of its input"""
    Before = _split_kernels().with_attr("tirx.iket.enabled", enabled).with_attr("note", "kept")
    After = cuda_transforms.LowerIket()(Before)
    tvm.ir.assert_structural_equal(After.attrs, Before.attrs)


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="LowerIket changes its input module in place, and the function map it iterates",
)
def test_compile_strips_the_iket_marks_of_every_kernel():
    """tvm.compile strips the IKET marks of every kernel of a function with several kernels"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((32,), "int32")):
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            T.cuda.iket.mark("first")
            A[tx] = A[tx] + 1
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            T.cuda.iket.mark("second")
            A[tx] = A[tx] + 2
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            T.cuda.iket.mark("third")
            A[tx] = A[tx] + 3
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            T.cuda.iket.mark("fourth")
            A[tx] = A[tx] + 4

    target = tvm.target.Target({"kind": "cuda", "arch": "sm_90a"})
    tvm.compile(main, target=target, tir_pipeline="tirx")


if __name__ == "__main__":
    tvm.testing.main()

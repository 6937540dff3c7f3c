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
"""The dimensions along which tool-made mutants of the narrow kernel scalar reference fix
(docs/mutants.md) changed what SplitHostDevice gives, each swept here (this repository only).

* the scalar's dtype: every int, uint and float width a kernel scalar parameter can have,
  bool and bfloat16, the float8/6/4 formats, fixed and scalable vector lanes; a launched
  kernel's parameter becomes int32, uint32 or float32 exactly where the C++ patch's
  ``NarrowScalarLaunchType`` says so;
* the kernels a function splits out: a CPU kernel split out before a device kernel;
* the module's other functions: a device subroutine that carries a calling convention of its
  own, and an extern function, stay as they are;
* how the pass runs: a Sequential under opt level 0 or -1 runs or skips it as it does TVM's
  own pass, ``unfixed()`` runs TVM's own pass, and a second ``install()`` changes nothing.
"""

import sys
from pathlib import Path

import pytest
import tvm_ffi

import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # repository root, for `python FILE`
from bugs.narrow_scalar import reference_fix as fix

sys.path.insert(0, str(Path(__file__).resolve().parent))
import narrow_scalar_cases as cases


def _released_split():
    """TVM's own SplitHostDevice pass, whatever this session installed."""
    return tvm_ffi.get_global_func("tirx.transform.SplitHostDevice")()


def _launch(host):
    """The one ``T.call_ffi_kernel`` of the host function."""
    return cases.launch(host, ("tirx.call_ffi_kernel",))


def _widened(dtype, wide):
    return pytest.param(
        dtype,
        wide,
        marks=pytest.mark.xfail(
            strict=True, raises=cases.ScalarNotLaunchable, reason=cases.NARROW_REASON
        ),
        id=dtype,
    )


def _kept(dtype):
    return pytest.param(dtype, dtype, id=dtype)


# (dtype of the kernel scalar, dtype its kernel parameter must have)
WIDTHS = [
    *[_widened(f"int{bits}", "int32") for bits in (1, 2, 4, 8, 16, 24, 31)],
    *[_kept(f"int{bits}") for bits in (32, 64)],
    *[_widened(f"uint{bits}", "uint32") for bits in (1, 4, 8, 16, 24, 31)],
    *[_kept(f"uint{bits}") for bits in (32, 64)],
    _widened("bool", "int32"),
    _widened("float16", "float32"),
    _widened("bfloat16", "float32"),
    # plain floats of any other width keep their type, above or below 16 bits
    *[_kept(f"float{bits}") for bits in (8, 12, 20, 24, 32, 64)],
    # bfloat of another width than 16: the patch widens bfloat16 only
    *[_kept(f"bfloat{bits}") for bits in (8, 12)],
    *[_kept(d) for d in ("float8_e4m3fn", "float8_e5m2", "float6_e2m3fn", "float4_e2m1fn")],
    # vectors, fixed or scalable: no runtime passes them at any width
    *[_kept(d) for d in ("int8x4", "float16x4", "uint16x2", "int8xvscalex4", "float16xvscalex4")],
]


@pytest.mark.parametrize("dtype, wide", WIDTHS)
def test_kernel_scalar_dtype_decides_the_launch_type(dtype, wide):
    """A launched kernel's scalar parameter and its launch argument have the patch's type"""

    @T.prim_func
    def main(x: tvm.tirx.Var("x", dtype)):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)
        T.evaluate(x)

    after = tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))
    got = ([str(p.ty) for p in after["main_kernel"].params], str(_launch(after["main"]).args[1].ty))
    if wide != dtype and got == ([dtype], dtype):
        raise cases.ScalarNotLaunchable(f"{dtype} kernel scalar passed as it is")
    assert got == ([wide], wide)


@pytest.mark.xfail(strict=True, raises=cases.ScalarNotLaunchable, reason=cases.NARROW_REASON)
@pytest.mark.parametrize("dtype", ["int8", "float16"])
def test_device_kernel_split_after_a_cpu_kernel_widened(dtype):
    """A cuda kernel split out after a CPU kernel of the same function is widened as well"""
    ty = getattr(T, dtype)

    @T.prim_func
    def main(x: ty, y: ty):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        with T.attr(T.target("llvm"), "target", 0):
            T.evaluate(x)
        with T.attr(T.target("cuda"), "target", 0):
            T.evaluate(y)

    after = tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))
    (kernel,) = [
        f
        for gvar, f in after.functions.items()
        if gvar.name_hint != "main" and f.attrs["target"].kind.name == "cuda"
    ]
    if [str(p.ty) for p in kernel.params] == [dtype]:
        raise cases.ScalarNotLaunchable(f"{dtype} kernel scalar passed as it is")
    assert [str(p.ty) for p in kernel.params] == [str(_launch(after["main"]).args[1].ty)]


@pytest.mark.parametrize("dtype", ["int8", "float16"])
def test_device_subroutine_with_its_own_calling_convention_kept(dtype):
    """A cuda subroutine of calling convention 0, called by a kernel, keeps its narrow parameter"""
    ty = getattr(T, dtype)

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, dtype), n: T.int32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            Before.kern(A.data, n)

        @T.prim_func(private=True, s_tir=True)
        def kern(A_ptr: T.handle(dtype), n: T.int32):
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer(8, dtype, data=A_ptr)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = Before.helper(T.Cast(dtype, n))

        @T.prim_func(private=True, s_tir=True)
        def helper(v: ty) -> ty:
            T.func_attr({"target": T.target("cuda"), "calling_conv": 0})
            return v + ty(1)

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After["helper"], Before["helper"])


@pytest.mark.parametrize("dtype", ["int8", "float16"])
def test_extern_function_beside_a_widened_kernel_kept(dtype):
    """An extern function of the module passes through while a kernel beside it is widened"""
    ty = getattr(T, dtype)

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, dtype), x: ty):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] + x

    Before = tvm.IRModule({"ext": relax.ExternFunc("ext_func"), "main": main})
    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After["ext"], Before["ext"])


def _wide_kernel_module(dtype):
    @T.prim_func
    def main(B: T.Buffer(8, dtype), x: tvm.tirx.Var("x", dtype)):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        B[i] = B[i] + x

    return tvm.IRModule({"main": main})


CONTEXTS = {
    "opt-level-0": {"opt_level": 0},
    "opt-level-minus-1": {"opt_level": -1},
    "disabled": {"opt_level": 3, "disabled_pass": ["tirx.SplitHostDevice"]},
}


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("dtype", ["int32", "float32"])
def test_sequential_runs_the_pass_at_the_released_opt_level(dtype, context):
    """A Sequential runs the pass under opt level 0, and skips it under -1 or where the
    context disables tirx.SplitHostDevice, as TVM's own"""
    mod = _wide_kernel_module(dtype)
    with tvm.transform.PassContext(**CONTEXTS[context]):
        got = tvm.transform.Sequential([tvm.tirx.transform.SplitHostDevice()])(mod)
        want = tvm.transform.Sequential([_released_split()])(mod)
    tvm.ir.assert_structural_equal(got, want)


@pytest.mark.parametrize("dtype", ["int8", "float16"])
def test_unfixed_runs_the_released_pass(dtype):
    """Inside unfixed() SplitHostDevice leaves a narrow kernel scalar as TVM's own pass does"""
    mod = _wide_kernel_module(dtype)
    with fix.unfixed():
        got = tvm.tirx.transform.SplitHostDevice()(mod)
    tvm.ir.assert_structural_equal(got, _released_split()(mod))


def test_second_install_is_a_no_op():
    """install() twice then both undos, first to last: TVM's own pass is back"""
    from tvm.tirx.transform import _ffi_api

    current = _ffi_api.SplitHostDevice
    released = tvm_ffi.get_global_func("tirx.transform.SplitHostDevice")
    _ffi_api.SplitHostDevice = released  # start from TVM's pass, whatever this session installed
    try:
        undo = [fix.install(), fix.install()]
        for func in undo:
            func()
        assert _ffi_api.SplitHostDevice is released
    finally:
        _ffi_api.SplitHostDevice = current

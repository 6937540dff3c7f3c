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
"""No regression from the narrow kernel scalar reference fix (this repository only).

Modules without a kernel scalar narrower than 32 bits, and narrow scalars that never become
a launched kernel's parameter (host-only code, a kernel called directly on the CPU, a value
used only inside the kernel), compile for cuda and llvm to exactly the same code with and
without W1 of bugs/narrow_scalar/reference_fix.py. The fix composes with the host-scalar fix in
either installation order.
"""

import sys
from pathlib import Path

import pytest

import tvm
from harness.compiled_code import installed, unchanged_test
from tvm.script import ir as I
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # repository root, for `python FILE`
from bugs.host_scalar import reference_fix as host_scalar
from bugs.narrow_scalar import reference_fix as fix

N = 8


installed_fix = installed(fix)


@I.ir_module
class WideScalars:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), x: T.float32, n: T.int32, m: T.int64):
        c: T.let[T.float32] = x * T.float32(2.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            B[i] = c + T.Cast("float32", n) + T.Cast("float32", m)


@I.ir_module
class NarrowBuffersOnly:
    @T.prim_func
    def main(B: T.Buffer((N,), "float16"), C: T.Buffer((N,), "int8")):
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = T.Cast("int8", B[i] * T.float16(2.0))


@I.ir_module
class NarrowValueInsideKernel:
    @T.prim_func
    def main(B: T.Buffer((N,), "float16"), C: T.Buffer((N,), "float16")):
        for i in T.thread_binding(N, thread="threadIdx.x"):
            h: T.let[T.float16] = B[i] * T.float16(3.0)
            C[i] = h + h


@I.ir_module
class NarrowHostOnly:
    @T.prim_func
    def main(B: T.Buffer((N,), "int8"), x: T.int8, flag: T.bool):
        for i in range(N):
            B[i] = T.if_then_else(flag, x, B[i])


@I.ir_module
class CpuKernelNarrowParam:
    @T.prim_func
    def main(x: T.int8, y: T.float16):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("llvm"), "target", 0)
        T.evaluate(T.Cast("float16", x) + y)


UNCHANGED = [
    pytest.param(WideScalars, "cuda", id="cuda-wide-scalars"),
    pytest.param(NarrowBuffersOnly, "cuda", id="cuda-narrow-buffers"),
    pytest.param(NarrowValueInsideKernel, "cuda", id="cuda-narrow-inside-kernel"),
    pytest.param(NarrowHostOnly, "llvm", id="llvm-narrow-scalars"),
]


test_compiled_code_is_unchanged = unchanged_test(fix, UNCHANGED)


def test_cpu_kernel_split_is_unchanged():
    split = tvm.tirx.transform.SplitHostDevice()
    fixed = split(CpuKernelNarrowParam.clone())
    with fix.unfixed():
        released = split(CpuKernelNarrowParam.clone())
    tvm.ir.assert_structural_equal(fixed, released)


@I.ir_module
class Float16Cell:
    @T.prim_func
    def main(B: T.Buffer((N,), "float16"), C: T.Buffer((N,), "float16")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        c = T.alloc_local((1,), "float16")
        c[0] = T.float16(1.5)
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", N)
        C[i] = B[i] + c[0]


def _split_with(first, second):
    """SplitHostDevice of Float16Cell with the two fixes installed in this order (the narrow
    fix goes beneath SplitHostDevice, the host-scalar fix wraps it: both orders work)."""
    transform = tvm.tirx.transform
    names = ("SplitHostDevice", "LowerTVMBuiltin")  # the passes the two fixes wrap
    saved = {name: getattr(transform, name) for name in names}
    for name, func in saved.items():  # TVM's own passes, whatever this session installed
        while getattr(func, "__wrapped__", None) is not None:
            func = func.__wrapped__
        setattr(transform, name, func)
    undo = [first.install(), second.install()]
    try:
        return transform.SplitHostDevice()(Float16Cell.clone())
    finally:
        for func in reversed(undo):
            func()
        for name, func in saved.items():
            setattr(transform, name, func)


def test_composes_with_host_scalar_fix_in_either_order():
    """Whichever fix wraps SplitHostDevice last, the float16 cell is passed as float32."""
    narrow_last = _split_with(host_scalar, fix)
    host_last = _split_with(fix, host_scalar)
    tvm.ir.assert_structural_equal(narrow_last, host_last)
    (param,) = [p for p in narrow_last["main_kernel"].params if isinstance(p.ty, tvm.ir.PrimType)]
    assert str(param.ty) == "float32"


def test_install_twice_and_undo():
    from tvm.tirx.transform import _ffi_api

    current = _ffi_api.SplitHostDevice
    undo = fix.install()  # already installed by the fixture: a no-op
    assert _ffi_api.SplitHostDevice is current
    undo()
    assert _ffi_api.SplitHostDevice is current

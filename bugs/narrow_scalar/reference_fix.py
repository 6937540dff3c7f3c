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
"""Reference fix for the narrow kernel scalar report (TIRx / GPU runtimes).

A scalar that a kernel reads from the host becomes a kernel parameter of the scalar's own
dtype. The GPU runtimes pass kernel scalars in 32- or 64-bit slots only:
``GetArgConvertCode`` (src/runtime/pack_args.h), shared by CUDA and OpenCL
(``PackFuncVoidAddr``), ROCm (``PackFuncPackedArgAligned``), Vulkan and Metal
(``PackFuncNonBufferArg``), knows int32, uint32, int64, float32, float64 and handles, and
throws "Cannot handle <dtype> as device function argument" for anything else. So a kernel
with a float16, bfloat16, int8, int16, uint8, uint16 or bool scalar parameter compiles and
can never be launched.

The C++ patch this module is the blueprint for changes one place:

W1  src/tirx/transform/split_host_device.cc, ``LowerDeviceKernelLaunches`` (the last step of
    SplitHostDevice), for every kernel that the host launches, those SplitHostDevice split
    out and those written as module functions alike: when the kernel is launched through a
    device runtime (its device is CUDA, ROCm, OpenCL, Vulkan, Metal or WebGPU;
    ``IsLaunchedByDeviceRuntime``, the predicate the host-scalar fix uses too), each scalar
    parameter (not a handle, one lane) narrower than 32 bits gets a
    32-bit type: float16 and bfloat16 -> float32; int8, int16 (any int below 32 bits) and
    bool -> int32; uint8, uint16 (any uint below 32 bits) -> uint32. The kernel takes a
    fresh Var of the wide type, named like the scalar; the host passes
    ``Cast(wide, value)`` at each launch; the kernel's body starts with ``Bind(scalar,
    Cast(narrow, wide_param))`` (before the buffer declarations, whose shapes may use it), so the
    kernel's arithmetic stays in the scalar's dtype and every conversion is exact.
    Everything else is unchanged: 32- and 64-bit scalars, handles, vectors (the runtime
    rejects those separately), the float8/float6/float4 formats (not converted here: no
    host conversion to float32 is guaranteed), and kernels of CPU-like targets.

Why SplitHostDevice and not the runtime: the runtime would need, per runtime, the slot size
and alignment of each narrow type (cuLaunchKernel reads each parameter at its own size,
ROCm packs an aligned struct, Vulkan and Metal read 64-bit unions in generated code), the
host packs every scalar into a 64-bit FFI value anyway, and every runtime already accepts
32-bit scalars: widening where the kernel's parameter list is built fixes all five at once.

``install()`` reproduces W1 in-process on the released wheel: the pass that
``tvm.tirx.transform.SplitHostDevice()`` builds (through ``_ffi_api.SplitHostDevice``) is
followed by a module pass that rewrites the kernels the host launches (the functions of its
output that its input did not have, and those it gave the device-kernel-launch calling
convention) and their launches (``T.call_ffi_kernel("<kernel>", ...)``; a subroutine or extern
call of such a kernel from a device function is left as it is, as the C++ patch leaves it). The
result is the C++ patch's, a context that disables ``tirx.SplitHostDevice`` included. Being
beneath ``SplitHostDevice`` itself, it composes with the host-scalar fix
(bugs/host_scalar/reference_fix.py), which wraps that function: a float16 host cell passed by
value reaches the kernel as ``Cast("float32", c[0])``. One difference in form, none in
value: a launch extent computed from a narrow scalar stays as TVM's pass computed it from
the host's value, where the C++ patch derives it through the kernel's entry binding
(``Cast("int32", Cast("int16", Cast("int32", n)))`` for ``n: int16``); no test uses one.
``install()`` returns the undo function (installing twice is a no-op); ``unfixed()`` is a
context manager that runs without W1 meanwhile, for no-regression comparisons.
"""

import contextlib

import tvm_ffi

from harness.tvm_line import (
    call_like,
    disables,
    function_like,
    ir,
    launched_by_device_runtime,
    named_symbol,
)

_DEVICE_KERNEL_LAUNCH = 2  # CallingConv::kDeviceKernelLaunch
_LAUNCH = ("tirx.call_ffi_kernel",)  # a kernel launch, as SplitHostDevice lowers it
_INT, _UINT, _FLOAT, _BFLOAT, _BOOL = 0, 1, 2, 4, 6  # DLDataTypeCode
_active = [True]  # False inside unfixed()


def _wide_dtype(dtype):
    """The 32-bit dtype a kernel parameter of ``dtype`` is passed as, or None to keep it."""
    t = tvm_ffi.dtype(dtype)
    code = int(t.type_code)
    if t.lanes != 1 or t.bits >= 32:
        return None
    if code in (_INT, _BOOL):
        return "int32"
    if code == _UINT:
        return "uint32"
    if code in (_FLOAT, _BFLOAT) and t.bits == 16:
        return "float32"
    return None


def _launched_by_runtime(kernel):
    """Whether ``kernel`` is launched through a device runtime (W1 applies)."""
    target = kernel.attrs.get("target") if kernel.attrs is not None else None
    if target is None:
        return False
    return launched_by_device_runtime(target)


def _launched_from_host(gvar, func, known):
    """Whether ``func`` is a kernel the host launches: SplitHostDevice split it out (its name
    is not in ``known``, the input's names) or gave it the kernel-launch calling convention."""
    conv = func.attrs.get("calling_conv") if func.attrs is not None else None
    return gvar.name_hint not in known or (conv is not None and int(conv) == _DEVICE_KERNEL_LAUNCH)


def _host_arg(value, wide):
    """What the host passes for a widened parameter."""
    return ir.Cast(wide, value)


def _kernel_entry(param, wide_param):
    """(statements the kernel starts with, {Var: replacement}) for one widened parameter."""
    return [ir.Bind(param, ir.Cast(str(param.ty), wide_param))], {}


def _scalar_dtype(var):
    ty = var.ty
    return str(ty) if isinstance(ty, ir.PrimType) else None


def _widen_kernel(func):
    """(the kernel with widened parameters, {parameter index: wide dtype}) or (func, {})."""
    params, entry, remap, widened = [], [], {}, {}
    for i, param in enumerate(func.params):
        dtype = _scalar_dtype(param)
        wide = _wide_dtype(dtype) if dtype is not None else None
        if wide is None:
            params.append(param)
            continue
        wide_param = ir.Var(param.name, wide)
        stmts, subst = _kernel_entry(param, wide_param)
        params.append(wide_param)
        entry.extend(stmts)
        remap.update(subst)
        widened[i] = wide
    if not widened:
        return func, {}
    body = func.body
    if remap:

        def replace(var):
            for old, new in remap.items():
                if old.same_as(var):
                    return new
            return var

        body = tvm_ffi.structural_map(body, (ir.Var, replace))
    if entry:
        rest = list(body.seq) if isinstance(body, ir.SeqStmt) else [body]
        body = ir.SeqStmt([*entry, *rest])
    return function_like(func, params, body), widened


def _cast_args(args, first, widened):
    args = list(args)
    for i, wide in widened.items():
        args[first + i] = _host_arg(args[first + i], wide)
    return args


def _rewrite_calls(func, kernels):
    """Cast the arguments of every launch of a widened kernel in ``func``. A call that is no
    launch (a device function's subroutine call, an extern call) is left as it is, as the C++
    patch leaves it: it casts at the launches SplitHostDevice makes."""

    def on_call(call):
        symbol = named_symbol(call, _LAUNCH)
        widened = kernels.get(symbol) if symbol is not None else None
        if not widened:
            return call
        return call_like(call, _cast_args(call.args, 1, widened))

    body = tvm_ffi.structural_map(func.body, (ir.Call, on_call))
    return func if body.same_as(func.body) else func.with_body(body)


def widen_launched_kernels(known, after):
    """W1 on the output ``after`` of SplitHostDevice; ``known``: the names its input had."""
    kernels, updates = {}, {}
    for gvar, func in after.functions.items():
        if not isinstance(func, ir.PrimFunc) or not _launched_from_host(gvar, func, known):
            continue
        if not _launched_by_runtime(func):
            continue
        new, widened = _widen_kernel(func)
        if widened:
            updates[gvar] = new
            symbol = func.attrs.get("global_symbol") if func.attrs is not None else None
            kernels[gvar.name_hint] = widened
            if symbol is not None:
                kernels[str(symbol)] = widened
    if not kernels:
        return after
    for gvar, func in after.functions.items():
        if isinstance(func, ir.PrimFunc) and gvar not in updates:
            new = _rewrite_calls(func, kernels)
            if not new.same_as(func):
                updates[gvar] = new
    after = after.clone()  # the pass must not change its input module in place
    for gvar, func in updates.items():
        after.update_func(gvar, func)
    return after


def _with_widening(original):
    """``original`` (the constructor of TVM's SplitHostDevice pass) followed by W1."""

    def SplitHostDevice():
        inner = original()

        @ir.module_pass(opt_level=0, name="reference_fixes.NarrowScalarParams")
        def _split(mod, ctx):
            if disables(ctx, "tirx.SplitHostDevice"):  # skipped whole, as TVM's would be
                return mod
            # the names first: the pass adds the kernels to the module it is given
            known = {gvar.name_hint for gvar in mod.functions}
            after = inner(mod)
            return widen_launched_kernels(known, after) if _active[0] else after

        return _split

    SplitHostDevice._narrow_scalar_fix = True
    return SplitHostDevice


def install():
    """Install W1 under ``tvm.tirx.transform.SplitHostDevice``; return the undo function.

    The pass's Python constructor builds it with ``_ffi_api.SplitHostDevice()``: W1 replaces
    that, so it is the innermost layer, beneath any wrapper of ``SplitHostDevice`` itself
    (the host-scalar fix's). Installing twice is a no-op whose undo does nothing (the first
    undo removes the fix).
    """
    ffi = ir.transform_ffi
    if getattr(ffi.SplitHostDevice, "_narrow_scalar_fix", False):
        return lambda: None
    saved = ffi.SplitHostDevice
    ffi.SplitHostDevice = _with_widening(saved)

    def uninstall():
        ffi.SplitHostDevice = saved

    return uninstall


@contextlib.contextmanager
def unfixed():
    """Temporarily run without W1, whether or not the fix is installed (other fixes stay)."""
    saved = _active[0]
    _active[0] = False
    try:
        yield
    finally:
        _active[0] = saved

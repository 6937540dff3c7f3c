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
"""Wrong fixes of the narrow kernel scalar report (blind round 2): each one small mistake in
one step of bugs/narrow_scalar/reference_fix.py (W1 of the C++ patch 0004)."""

import tvm_ffi

from bugs.narrow_scalar import reference_fix as fix
from bugs.narrow_scalar.wrong_fixes import (
    _cast_args_from_zero,
    _split_out_only,
    _unsigned_as_int32,
)
from harness.tvm_line import function_like, ir

WRONG_FIXES = {
    "blind2-launch-arg-off-by-one": (
        "the launch looks up each argument's wide type at its position in the launch call, "
        "kernel name included (params[i] against call_args[i]): the argument before a narrow "
        "scalar is cast instead of it"
    ),
    "blind2-split-kernels-only": (
        "only the kernels SplitHostDevice splits out are widened: a kernel written as a module "
        "function (calling_conv kDeviceKernelLaunch) keeps its narrow parameters"
    ),
    "blind2-webgpu-forgotten": (
        "the device-runtime predicate lists CUDA, ROCm, OpenCL, Vulkan and Metal but not "
        "WebGPU: a WebGPU kernel keeps its narrow parameters"
    ),
    "blind2-non-cpu-widened": (
        "the predicate is 'the kernel's device is not the CPU': ext_dev and Hexagon kernels, "
        "called as functions, get widened parameters too"
    ),
    "blind2-other-floats-to-float32": (
        "every floating-point scalar narrower than 32 bits travels as float32, the float8, "
        "float6 and float4 formats included, not only float16 and bfloat16"
    ),
    "blind2-entry-after-decls": (
        "the kernel's entry bindings are placed after its leading buffer declarations, whose "
        "shapes may use the narrow scalar, instead of first"
    ),
    "blind2-uint-as-int32": (
        "unsigned narrow scalars are grouped with the signed ones (as APIType groups them) and "
        "travel as int32, not uint32"
    ),
    "blind2-caller-target": (
        "the launch decides whether to widen from the caller's (host) target, not the "
        "kernel's: the host passes the narrow value to the widened parameter"
    ),
}

_REFERENCE_WIDE_DTYPE = fix._wide_dtype
_REFERENCE_REWRITE_CALLS = fix._rewrite_calls


# --------------------------------------------------------------------- webgpu / non-cpu


def _no_webgpu(target):
    return int(target.get_target_device_type()) in (2, 4, 7, 8, 10)


def _not_cpu(target):
    return int(target.get_target_device_type()) != 1  # kDLCPU


# --------------------------------------------------------------------- dtype rules


def _wide_other_floats(dtype):
    t = tvm_ffi.dtype(dtype)
    if t.lanes != 1 or t.bits >= 32:
        return None
    # the mistake: every narrow type the reference keeps is taken for a float format
    return _REFERENCE_WIDE_DTYPE(dtype) or "float32"


# --------------------------------------------------------------------- entry-after-decls


def _is_decl(stmt):
    if ir.DeclBuffer is not None and isinstance(stmt, ir.DeclBuffer):
        return True
    value = getattr(stmt, "value", None)
    return (
        isinstance(stmt, ir.Bind)
        and isinstance(value, ir.Call)
        and isinstance(value.op, ir.Op)
        and value.op.name == "tirx.decl_tensor"
    )


def _widen_kernel_after_decls(func):
    """The reference's _widen_kernel, the entry bindings placed after the leading buffer
    declarations."""
    params, entry, widened = [], [], {}
    for i, param in enumerate(func.params):
        dtype = fix._scalar_dtype(param)
        wide = fix._wide_dtype(dtype) if dtype is not None else None
        if wide is None:
            params.append(param)
            continue
        wide_param = ir.Var(param.name, wide)
        stmts, _subst = fix._kernel_entry(param, wide_param)
        params.append(wide_param)
        entry.extend(stmts)
        widened[i] = wide
    if not widened:
        return func, {}
    body = func.body
    rest = list(body.seq) if isinstance(body, ir.SeqStmt) else [body]
    k = 0
    while k < len(rest) and _is_decl(rest[k]):
        k += 1
    body = ir.SeqStmt([*rest[:k], *entry, *rest[k:]])
    return function_like(func, params, body), widened


# --------------------------------------------------------------------- caller-target


def _rewrite_calls_in_runtime_callers(func, kernels):
    """The reference's _rewrite_calls only in callers whose own target launches through a
    device runtime (the host never does): the caller's target decides."""
    if not fix._launched_by_runtime(func):
        return func
    return _REFERENCE_REWRITE_CALLS(func, kernels)


PATCHES = {
    "blind2-launch-arg-off-by-one": {"_cast_args": _cast_args_from_zero},
    "blind2-split-kernels-only": {"_launched_from_host": _split_out_only},
    "blind2-webgpu-forgotten": {"launched_by_device_runtime": _no_webgpu},
    "blind2-non-cpu-widened": {"launched_by_device_runtime": _not_cpu},
    "blind2-other-floats-to-float32": {"_wide_dtype": _wide_other_floats},
    "blind2-entry-after-decls": {"_widen_kernel": _widen_kernel_after_decls},
    "blind2-uint-as-int32": {"_wide_dtype": _unsigned_as_int32},
    "blind2-caller-target": {"_rewrite_calls": _rewrite_calls_in_runtime_callers},
}

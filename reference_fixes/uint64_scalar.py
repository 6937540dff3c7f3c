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
"""Reference fix: a uint64 kernel scalar is a compile-time error instead of a launch failure.

The bug. A uint64 scalar that a GPU kernel reads from the host (an argument, a ``T.let`` value
computed on the host) becomes a kernel parameter of type uint64: ``SplitHostDevice`` makes it
one, the code generators accept it (``uint64_t v0`` in CUDA C), the module builds. The GPU
runtimes pass kernel scalars only as int32, uint32, int64, float32 and float64
(``GetArgConvertCode`` in ``src/runtime/pack_args.h``, shared by CUDA, ROCm, OpenCL, Vulkan
and Metal; WebGPU has no 64-bit types), so the first call fails with "Cannot handle uint64 as
device function argument": an error of the runtime, at run time, on a program that compiled.
The narrow-scalar fix widens only types narrower than 32 bits; uint64 cannot be widened.

Upstream change (blueprint): ``LowerDeviceKernelLaunches`` (``src/tirx/transform/
split_host_device.cc``), where each kernel launched by a device runtime gets its parameter
list, raises a ``ValueError`` for a uint64 scalar parameter, naming the kernel, the parameter
and what to do (pass it as int64, e.g. ``T.reinterpret``). Kernels run on the CPU (llvm, c)
are called directly and keep such parameters. (The alternative, a runtime that passes uint64
in the int64 slot, ``pack_args.h``, needs a GPU to test and is left to the maintainers.)

``install()`` checks the output of ``SplitHostDevice`` (its ``_ffi_api`` constructor is
wrapped, as the narrow-scalar fix does) and returns the undo function.
"""

from reference_fixes._line import ir, launched_by_device_runtime

_MARK = "_uint64_scalar_fix"
# the kernel-launch calling convention (kDeviceKernelLaunch)
_DEVICE_KERNEL_LAUNCH = 2


def _kernel_launched_by_runtime(gvar, func, known):
    if not isinstance(func, ir.PrimFunc) or func.attrs is None:
        return False
    conv = func.attrs.get("calling_conv")
    split_out = gvar.name_hint not in known
    if not (split_out or (conv is not None and int(conv) == _DEVICE_KERNEL_LAUNCH)):
        return False
    target = func.attrs.get("target")
    return target is not None and launched_by_device_runtime(target)


def uint64_params(func):
    """The names of ``func``'s uint64 scalar parameters."""
    return [
        p.name for p in func.params if isinstance(p.ty, ir.PrimType) and str(p.ty.dtype) == "uint64"
    ]


def check(known, after):
    """Raise ValueError when a kernel of ``after`` that a device runtime launches takes a uint64
    scalar; ``known``: the names of the pass's input."""
    for gvar, func in after.functions.items():
        if not _kernel_launched_by_runtime(gvar, func, known):
            continue
        names = uint64_params(func)
        if names:
            raise ValueError(
                f"Kernel {gvar.name_hint} takes the uint64 scalar {', '.join(names)}, which no "
                "GPU runtime can pass (kernel scalars are int32, uint32, int64, float32 or "
                "float64): pass it as int64, e.g. T.reinterpret('int64', value)"
            )
    return after


def _checked(original):
    def SplitHostDevice():
        inner = original()

        @ir.module_pass(opt_level=0, name="reference_fixes.Uint64KernelScalars")
        def _split(mod, _ctx):
            known = {gvar.name_hint for gvar in mod.functions}
            return check(known, inner(mod))

        return _split

    setattr(SplitHostDevice, _MARK, True)
    return SplitHostDevice


def install():
    """Check SplitHostDevice's output for uint64 kernel scalars; return the undo function."""
    ffi = ir.transform_ffi
    saved = ffi.SplitHostDevice
    if getattr(saved, _MARK, False):
        return lambda: None
    ffi.SplitHostDevice = _checked(saved)

    def uninstall():
        ffi.SplitHostDevice = saved

    return uninstall

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
"""What the blind host_scalar demos observe on the apache/tvm-tirx line (``.venv-tirx``), where
no OpenCL runtime runs: the compile for a device that needs none (cuda sm_80, metal), its
kernels' signatures, the host's workspace calls for the cell ``c`` and the kernel launches
that SplitHostDevice leaves in the host function."""

import importlib.util
import re

# apache/tvm-tirx (module tvm_tirx) when apache/tvm is not importable, as harness/tvm_line.py
ON_TIRX = importlib.util.find_spec("tvm") is None


def _capturing_split(seen):
    """Wrap the line's SplitHostDevice (the fix's wrapper, as installed) to record its result."""
    import tvm_tirx

    transform = tvm_tirx.tirx.transform
    original = transform.SplitHostDevice

    def SplitHostDevice():
        inner = original()

        @tvm_tirx.ir.transform.module_pass(opt_level=0, name="blind2.CaptureSplit")
        def capture(mod, _ctx):
            out = inner(mod)
            seen.append(out)
            return out

        return capture

    transform.SplitHostDevice = SplitHostDevice
    return lambda: setattr(transform, "SplitHostDevice", original)


def observe_tirx(func, kind="cuda"):
    """Compile ``func`` for ``kind`` with an llvm host: its kernels' signatures, the host's
    TVMBackendAllocWorkspace / FreeWorkspace calls for ``c`` (device type, device id) and the
    host's kernel launches; or the error."""
    import tvm_tirx

    spec = {"kind": "cuda", "arch": "sm_80"} if kind == "cuda" else kind
    target = tvm_tirx.target.Target(spec, host="llvm")
    seen = []
    undo = _capturing_split(seen)
    try:
        lib = tvm_tirx.tirx.compile(func, target=target)
    finally:
        undo()
    kernel = lib.mod.imports[0].inspect_source()
    signatures = [
        " ".join(m.split())
        for m in re.findall(r"(?:__global__ void|kernel void)[^{;]*\)", kernel)
        if "__launch_bounds__" in m or "(" in m
    ]
    host = lib.mod.inspect_source("ll")
    launches = [
        line.strip()
        for mod in seen
        for gvar, f in mod.functions.items()
        if "kernel" not in gvar.name_hint
        for line in f.script().splitlines()
        if "call_ffi_kernel" in line
    ]
    calls = _cell_calls(host)
    return "\n".join([*dict.fromkeys(signatures), str(calls), *launches])


def _cell_calls(host_ll):
    """The host LLVM IR's TVMBackendAllocWorkspace / FreeWorkspace calls for ``c``: their
    (device type, device id) arguments."""
    allocs = re.findall(r"%c\b[\w.]* = (?:tail )?call ptr %[\w.]+\((i32 \w+, i32 %?\w+)", host_ll)
    frees = re.findall(r"call i32 %[\w.]+\((i32 \w+, i32 %?\w+), ptr [\w ]*%c\b", host_ll)
    return [f"alloc({x})" for x in allocs] + [f"free({x})" for x in frees]


def cell_workspace_calls(func, target="opencl"):
    """apache/tvm: ``_cell_calls`` of ``func`` compiled for ``target`` with an llvm host."""
    import tvm

    lib = tvm.compile(func, target=tvm.target.Target(target, host="llvm"))
    return _cell_calls(lib.mod.inspect_source("ll"))

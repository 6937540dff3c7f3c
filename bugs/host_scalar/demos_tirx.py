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
"""The second round's programs of demos.py on apache/tvm-tirx (harness/blind_demo.py; run with
.venv-tirx/bin/python scripts/blind_demos.py --bug host_scalar).

No OpenCL runtime runs on this line, so each program is compiled for a device that needs none
(cuda sm_80, or metal) with an llvm host. What is compared: its kernels' signatures, the host's
TVMBackendAllocWorkspace / FreeWorkspace calls for the cell ``c`` and the kernel launches that
SplitHostDevice leaves in the host function; or the error."""

import re

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo


def _capturing_split(seen):
    """Wrap the line's SplitHostDevice (the fix's wrapper, as installed) to record its result;
    returns the undo."""
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


def _cell_calls(host):
    """The host LLVM IR's workspace calls for ``c``: their (device type, device id) arguments."""
    allocs = re.findall(r"%c\b[\w.]* = (?:tail )?call ptr %[\w.]+\((i32 \w+, i32 %?\w+)", host)
    frees = re.findall(r"call i32 %[\w.]+\((i32 \w+, i32 %?\w+), ptr [\w ]*%c\b", host)
    return [f"alloc({x})" for x in allocs] + [f"free({x})" for x in frees]


def compiled(kind):
    """The observer: compile for ``kind`` (cuda sm_80 or metal) with an llvm host; the kernels'
    signatures, the cell's workspace calls and the host's kernel launches."""

    def observe(func):
        spec = {"kind": "cuda", "arch": "sm_80"} if kind == "cuda" else kind
        seen = []
        undo = _capturing_split(seen)
        try:
            lib = tvm_tirx.tirx.compile(func, target=tvm_tirx.target.Target(spec, host="llvm"))
        finally:
            undo()
        kernel = lib.mod.imports[0].inspect_source()
        signatures = [
            " ".join(m.split())
            for m in re.findall(r"(?:__global__ void|kernel void)[^{;]*\)", kernel)
            if "__launch_bounds__" in m or "(" in m
        ]
        launches = [  # only the host function launches
            line.strip()
            for mod in seen
            for f in mod.functions.values()
            for line in f.script().splitlines()
            if "call_ffi_kernel" in line
        ]
        calls = _cell_calls(lib.mod.inspect_source("ll"))
        return "\n".join([*dict.fromkeys(signatures), str(calls), *launches])

    return observe


def report(n):
    """The report's program: the host binds c = 1.5, an ``n``-thread kernel reads it."""

    @T.function
    def func(B: T.Tensor((n,), "float32"), C: T.Tensor((n,), "float32")):
        c: T.float32 = T.float32(1.5)
        with T.launch_thread("threadIdx.x", n) as i:
            C[i] = B[i] + c

    return func


@T.function
def doubled_between_launches(
    B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32"), D: T.Tensor((4,), "float32")
):
    c: T.float32 = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 4) as i:
        C[i] = B[i] + c
    c = c * T.float32(2.0)
    with T.launch_thread("threadIdx.x", 4) as i:
        D[i] = B[i] + c


@T.function
def second_kernel_stores(
    B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32"), D: T.Tensor((4,), "float32")
):
    c: T.float32 = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 4) as i:
        C[i] = B[i] + c
    with T.launch_thread("threadIdx.x", 1) as _i:
        c = B[0] * T.float32(2.0)
    with T.launch_thread("threadIdx.x", 4) as i:
        D[i] = B[i] + c


@T.function
def launched_in_host_loop(B: T.Tensor((4,), "float32"), C: T.Tensor((2, 4), "float32")):
    c: T.float32 = T.float32(0.0)
    for k in range(2):
        c = c + T.float32(1.5)
        with T.launch_thread("threadIdx.x", 4) as i:
            C[k, i] = B[i] + c


@T.function
def written_through_view_of_view(B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    v = T.decl_tensor(c.data, ty_args=[T.Tensor((1,), "float32", scope="local")])
    p = T.address_of(v[0])
    w = T.decl_tensor(p, ty_args=[T.Tensor((1,), "float32", scope="local")])
    w[0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 4) as i:
        C[i] = B[i] + c[0]


@T.function
def filled_by_packed_call(B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    T.evaluate(T.call_packed("blind2.fill", c.data))
    with T.launch_thread("threadIdx.x", 4) as i:
        C[i] = B[i] + c[0]


@T.function
def handed_as_tensor(B: T.Tensor((1,), "float32"), D: T.Tensor((1,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    with T.launch_thread("threadIdx.x", 1) as _i:
        c[0] = B[0] * T.float32(2.0)
    T.evaluate(T.call_packed("blind2.copy", c, D))


@T.function
def vector_cell_added(B: T.Tensor((2, 4), "float32"), C: T.Tensor((2, 4), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32x4", scope="local")])
    c[0] = T.Broadcast(T.float32(1.5), 4)
    with T.launch_thread("threadIdx.x", 2) as i:
        C[i, T.Ramp(0, 1, 4)] = B[i, T.Ramp(0, 1, 4)] + c[0]


DEMOS = {
    # the host writes c only through a view of a view: the wrong fix follows views of c alone
    "blind2-views-of-views": Demo(lambda: written_through_view_of_view, compiled("cuda")),
    # the host hands c.data to a packed function: the wrong fix counts no bare pointer as a
    # host use
    "blind2-raw-pointer-not-host-use": Demo(lambda: filled_by_packed_call, compiled("cuda")),
    # VALID: a kernel computes c, the host hands c as a tensor to a packed function: the wrong
    # fix takes the tensor for a host use and rejects the program
    "blind2-tensor-is-host-use": Demo(lambda: handed_as_tensor, compiled("cuda")),
    # a kernel launched inside a host loop that updates c: the wrong fix rewrites only the host
    # body's top-level kernels
    "blind2-top-level-kernels-only": Demo(lambda: launched_in_host_loop, compiled("cuda")),
    # c doubled between two launches: the wrong fix passes the second kernel the initializer
    "blind2-initial-value": Demo(lambda: doubled_between_launches, compiled("cuda")),
    # a one-element float32x4 cell added by a kernel: the wrong fix passes it by value
    "blind2-vector-cell-by-value": Demo(lambda: vector_cell_added, compiled("cuda")),
    # the report's program for Metal: the wrong fix leaves Metal out and keeps c on the device
    "blind2-no-metal": Demo(lambda: report(8), compiled("metal")),
    # the report's program: the wrong fix frees c on the device it allocated on the CPU
    "blind2-free-not-relocated": Demo(lambda: report(4), compiled("cuda")),
    # a second kernel stores into c that a first kernel read: the wrong fix looks at the first
    # kernel use only
    "blind2-first-kernel-use-decides": Demo(lambda: second_kernel_stores, compiled("cuda")),
}

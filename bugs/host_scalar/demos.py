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
"""Programs on which the host scalar's reference fix and each blind wrong fix differ, on apache/tvm
(harness/blind_demo.py; run with scripts/blind_demos.py --bug host_scalar; demos_tirx.py holds
the second round's programs on apache/tvm-tirx).

Each program has a one-element "local" cell ``c`` (or a host array) that the host code writes
and a kernel reads. What is compared: a launch's values on pocl (OpenCL, llvm host), most with
the host's workspace calls before them (on which device the cell lives), or the module after
one pass (SplitHostDevice, LowerTVMBuiltin)."""

import ctypes
import re

import numpy as np
import tvm_ffi

import tvm
from harness.blind_demo import Demo, compile_and_run
from tvm.script import ir as I
from tvm.script import tirx as T

# ------------------------------------------------------------------------------ observers


def cell_calls(host):
    """The host LLVM IR's TVMBackendAllocWorkspace / FreeWorkspace calls for ``c``: their
    (device type, device id) arguments, one line."""
    allocs = re.findall(r"%c\b[\w.]* = (?:tail )?call ptr %[\w.]+\((i32 \w+, i32 %?\w+)", host)
    frees = re.findall(r"call i32 %[\w.]+\((i32 \w+, i32 %?\w+), ptr [\w ]*%c\b", host)
    return f"{[f'alloc({x})' for x in allocs] + [f'free({x})' for x in frees]}\n"


def workspaces(host):
    """The host LLVM IR's workspace allocations, each (device type, device id, bytes)."""
    pattern = r"= (?:tail )?call ptr %[\w.]+\((i32 \d+, i32 [^,]+, i64 \d+)"
    return f"workspaces {re.findall(pattern, host)}; "


def launched(inputs, outputs, host=None):
    """The observer: ``host(the host's LLVM IR)`` when given, then the values of ``outputs``
    after a launch on pocl (OpenCL, llvm host) with ``inputs``."""

    def observe(func):
        text = ""
        if host:
            lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
            text = host(lib.mod.inspect_source("ll"))
        return text + compile_and_run(func, inputs, outputs)

    return observe


def metal_kernel(func):
    """Compiled for Metal (no device here): the kernel's signature and the host's workspace
    calls for ``c``."""
    lib = tvm.compile(func, target=tvm.target.Target("metal", host="llvm"))
    kernel = lib.mod.imports[0].inspect_source()
    start = kernel.index("kernel void")
    signature = " ".join(kernel[start : kernel.index(") {", start) + 1].split())
    return signature + "\n" + cell_calls(lib.mod.inspect_source("ll")).rstrip()


def after(transform, keep, name=None):
    """The observer: the lines of the module (its ``name`` function) after the pass
    ``tvm.tirx.transform.<transform>`` (looked up when it runs: a fix replaces it) that hold one
    of ``keep``, stripped."""

    def observe(mod):
        out = getattr(tvm.tirx.transform, transform)()(mod)
        text = (out[name] if name else out).script()
        return [x.strip() for x in text.splitlines() if any(k in x for k in keep)]

    return observe


# ------------------------------------------------------------------------ packed functions


@tvm_ffi.register_global_func("blind2.fill", override=True)
def _fill(ptr):
    """A host function: it writes 1.5 into the host memory at ``ptr``."""
    address = ptr.value if hasattr(ptr, "value") else int(ptr)
    ctypes.c_float.from_address(address).value = 1.5


@tvm_ffi.register_global_func("blind2.copy", override=True)
def _copy(src, dst):
    """A host function: it copies the tensor ``src`` into ``dst``."""
    src.copyto(dst)


# ------------------------------------------------------------------------------- programs


def report(n):
    """The report's program: the host binds c = 1.5, an ``n``-thread kernel reads it."""

    @T.prim_func
    def func(B: T.Buffer((n,), "float32"), C: T.Buffer((n,), "float32")):
        c: T.float32 = T.float32(1.5)
        for i in T.thread_binding(n, thread="threadIdx.x"):
            C[i] = B[i] + c

    return func


def two_launches(step):
    """The host sets c = 1.5, launches a kernel that reads it, sets c = step(c), and launches a
    second kernel that reads it."""

    @T.prim_func
    def func(
        B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32"), D: T.Buffer((4,), "float32")
    ):
        c: T.float32 = T.float32(1.5)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            C[i] = B[i] + c
        c = step(c)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            D[i] = B[i] + c

    return func


@T.prim_func
def second_kernel_stores(
    B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32"), D: T.Buffer((4,), "float32")
):
    c: T.float32 = T.float32(1.5)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        C[i] = B[i] + c
    for i in T.thread_binding(1, thread="threadIdx.x"):
        c = B[0] * T.float32(2.0)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        D[i] = B[i] + c


@T.prim_func
def launched_in_host_loop(B: T.Buffer((4,), "float32"), C: T.Buffer((2, 4), "float32")):
    c: T.float32 = T.float32(0.0)
    for k in range(2):
        c = c + T.float32(1.5)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            C[k, i] = B[i] + c


@T.prim_func
def written_through_view_of_view(B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    v = T.decl_buffer((1,), "float32", data=c.data)
    p = T.address_of(v[0])
    w = T.decl_buffer((1,), "float32", data=p)
    w[0] = T.float32(1.5)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        C[i] = B[i] + c[0]


@T.prim_func
def filled_by_packed_call(B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    T.evaluate(T.call_packed("blind2.fill", c.data))
    for i in T.thread_binding(4, thread="threadIdx.x"):
        C[i] = B[i] + c[0]


@T.prim_func
def handed_as_tensor(B: T.Buffer((1,), "float32"), D: T.Buffer((1,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    for i in T.thread_binding(1, thread="threadIdx.x"):
        c[0] = B[0] * T.float32(2.0)
    T.evaluate(T.call_packed("blind2.copy", c, D))


@T.prim_func
def vector_cell_added(B: T.Buffer((2, 4), "float32"), C: T.Buffer((2, 4), "float32")):
    c = T.alloc_buffer((1,), "float32x4", scope="local")
    c[0] = T.Broadcast(T.float32(1.5), 4)
    for i in T.thread_binding(2, thread="threadIdx.x"):
        C[i, T.Ramp(0, 1, 4)] = B[i, T.Ramp(0, 1, 4)] + c[0]


@T.prim_func
def vector_cell_stored(C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((1,), "float32x4", scope="local")
    c[0] = T.Broadcast(T.float32(1.5), 4)
    for i in T.thread_binding(2, thread="threadIdx.x"):
        C[T.Ramp(i * 4, 1, 4)] = c[0]


@T.prim_func
def host_array_summed(B: T.Buffer((4,), "float32"), C: T.Buffer((2, 4), "float32")):
    x = T.alloc_buffer((2,), "float32", scope="local")
    x[0] = T.float32(1.0)
    x[1] = T.float32(2.0)
    s: T.float32 = x[0] + x[1]
    for i in T.thread_binding(4, thread="threadIdx.x"):
        C[0, i] = B[i] + s


@T.prim_func
def written_through_view(B: T.Buffer((4,), "float32"), C: T.Buffer((2, 4), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    v = T.decl_buffer((1,), "float32", data=c.data, scope="local")
    v[0] = T.float32(3.0)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        C[0, i] = B[i] + c[0]
        C[1, i] = B[i] * c[0]


@T.prim_func
def read_through_view(B: T.Buffer((4,), "float32"), C: T.Buffer((2, 4), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = T.float32(1.5)
    v = T.decl_buffer((1,), "float32", data=c.data, scope="local")
    for i in T.thread_binding(4, thread="threadIdx.x"):
        C[0, i] = B[i] + v[0]


@T.prim_func
def opencl_annotated_array(n: T.int32):
    T.func_attr({"target": T.target("llvm"), "tirx.is_host_func": 1})
    T.attr(0, "device_id", 0)
    T.attr(0, "device_type", 4)
    x = T.alloc_buffer((n,), "float32", scope="local", annotations={"device_type": 4})
    T.evaluate(T.call_extern("int32", "use", x.data))


@I.ir_module
class PointerToKernel:
    """The host hands the cell's pointer to a module function that opens no thread
    environment."""

    @T.prim_func
    def main(C: T.Buffer((4,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope="local")
        c[0] = T.float32(1.5)
        PointerToKernel.kern(C.data, c.data)

    @T.prim_func(private=True)
    def kern(C_ptr: T.handle("float32"), c_ptr: T.handle("float32")):
        C = T.decl_buffer((4,), "float32", data=C_ptr)
        c = T.decl_buffer((1,), "float32", data=c_ptr)
        C[0] = c[0]


def both_opencl():
    """PointerToKernel, its host function for OpenCL with an llvm host, the kernel for OpenCL."""
    host = tvm.target.Target("opencl", host="llvm")
    device = tvm.target.Target("opencl")
    return tvm.IRModule(
        {
            gvar: func.with_attr("target", host if gvar.name_hint == "main" else device)
            for gvar, func in PointerToKernel.functions.items()
        }
    )


def zeros(*shape):
    return np.zeros(shape, "float32")


ARANGE, ONES = np.arange(4, dtype="float32"), np.ones(4, "float32")

DEMOS = {
    # the host writes c only through a view of a view: the wrong fix follows views of c alone
    "blind2-views-of-views": Demo(
        lambda: written_through_view_of_view,
        launched([ARANGE, zeros(4)], [1], cell_calls),
        opencl=True,
    ),
    # the host hands c.data to a packed function that fills it: the wrong fix counts no bare
    # pointer as a host use, so c stays device memory
    "blind2-raw-pointer-not-host-use": Demo(
        lambda: filled_by_packed_call, launched([ARANGE, zeros(4)], [1], cell_calls), opencl=True
    ),
    # VALID: a kernel computes c, the host hands c as a tensor to a packed function: the wrong
    # fix takes the tensor for a host use and rejects the program
    "blind2-tensor-is-host-use": Demo(
        lambda: handed_as_tensor,
        launched([np.array([1.25], "float32"), zeros(1)], [1]),
        opencl=True,
    ),
    # a kernel launched inside a host loop that updates c: the wrong fix rewrites only the host
    # body's top-level kernels
    "blind2-top-level-kernels-only": Demo(
        lambda: launched_in_host_loop, launched([ARANGE, zeros(2, 4)], [1]), opencl=True
    ),
    # c doubled between two launches: the wrong fix passes the second kernel the initializer
    "blind2-initial-value": Demo(
        lambda: two_launches(lambda c: c * T.float32(2.0)),
        launched([ARANGE, zeros(4), zeros(4)], [1, 2]),
        opencl=True,
    ),
    # a one-element float32x4 cell added by a kernel: the reference rejects it, the wrong fix
    # (blind to lanes) passes it by value
    "blind2-vector-cell-by-value": Demo(
        lambda: vector_cell_added,
        launched([np.arange(8, dtype="float32").reshape(2, 4), zeros(2, 4)], [1]),
        opencl=True,
    ),
    # the report's program for Metal (compiled only): the wrong fix leaves Metal out and keeps
    # c on the device (kDLMetal = 8, a kernel parameter)
    "blind2-no-metal": Demo(lambda: report(8), metal_kernel),
    # the report's program: the wrong fix frees c on the device it allocated on the CPU
    "blind2-free-not-relocated": Demo(
        lambda: report(4), launched([ARANGE, zeros(4)], [1], cell_calls), opencl=True
    ),
    # a second kernel stores into c that a first kernel read: the reference rejects it, the
    # wrong fix looks at the first kernel use only
    "blind2-first-kernel-use-decides": Demo(
        lambda: second_kernel_stores,
        launched([np.arange(1, 5, dtype="float32"), zeros(4), zeros(4)], [1, 2]),
        opencl=True,
    ),
    # c increased between two launches: the wrong fix passes the second kernel the initializer
    "blind3-launch-value-initial": Demo(
        lambda: two_launches(lambda c: c + T.float32(2.0)),
        launched([ONES, zeros(4), zeros(4)], [1, 2]),
        opencl=True,
    ),
    # the host writes c only through a view at c.data: the wrong fix counts no view's store as
    # a use of c, so c stays device memory
    "blind3-host-view-not-host-use": Demo(
        lambda: written_through_view, launched([ONES, zeros(2, 4)], [1], workspaces), opencl=True
    ),
    # a kernel reads c through a view declared on the host: the reference rejects it, the wrong
    # fix passes the view's host pointer
    "blind3-kernel-view-as-value": Demo(
        lambda: read_through_view, launched([ONES, zeros(2, 4)], [1], workspaces), opencl=True
    ),
    # the host hands c.data to an OpenCL module function that opens no thread environment (a
    # kernel all the same): the reference rejects it, the wrong fix takes it for a host call
    "blind3-launched-thread-env-only": Demo(
        both_opencl, after("SplitHostDevice", (" = T.", "kern"), "main")
    ),
    # a host array x[2] summed into a value that a kernel reads: the wrong fix classifies
    # one-element buffers only and leaves x in device memory
    "blind3-array-not-candidate": Demo(
        lambda: host_array_summed, launched([ONES, zeros(2, 4)], [1], workspaces), opencl=True
    ),
    # LowerTVMBuiltin, an allocation annotated device_type = 4 (kDLOpenCL): the reference
    # rejects it (only kDLCPU), the wrong fix allocates it on the CPU
    "blind3-any-device-type": Demo(
        lambda: tvm.IRModule({"main": opencl_annotated_array}),
        after("LowerTVMBuiltin", ("Workspace",)),
    ),
    # a one-element float32x4 cell stored whole by a kernel: the reference rejects it, the wrong
    # fix makes it a float32x4 parameter, which the runtime cannot pass
    "blind3-vector-as-value": Demo(
        lambda: vector_cell_stored, launched([zeros(8)], [0]), opencl=True
    ),
}

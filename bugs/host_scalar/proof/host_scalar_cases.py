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
"""Host-level scalar cases shared by the proof tests and their GPU child process.

Every case is ``main(B, C, x)`` for cuda with a dtype from DTYPES (the scalar types the CUDA
runtime can pass to a kernel: src/runtime/pack_args.h) and computes, with ``v0``/``v1`` the
dtype's constants of VALUES:

* ``cell`` (bug):        ``c: ty = v0``, then a kernel ``C = B + c``
* ``reassigned`` (bug):  ``c: ty = x``, kernel 1 ``B = B + c``, ``c = c + v1``, kernel 2
  ``C = B + c``: each launch must see the value the cell holds at that launch
* ``nested`` (bug):      ``c: ty = x`` declared inside a host ``for`` and ``if``, then a kernel
  ``C = B + c`` there (runs once)
* ``let`` (control):     ``c: T.let[ty] = x + v0`` (not foldable), then ``C = B + c``
* ``param`` (control):   ``C = B + x``
* ``kernel_cell`` (control): the cell is declared inside the kernel
* ``global`` (control):  a one-element global buffer written by kernel 1 (one thread) and read
  by kernel 2: device memory, passed by pointer
* ``kernel_shared`` (control): the same with a host-level ``local`` cell that only the
  kernels use (the host never touches it): device memory shared by the kernels, as today
* ``host_view`` (control): the same, the kernels reaching the cell through a view that the
  host code declares (``data=c.data``, as StorageRewrite writes when it merges allocations):
  declaring a view is no host access, so this too stays device memory, as today
* ``host_array`` (bug):   a host array ``x: ty[4]`` that only the host uses, its element passed
  on with ``T.let``: host memory
* ``big_array`` (bug):    the same with 300 elements (1 KiB or more at every dtype)
* ``symbolic`` (bug):     the same with ``n`` elements, ``n`` the (symbolic) length of B
* ``module_<pointer>`` (control): ``kernel_shared`` with its two kernels written as module
  functions that ``main`` calls, the cell's pointer handed to them as ``pointer`` says:
  ``data`` (``c.data``), ``address_of`` (``T.address_of(c[0])``), ``view`` (a view's data),
  ``let`` (a pointer bound with ``T.let``), ``match_buffer`` (a buffer an S-TIR block matches
  to ``c``), ``loop`` (``c.data``, the calls inside a host ``for`` and ``if``): a call the
  host launches is a kernel's use, so this too stays device memory, as today
* ``written``, ``address``, ``indexed`` (bug, rejected): the host stores into a cell or an array
  ``a`` that a kernel stores into, takes the address of, or indexes: a ValueError at compile
  time

On 0.27 the plain ``c = v`` spelling parses exactly like ``c: ty = v``
(test_host_scalar_lowering.py checks it), so the cases use the annotated one only.
"""

import sys
from pathlib import Path

import numpy as np
import tvm_ffi

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

# the repository root, for harness/ (scripts/device_runs.py imports this module by its folder)
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from harness import kernel_scalars

N = kernel_scalars.N
DTYPES = ["float32", "float64", "int32", "int64", "uint32"]
# dtype -> (v0, v1, x): non-zero, exact in every dtype, and all different
VALUES = {
    "float32": (1.5, 2.5, 3.0),
    "float64": (1.5, 2.5, 3.0),
    "int32": (5, 7, 3),
    "int64": (5, 7, 3),
    "uint32": (5, 7, 3),
}
C_TYPES = {
    "float32": "float",
    "float64": "double",
    "int32": "int",
    "int64": "int64_t",
    "uint32": "uint",
}
BUG_CASES = ("cell", "reassigned", "nested", "host_array", "big_array", "symbolic")
# how main hands the cell to kernels written as module functions (the module_* cases)
MODULE_POINTERS = ("data", "address_of", "view", "let", "match_buffer", "loop")
MODULE_CASES = tuple(f"module_{pointer}" for pointer in MODULE_POINTERS)
CONTROL_CASES = ("let", "param", "kernel_cell", "global", "kernel_shared", "host_view")
# what only kernels use: device memory that the kernels share
KERNEL_SHARED = ("global", "kernel_shared", "host_view")
REJECTED = {
    "written": "stores into `c`",
    "address": "takes the address of `c`",
    "indexed": "loads an element of `a`",
}
RUNNABLE = BUG_CASES + CONTROL_CASES


def _module_case(pointer, dtype, target, host_store=False):
    """``module_<pointer>``: kernel 1 writes ``c[0] = B[0] + x``, kernel 2 ``C = B + c[0]``,
    both module functions of ``target`` that main calls with a pointer to its cell; with
    ``host_store`` main also stores ``x`` into the cell first. float32 only: the pointer forms
    are the dimension here (and a scalar parameter's annotation cannot be a closure variable
    in an I.ir_module class)."""
    if dtype != "float32":
        raise ValueError(f"the module_* cases are float32 only, not {dtype}")
    kernel_target = T.target(target)

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: T.float32):
            c = T.alloc_local((1,), dtype)
            if host_store:
                c[0] = x
            if pointer == "view":
                v = T.decl_buffer((1,), dtype, data=c.data, scope="local")
                Module.write(B.data, v.data, x)
                Module.read(B.data, C.data, v.data)
            elif pointer == "let":
                p: T.let[T.handle(dtype, "local")] = c.data
                Module.write(B.data, p, x)
                Module.read(B.data, C.data, p)
            elif pointer == "address_of":
                Module.write(B.data, T.address_of(c[0]), x)
                Module.read(B.data, C.data, T.address_of(c[0]))
            elif pointer == "match_buffer":
                with T.sblock("matched"):
                    T.reads(c[0:1])
                    T.writes(c[0:1])
                    m = T.match_buffer(c[0:1], (1,), dtype, scope="local")
                    Module.write(B.data, m.data, x)
                    Module.read(B.data, C.data, m.data)
            elif pointer == "loop":
                for j in range(2):
                    if j == 1:
                        Module.write(B.data, c.data, x)
                        Module.read(B.data, C.data, c.data)
            else:
                Module.write(B.data, c.data, x)
                Module.read(B.data, C.data, c.data)

        @T.prim_func(private=True, s_tir=True)
        def write(B_data: T.handle(dtype), c_data: T.handle(dtype, "local"), x: T.float32):
            T.func_attr({"target": kernel_target})
            B = T.decl_buffer((N,), dtype, data=B_data)
            c = T.decl_buffer((1,), dtype, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 1)
            c[0] = B[i] + x

        @T.prim_func(private=True, s_tir=True)
        def read(
            B_data: T.handle(dtype), C_data: T.handle(dtype), c_data: T.handle(dtype, "local")
        ):
            T.func_attr({"target": kernel_target})
            B = T.decl_buffer((N,), dtype, data=B_data)
            C = T.decl_buffer((N,), dtype, data=C_data)
            c = T.decl_buffer((1,), dtype, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", N)
            C[i] = B[i] + c[0]

    return Module


def make(case, dtype, target="cuda"):
    """The IRModule of ``case`` at ``dtype``; ``target``: the target of the kernels a case
    writes as module functions (the others get theirs from ``tvm.compile``)."""
    ty = getattr(T, dtype)
    v0, v1, _ = VALUES[dtype]
    if case in MODULE_CASES:
        return _module_case(case[len("module_") :], dtype, target)
    if case in ("cell", "let", "param"):  # a kernel reading a scalar, spelled as the case says
        value = (lambda x: ty(v0)) if case == "cell" else (lambda x: x + ty(v0))
        return kernel_scalars.scalar_read_by_kernel(dtype, case, value)
    if case == "reassigned":

        @T.prim_func
        def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: ty):
            c: ty = x
            for i in T.thread_binding(N, thread="threadIdx.x"):
                B[i] = B[i] + c
            c = c + ty(v1)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + c

    elif case == "nested":

        @T.prim_func
        def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: ty):
            for j in range(2):
                if j == 1:
                    c: ty = x
                    for i in T.thread_binding(N, thread="threadIdx.x"):
                        C[i] = B[i] + c

    elif case == "kernel_cell":

        @T.prim_func
        def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: ty):
            for i in T.thread_binding(N, thread="threadIdx.x"):
                c: ty = B[i]
                c = c + x
                C[i] = c

    elif case in KERNEL_SHARED:  # kernel 1 writes the one element, kernel 2 reads it

        @T.prim_func
        def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: ty):
            if case == "global":
                acc = T.alloc_buffer((1,), dtype)
                v = T.meta_var(acc)  # the same buffer under another Python name, not renamed
            else:
                c = T.alloc_local((1,), dtype)
                if case == "host_view":
                    v = T.decl_buffer((1,), dtype, data=c.data, scope="local")
                else:
                    v = T.meta_var(c)
            for i in T.thread_binding(1, thread="threadIdx.x"):
                v[0] = B[0] + x
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + v[0]

    elif case in ("host_array", "big_array", "symbolic"):
        n = T.int32()  # the symbolic length of B
        size = {"host_array": 4, "big_array": 300}.get(case, n)

        @T.prim_func
        def main(
            B: T.Buffer((n if case == "symbolic" else N,), dtype),
            C: T.Buffer((N,), dtype),
            x: ty,
        ):
            a = T.alloc_local((size,), dtype)
            a[0] = x
            a[size - 1] = a[0] + ty(v0)
            s: T.let[ty] = a[size - 1]
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + s

    elif case == "written":

        @T.prim_func
        def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: ty):
            c: ty = x
            for i in T.thread_binding(N, thread="threadIdx.x"):
                c = c + B[i]
                C[i] = B[i]

    elif case == "address":

        @T.prim_func
        def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: ty):
            c: ty = x
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + T.call_extern(dtype, "load", T.address_of(c))

    elif case == "indexed":

        @T.prim_func
        def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: ty):
            a = T.alloc_local((N,), dtype)
            a[0] = x
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + a[i]

    else:
        raise ValueError(f"unknown case {case!r}")
    return tvm.IRModule({"main": main})


def inputs(dtype):
    """(B, C, x) as numpy arrays and a Python scalar."""
    b = np.arange(N).astype(dtype)
    return b, np.zeros(N, dtype=dtype), VALUES[dtype][2]


def expected(case, dtype):
    """(B, C) after running ``case`` on ``inputs(dtype)``, computed with numpy."""
    b, c, x = inputs(dtype)
    v0, v1, _ = VALUES[dtype]
    x, v0, v1 = (np.array(v, dtype=dtype) for v in (x, v0, v1))
    if case == "cell":
        return b, b + v0
    if case == "reassigned":
        b2 = b + x
        return b2, b2 + (x + v1)
    if case == "let":
        return b, b + (x + v0)
    if case in ("param", "kernel_cell", "nested"):
        return b, b + x
    if case in KERNEL_SHARED + MODULE_CASES:
        return b, b + (b[0] + x)
    if case in ("host_array", "big_array", "symbolic"):
        return b, b + (x + v0)
    raise ValueError(f"case {case!r} is not run")


def workspace_devices(mod):
    """[(device type, device id)] of every TVMBackendAllocWorkspace call in ``mod["main"]``
    (LowerTVMBuiltin's output)."""
    found = []

    def visit(node):
        if isinstance(node, tvm.ir.Call) and node.op.name == "tirx.TVMBackendAllocWorkspace":
            found.append(tuple(int(a.value) for a in node.args[:2]))

    tvm_ffi.structural_walk(mod["main"].body, visit, order="pre")
    return found


def run_on_cuda(lib, dtype):
    """Call ``lib["main"]`` on cuda(0) with ``inputs(dtype)``; return (B, C) as numpy."""
    return kernel_scalars.call_on_cuda(lib, *inputs(dtype))


kernel_signatures = kernel_scalars.kernel_signatures

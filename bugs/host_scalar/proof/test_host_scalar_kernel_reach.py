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
"""Every way a kernel is reached, crossed with every way the host hands it a host-level
buffer (this repository only; the fourth review's miscompile and its neighbours).

A ``local`` buffer of the host code that only kernels use is device memory that they share,
as in released TVM; a kernel reached through a call of the module function it is written as
(by GlobalVar, or by its symbol in a launch that is already lowered), from host control flow,
of a second device target or without a thread environment, is a kernel like a ``target``
region, and the pointer the host hands it is a kernel's use. The fix must compile each of
these exactly as released TVM does (SplitHostDevice's output, compared structurally), and
reject the ones whose host code also uses the buffer. The OpenCL launches of the
``module_*`` cases are scripts/device_runs.py's rows (tests/proof/test_device_runs.py).
"""

import sys
from pathlib import Path

import pytest
import tvm_ffi

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
import host_scalar_cases as cases

from harness import pass_records

HOST = T.target("cuda", host="llvm")
LAUNCH = "tirx.call_ffi_kernel"
REASON = "host-level scalar: released TVM leaves a buffer the host uses in device memory"
# released TVM: no ValueError, the host allocating the buffer on the device
_NOT_REJECTED = pytest.mark.xfail(strict=True, raises=pytest.fail.Exception, reason=REASON)


def _split(mod, released=False):
    """SplitHostDevice's output for ``mod`` inside ``tvm.compile`` for cuda (host llvm), the
    passes before it included (S-TIR blocks and match_buffer are lowered there)."""
    from bugs.host_scalar import reference_fix as fix

    def compile_():
        # stopped right after SplitHostDevice: what follows it is not compared
        _, split = pass_records.compile_recording(
            mod, HOST, "tirx.SplitHostDevice", after=True, stop=True
        )
        return split[-1]

    if released:
        with fix.unfixed():
            return compile_()
    return compile_()


def _symbol_launch():
    """main launches an already lowered kernel by its symbol and a ``target`` region reads the
    cell the kernel writes."""

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            c = T.alloc_local((1,), "float32")
            T.call_ffi_kernel("fill", c.data, 1, launch_params=["threadIdx.x"])
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = c[0]

        @T.prim_func(s_tir=True)
        def fill(c_data: T.handle("float32", "local")):
            T.func_attr(
                {
                    "target": T.target("cuda"),
                    "calling_conv": 2,
                    "tirx.kernel_launch_params": ["threadIdx.x"],
                    "tirx.is_global_func": True,
                    "global_symbol": "fill",
                }
            )
            c = T.decl_buffer(1, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 1)
            c[i] = T.float32(1)

    return Module


def _no_thread_env():
    """main calls a cuda module function that opens no thread environment: a launch all the
    same (its device is not the host's)."""

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            c = T.alloc_local((1,), "float32")
            Module.fill(c.data)
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = c[0]

        @T.prim_func(private=True, s_tir=True)
        def fill(c_data: T.handle("float32", "local")):
            T.func_attr({"target": T.target("cuda")})
            c = T.decl_buffer(1, data=c_data, scope="local")
            c[0] = T.float32(1)

    return Module


PROGRAMS = {
    **{case: (lambda case=case: cases.make(case, "float32")) for case in cases.MODULE_CASES},
    # the kernels of a second device target (the function's own is cuda)
    **{
        f"vulkan_{case}": (lambda case=case: cases.make(case, "float32", target="vulkan"))
        for case in ("module_data", "module_view")
    },
    "symbol_launch": _symbol_launch,
    "no_thread_env": _no_thread_env,
}


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_kernel_only_buffer_compiles_as_released(program):
    """A local buffer that only kernels use, however they are reached, is left as released TVM
    leaves it: device memory, its pointer passed to each kernel."""
    mod = PROGRAMS[program]()
    tvm.ir.assert_structural_equal(_split(mod), _split(mod, released=True))


@_NOT_REJECTED
@pytest.mark.parametrize(
    "pointer, message",
    [
        ("data", "uses the pointer of"),
        ("address_of", "takes the address of"),
        ("view", "uses the pointer of"),  # the pipeline resolves the view before the split
        ("let", "uses a view of"),
        ("loop", "uses the pointer of"),
    ],
)
def test_module_kernel_given_host_memory_is_rejected(pointer, message):
    """A module kernel that gets the pointer of a buffer the host code stores into is an
    error naming the buffer, as a ``target`` region that uses it is."""
    mod = cases._module_case(pointer, "float32", "cuda", host_store=True)
    with pytest.raises(ValueError, match=f"A kernel {message} `c`"):
        _split(mod)


def _cell_value_to_module_kernel(writer):
    """main hands the value of its cell (``c[0]``) to a module kernel ``add``; ``writer``: who
    writes the cell first, a ``target`` region (``"kernel"``) or the host (``"host"``)."""

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32"), x: T.float32):
            c = T.alloc_local((1,), "float32")
            if writer == "kernel":
                with T.attr(T.target("cuda"), "target", 0):
                    i = T.launch_thread("threadIdx.x", 1)
                    c[0] = A[i]
            else:
                c[0] = x
            Module.add(A.data, c[0])

        @T.prim_func(private=True, s_tir=True)
        def add(A_data: T.handle("float32"), x: T.float32):
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer(8, data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + x

    return Module


@_NOT_REJECTED
def test_load_in_launch_arguments_is_a_host_use():
    """The host evaluates a launch's arguments: loading a buffer there is a use of the host
    code, so a buffer that a kernel writes and the host reads for a launch is rejected (not
    left in device memory that the host would read)."""
    with pytest.raises(ValueError, match="A kernel stores into `c`"):
        _split(_cell_value_to_module_kernel("kernel"))


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=REASON)
def test_value_of_host_memory_reaches_a_module_kernel():
    """A buffer the host stores into and passes by value (``c[0]``) to a module kernel is host
    memory, and the launch passes the value."""
    found = []

    def visit(node):
        if isinstance(node, tvm.tirx.AllocBuffer):
            found.append({k: int(v) for k, v in node.annotations.items()})
        if isinstance(node, tvm.ir.expr.Call) and getattr(node.op, "name", "") == LAUNCH:
            found.append(type(node.args[2]).__name__)

    module = _split(_cell_value_to_module_kernel("host"))
    tvm_ffi.structural_walk(module["main"].body, visit, order="pre")
    assert found == [{"device_type": 1}, "TensorLoad"]

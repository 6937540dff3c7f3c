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
"""A host-level ``local`` buffer that a call receives as a tensor (this repository only).

``T.call_packed("f", z)`` makes a tensor of ``z`` (``tvm_stack_make_array``), which
LowerTVMBuiltin describes as memory of the function's device, as it describes a parameter
buffer handed to a call. Patch 0002 keeps such a buffer device memory, as released TVM does;
the upstream test pins it once (a buffer only the tensor uses, beside host memory, on opencl;
test_host_scalar_split_host_device.py runs it on every other device runtime). Here:

* SplitHostDevice, for every form of the tensor's data (the buffer, a view over ``z.data``,
  ``T.address_of(z[0])``, a pointer bound with ``T.let``), with no kernel, a kernel that
  reads the buffer and one that writes it: the allocation stays unannotated (device memory);
* the host code also stores into the buffer, loads it or hands its pointer to a call: a
  ValueError naming the buffer (the tensor would describe host memory as device memory);
* compiled for cuda and for opencl (llvm host): the workspace that holds the buffer and the
  tensor the call receives name the same device type and id;
* run on OpenCL (on CUDA where there is a GPU), in a child process: a packed function
  registered in Python fills the buffer through its tensor, a kernel copies it out, another
  packed function reads it back: each callee sees a tensor of the device, and the data are what
  the first one wrote. (Where a fix makes the buffer CPU memory and the tensor still says
  OpenCL, the runtime reads that memory as an OpenCL buffer descriptor: what happens then
  depends on what the memory holds, so the compile-level check above is the one that tells such
  a fix apart every time.)
"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tvm_ffi

import tvm
import tvm.testing
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the child: `python FILE --child`
from harness import pass_records

ROOT = Path(__file__).resolve().parents[3]
REASON = "host-level scalar on the device"
FORMS = ["buffer", "data-view", "address_of", "let"]
KDLTENSOR_DATA, KDLTENSOR_DEVICE_ID, KDLTENSOR_DEVICE_TYPE = 1, 9, 10  # builtin.h
FILLED = [1.5, 2.5, 3.5, 4.5]
SKIP_OPENCL = pytest.mark.skipif(not tvm.testing.env.has_opencl(), reason="need opencl")
HAS_CUDA = tvm.testing.env.has_cuda()
# LowerTVMBuiltin, and the reference fix's pass that wraps it (its output the later one)
LOWER_TVM_BUILTIN = ("tirx.LowerTVMBuiltin", "reference_fixes.LowerTVMBuiltin")


class NotRejected(AssertionError):
    """A buffer that the host uses and a call receives as a tensor compiles without an error."""


def _program(form, kernel="none", host_use=None, target="cuda"):
    """main(A): ``z``, a local float32[4] of the host code, made a tensor for ``fill`` in
    ``form``; ``kernel``: a kernel that reads ``z`` into ``A``, writes ``A`` into it, or
    leaves it alone; ``host_use``: how the host code also uses ``z`` first, if it does."""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(4, "float32")):
        T.func_attr({"target": T.target(target, host="llvm")})
        z = T.alloc_local((4,), "float32")
        if host_use == "store":
            z[0] = T.float32(1.5)
        elif host_use == "load":
            A[0] = z[0]
        elif host_use == "pointer":
            T.call_extern("int32", "fill_raw", z.data)
        if form == "buffer":
            T.call_packed("fill", z)
        elif form == "data-view":
            v = T.decl_buffer((4,), "float32", data=z.data, scope="local")
            T.call_packed("fill", v)
        elif form == "address_of":
            T.call_packed(
                "fill",
                T.tvm_stack_make_array(
                    T.address_of(z[0]), T.tvm_stack_make_shape(4), 0, 1, T.float32(0), 0
                ),
            )
        else:
            p: T.let[T.handle("float32", "local")] = z.data
            w = T.decl_buffer((4,), "float32", data=p, scope="local")
            T.call_packed("fill", w)
        with T.attr(T.target(target), "target", 0):
            i = T.launch_thread("threadIdx.x", 4)
            if kernel == "reads":
                A[i] = z[i]
            elif kernel == "writes":
                z[i] = A[i]
            else:
                A[i] = T.float32(0)

    return tvm.IRModule({"main": main})


def _annotations_of_local_allocations(func):
    """{name: annotations} of the local allocations of ``func``."""
    found = {}

    def visit(node):
        if isinstance(node, tvm.tirx.AllocBuffer) and node.buffer.scope() == "local":
            found[node.buffer.name] = dict(node.annotations)

    tvm_ffi.structural_walk(func.body, visit, order="pre")
    return found


@pytest.mark.parametrize("kernel", ["none", "reads", "writes"])
@pytest.mark.parametrize("form", FORMS)
def test_tensor_of_a_local_buffer_stays_device_memory(form, kernel):
    """A local buffer that only a call's tensor (and kernels) use is left device memory"""
    after = tvm.tirx.transform.SplitHostDevice()(_program(form, kernel))
    assert _annotations_of_local_allocations(after["main"]) == {"z": {}}


@pytest.mark.xfail(strict=True, raises=NotRejected, reason=REASON)
@pytest.mark.parametrize("host_use", ["store", "load", "pointer"])
@pytest.mark.parametrize("form", FORMS)
def test_host_use_of_a_tensor_buffer_is_rejected(form, host_use):
    """A buffer the host uses and a call receives as a tensor is a ValueError naming it"""
    mod = _program(form, host_use=host_use)
    try:
        tvm.tirx.transform.SplitHostDevice()(mod)
    except ValueError as err:
        assert "A call receives `z` as a tensor" in str(err)
        assert "`z.data` if the callee works on host memory" in str(err)
        return
    raise NotRejected(form, host_use)


def _after_lower_tvm_builtin(mod, target):
    """The module right after LowerTVMBuiltin (the reference fix's wrapper, where installed)."""
    _, seen = pass_records.compile_recording(
        mod, tvm.target.Target(target, host="llvm"), LOWER_TVM_BUILTIN, after=True
    )
    return seen[-1]


def _tensors_and_workspaces(mod):
    """([(data, device type, device id)] of each tensor the host fills in, {buffer:
    (device type, device id)} of each buffer a TVMBackendAllocWorkspace call holds)."""
    fields, workspaces = {}, {}

    def visit(node):
        if isinstance(node, tvm.tirx.DeclBuffer) and isinstance(node.data, tvm.ir.Call):
            if node.data.op.name == "tirx.TVMBackendAllocWorkspace":
                workspaces[node.buffer] = tuple(node.data.args[:2])
        if isinstance(node, tvm.ir.Call) and node.op.name == "tirx.tvm_struct_set":
            array, index, field, value = node.args
            fields.setdefault((array, int(index.value)), {})[int(field.value)] = value

    for func in mod.functions.values():
        tvm_ffi.structural_walk(func.body, visit, order="pre")
    tensors = [
        (f[KDLTENSOR_DATA], f[KDLTENSOR_DEVICE_TYPE], f[KDLTENSOR_DEVICE_ID])
        for f in fields.values()
        if KDLTENSOR_DATA in f
    ]
    return tensors, workspaces


@pytest.mark.parametrize("target", ["cuda", "opencl"])
def test_workspace_and_tensor_name_one_device(target):
    """The tensor a call receives describes the device where the buffer's workspace is"""
    lowered = _after_lower_tvm_builtin(_program("buffer", target=target), target)
    tensors, workspaces = _tensors_and_workspaces(lowered)
    assert len(tensors) == 1 and len(workspaces) == 1
    (data, device_type, device_id), (buffer, workspace) = tensors[0], *workspaces.items()
    assert data.op.name == "tirx.buffer_data" and data.args[0].same_as(buffer)
    tvm.ir.assert_structural_equal((device_type, device_id), workspace)


def _child(target, kernel):
    """In the child: run the ``buffer`` program on device 0 of ``target`` with callees that
    fill ``z`` through its tensor and read it back; print what they saw and ``A``."""
    if target == "opencl":
        sys.path.insert(0, str(ROOT / "scripts"))
        import opencl_runtime

        opencl_runtime.load()
    seen = []

    @tvm_ffi.register_global_func("fill", override=True)
    def fill(tensor):
        seen.append(("fill", str(tensor.device)))
        tensor.copyfrom(np.array(FILLED, "float32"))

    @tvm_ffi.register_global_func("show", override=True)
    def show(tensor):
        seen.append(("show", str(tensor.device), tensor.numpy().tolist()))

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(4, "float32")):
        T.func_attr({"target": T.target(target, host="llvm")})
        z = T.alloc_local((4,), "float32")
        T.call_packed("fill", z)
        with T.attr(T.target(target), "target", 0):
            i = T.launch_thread("threadIdx.x", 4)
            if kernel == "reads":
                A[i] = z[i]
            else:
                A[i] = T.float32(0)
        T.call_packed("show", z)

    lib = tvm.compile(tvm.IRModule({"main": main}), target=target)
    a = tvm.runtime.tensor(np.full(4, -1, "float32"), device=tvm.device(target, 0))
    lib["main"](a)
    print(json.dumps({"seen": seen, "A": a.numpy().tolist()}), flush=True)


@pytest.mark.gpu
@pytest.mark.parametrize("kernel", ["none", "reads"])
@pytest.mark.parametrize(
    "target",
    [
        pytest.param("opencl", marks=SKIP_OPENCL),
        pytest.param("cuda", marks=pytest.mark.skipif(not HAS_CUDA, reason="need cuda")),
    ],
)
def test_callees_see_a_device_tensor_of_the_data(target, kernel):
    """Each callee sees a tensor of the device whose data are what the first callee wrote"""
    proc = subprocess.run(
        [sys.executable, __file__, "--child", target, kernel],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.splitlines()[-1])
    device = f"{target}:0"
    assert report["seen"] == [["fill", device], ["show", device, FILLED]]
    assert report["A"] == (FILLED if kernel == "reads" else [0.0] * 4)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3])

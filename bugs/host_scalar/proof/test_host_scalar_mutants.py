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
"""Rules of the host-level scalar fix that only mutants of its reference fix got wrong (proof only).

Each test here pins a rule that a mutant of bugs/host_scalar/reference_fix.py
(scripts/mutants.py) broke while every other test passed.

LowerTVMBuiltin's stack rule for host memory of a vector dtype: a mutant that computes an
element's bytes as ``bits / lanes`` instead of ``bits * lanes`` survived, every other
allocation being of a scalar dtype, where the two agree. The rule (S3, as on kDLCPU): a
``global`` allocation that SplitHostDevice marked as host memory stays on the stack when its
constant size is below ``runtime::kMaxStackAlloca`` (1024 bytes), else it is
``TVMBackendAllocWorkspace(1, 0, ...)``. For a vector dtype the size counts every lane: 64
elements of float32x4 are 1024 bytes, a workspace; 63 stay on the stack.

SplitHostDevice's classification (S1) at its edges: a kernel's load is by value only for the
element at index 0 of a buffer of one constant element (not of zero or a dynamic number of
elements, nor past the element); a rejection names how the kernel uses the buffer whichever
host buffer it is; a buffer only kernels use stays device memory after host cells; the index
a host view's address is computed from is a host load; a host cell nothing accesses is host
memory; a call of a CPU module function without a thread environment is no launch; a
module function without a target hides no kernel listed after it; a kernel's load of a vector
cell, of fixed or scalable lanes, is rejected with the advice to bind each lane (a scalable
vector's lane count is negative, below 1); and a view over a pointer bound to a pointer is
traced to its buffer however many views of other buffers come before it. And both wrapped passes
keep TVM's opt level 0: a Sequential under opt level -1 skips them. LowerTVMBuiltin (S3)
beside host memory leaves a workspace free the host code writes itself and an allocation
marked ``disable_lower_builtin`` as written, and lowers a function with neither a target nor
a host mark as TVM's pass does.
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

CUDA = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
KDLCPU = 1
HOST = {"device_type": KDLCPU}  # what SplitHostDevice puts on host memory
REASON = "host-level scalar cell of a cuda host function becomes a device workspace"


class HostMemoryOnDevice(AssertionError):
    """An allocation marked as host memory is not where the CPU rule puts it."""


def host_allocation(dtype, extent):
    """A cuda host function (device id 1) with a ``global`` allocation marked host memory"""
    lanes = tvm_ffi.dtype(dtype).lanes
    value = T.Broadcast(tvm.tirx.const(1.5, dtype.split("x")[0]), lanes)

    @I.ir_module
    class Before:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": CUDA, "tirx.is_host_func": True})
            T.attr("default", "device_id", 1)
            c = T.alloc_buffer((extent,), dtype, scope="global", annotations=HOST)
            c[0] = value

    return Before


@pytest.mark.xfail(strict=True, raises=HostMemoryOnDevice, reason=REASON)
@pytest.mark.parametrize(
    "dtype, extent, on_stack",
    [("float32x4", 63, True), ("float32x4", 64, False), ("float16x2", 256, False)],
)
def test_vector_host_memory_is_sized_by_all_its_lanes(dtype, extent, on_stack):
    """Host memory of a vector dtype is a CPU workspace from 1024 bytes on, lanes counted."""
    after = tvm.tirx.transform.LowerTVMBuiltin()(host_allocation(dtype, extent))
    devices = cases.workspace_devices(after)
    if devices != ([] if on_stack else [(KDLCPU, 0)]):
        raise HostMemoryOnDevice(f"{dtype} x {extent}: workspaces {devices}")


# ---------------------------------------------------------------------------------------------
# S1's classification at the edges the other proof files leave out (each pins a rule that a
# mutant of the reference fix got wrong while every other test passed)

HOST_TARGET = T.target("cuda", host="llvm")
# released TVM: no ValueError, the host allocating the buffer on the device
NOT_REJECTED = pytest.mark.xfail(strict=True, raises=pytest.fail.Exception, reason=REASON)
# released TVM: the host's buffer without the host memory annotation
NOT_ANNOTATED = pytest.mark.xfail(strict=True, raises=ValueError, reason=REASON)


class HostCellNotMarked(AssertionError):
    """A host cell that kernels read by value is not marked host memory."""


NOT_MARKED = pytest.mark.xfail(strict=True, raises=HostCellNotMarked, reason=REASON)


def _kernel_attrs():
    """The attributes SplitHostDevice gives a cuda kernel launched over threadIdx.x."""
    return {
        "target": T.target("cuda"),
        "calling_conv": 2,
        "tirx.kernel_launch_params": ["threadIdx.x"],
        "tirx.is_global_func": True,
        "tirx.noalias": True,
    }


def _split(mod):
    return tvm.tirx.transform.SplitHostDevice()(mod)


@NOT_REJECTED
@pytest.mark.parametrize(
    "shape, index",
    [
        *[((0,), (0,)), ("n", (0,)), ((1,), (1,)), ((1, 1), (0, 1)), ((1,), (-1,))],
        *[((1, 1), (0, -1)), ((1,), lambda i: (i // 8,)), ((1, 1), lambda i: (i // 8, 0))],
    ],
    ids=[
        "zero-extent",
        "dynamic-extent",
        "cell-past-its-element",
        "2d-cell-past-its-element",
        "cell-before-its-element",
        "2d-cell-before-its-element",
        "cell-at-a-computed-index",
        "2d-cell-at-a-computed-index",
    ],
)
def test_kernel_load_of_no_single_element_is_rejected(shape, index):
    """Only the element at index 0 of a buffer of one constant element is passed by value"""
    at = index if callable(index) else lambda _: index  # a computed index (0 here) is no 0

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), n: T.int32):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_local((n,) if shape == "n" else shape, "float32")
        c[(0,) * len(shape) if shape != "n" else 0] = T.float32(0)
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = c[at(i)]

    with pytest.raises(ValueError, match="A kernel loads an element of `c`.*T.let"):
        _split(tvm.IRModule({"main": main}))


@pytest.mark.parametrize("scope", ["shared", "warp"])
def test_host_buffer_of_another_scope_is_split_as_released(scope):
    """Only a "local" buffer of the host code is classified: one of another scope is as released"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), x: T.float32):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_buffer((1,), "float32", scope=scope)
        c[0] = x
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = c[0]

    mod = tvm.IRModule({"main": main})
    released = tvm_ffi.get_global_func("tirx.transform.SplitHostDevice")
    tvm.ir.assert_structural_equal(_split(mod), released()(mod))


@NOT_REJECTED
@pytest.mark.parametrize("symbol", ["fill", "fill_symbol"], ids=["name", "global-symbol"])
@pytest.mark.parametrize("launch", ["call_ffi_kernel", "call_packed"])
def test_kernel_launched_by_symbol_with_the_pointer_first_is_rejected(launch, symbol):
    """A launch naming a kernel by its global symbol hands it the host cell's pointer first"""
    attrs = {**_kernel_attrs(), "global_symbol": symbol}

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(x: T.float32):
            T.func_attr({"target": HOST_TARGET})
            c = T.alloc_local((1,), "float32")
            c[0] = x
            if launch == "call_ffi_kernel":
                T.call_ffi_kernel(symbol, c.data, 1, launch_params=["threadIdx.x"])
            else:
                T.evaluate(T.call_packed(symbol, c.data, 1))

        @T.prim_func(s_tir=True)
        def fill(c_data: T.handle("float32", "local"), n: T.int32):
            T.func_attr(attrs)
            c = T.decl_buffer(1, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 1)
            c[i] = c[i] + T.float32(1)

    with pytest.raises(ValueError, match="A kernel uses the pointer of `c`"):
        _split(Module)


def _annotations_of(mod):
    """{name: annotations} of the allocations of ``mod``'s main; HostCellNotMarked where the
    cell ``c`` is not marked host memory."""
    found = {}

    def visit(node):
        if isinstance(node, tvm.tirx.AllocBuffer):
            found[node.buffer.name] = {k: int(v) for k, v in node.annotations.items()}

    tvm_ffi.structural_walk(mod["main"].body, visit, order="pre")
    if found.get("c") != HOST:
        raise HostCellNotMarked(found)
    return found


def _kernel_params(mod):
    """(name, type) of the parameters of ``mod``'s one kernel."""
    return [(p.name, str(p.ty)) for p in mod["main_kernel"].params]


@NOT_MARKED
@pytest.mark.parametrize("op", [T.exp, T.sqrt])
def test_kernel_load_inside_a_math_call_is_by_value(op):
    """A kernel's load of a host cell as the operand of a call is by value, as any other load"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), x: T.float32):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_local((1,), "float32")
        c[0] = x
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = op(c[0])

    after = _split(tvm.IRModule({"main": main}))
    assert _annotations_of(after) == {"c": HOST}
    assert _kernel_params(after) == [("A_ptr", 'T.handle("float32", "global")'), ("c", "float32")]


@NOT_MARKED
@pytest.mark.parametrize("unclassified", ["parameter", "global"])
def test_kernel_address_of_an_unclassified_buffer_is_no_use_of_a_cell(unclassified):
    """A kernel taking an element's address of a buffer S1 does not classify uses no host cell"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), x: T.float32):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_local((1,), "float32")
        g = T.alloc_buffer((8,), "float32")
        c[0] = x
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = c[0]
        T.evaluate(
            T.call_extern(
                "int32", "use", T.address_of(A[i] if unclassified == "parameter" else g[i])
            )
        )

    assert _annotations_of(_split(tvm.IRModule({"main": main}))) == {"c": HOST, "g": {}}


@NOT_REJECTED
@pytest.mark.parametrize("use", ["store", "address"])
@pytest.mark.parametrize("position", [1, 2])
def test_kernel_use_names_a_later_host_buffer(position, use):
    """The rejection of a kernel's store or address_of names that use, whichever host buffer"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_local((1,), "float32")
        e = T.alloc_local((1,), "float32")
        d = T.alloc_local((1,), "float32")
        c[0] = T.float32(0)
        e[0] = T.float32(0)
        d[0] = T.float32(0)
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        if use == "store":
            if position == 1:
                e[0] = A[i]
            else:
                d[0] = A[i]
        else:  # beside a by-value read of the first cell
            A[i] = c[0]
            T.evaluate(T.call_extern("int32", "use", T.address_of(e[0] if position == 1 else d[0])))

    name = "e" if position == 1 else "d"
    how = "stores into" if use == "store" else "takes the address of"
    with pytest.raises(ValueError, match=f"A kernel {how} `{name}`.*T.let"):
        _split(tvm.IRModule({"main": main}))


@NOT_ANNOTATED
@pytest.mark.parametrize("host_cells", [1, 2])
def test_kernel_only_buffer_after_host_cells_stays_device_memory(host_cells):
    """A buffer only a kernel uses stays device memory however many host cells precede it"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": HOST_TARGET})
            c = T.alloc_local((1,), "float32")
            c[0] = T.float32(0)
            if host_cells == 2:
                e = T.alloc_local((1,), "float32")
                e[0] = T.float32(0)
            d = T.alloc_local((1,), "float32")
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            d[0] = A[i]
            A[i] = d[0]

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": HOST_TARGET})
            c = T.alloc_local((1,), "float32", annotations=HOST)
            c[0] = T.float32(0)
            if host_cells == 2:
                e = T.alloc_local((1,), "float32", annotations=HOST)
                e[0] = T.float32(0)
            d = T.alloc_local((1,), "float32")
            T.call_ffi_kernel("main_kernel", A.data, d.data, 8, launch_params=["threadIdx.x"])

        @T.prim_func(s_tir=True)
        def main_kernel(A_data: T.handle("float32"), d_data: T.handle("float32", "local")):
            T.func_attr(_kernel_attrs())
            A = T.decl_buffer(8, data=A_data)
            d = T.decl_buffer(1, data=d_data, scope="local")
            i = T.launch_thread("threadIdx.x", 8)
            d[0] = A[i]
            A[i] = d[0]

    tvm.ir.assert_structural_equal(_split(Before), Expected)


@NOT_REJECTED
@pytest.mark.parametrize("rank", [1, 2])
@pytest.mark.parametrize("access", ["load", "store", "address_of"])
def test_index_of_a_host_access_is_a_host_use(access, rank):
    """The index of a host load, store or element address of a classified buffer is a host load"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": HOST_TARGET})
        x = T.alloc_local((8,) if rank == 1 else (1, 8), "float32")
        k = T.alloc_local((1,), "int32")
        with T.attr(T.target("cuda"), "target", 0):
            i = T.launch_thread("threadIdx.x", 1)
            k[i] = 3
        if access == "load":
            A[0] = x[k[0] if rank == 1 else (0, k[0])]
        elif access == "store":
            x[k[0] if rank == 1 else (0, k[0])] = T.float32(1)
        else:
            T.evaluate(
                T.call_extern("int32", "use", T.address_of(x[k[0] if rank == 1 else (0, k[0])]))
            )

    with pytest.raises(ValueError, match="A kernel stores into `k`.*T.let"):
        _split(tvm.IRModule({"main": main}))


@NOT_REJECTED
@pytest.mark.parametrize("value", ["load", "sum"])
def test_value_of_a_host_let_is_a_host_use(value):
    """A host ``T.let`` whose value loads a cell is a host load of that cell"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": HOST_TARGET})
        k = T.alloc_local((1,), "int32")
        with T.attr(T.target("cuda"), "target", 0):
            i = T.launch_thread("threadIdx.x", 1)
            k[i] = 3
        n: T.let[T.int32] = k[0] if value == "load" else k[0] + 1
        A[n] = T.float32(1)

    with pytest.raises(ValueError, match="A kernel stores into `k`.*T.let"):
        _split(tvm.IRModule({"main": main}))


@NOT_MARKED
@pytest.mark.parametrize("value", ["load", "product"])
def test_value_of_a_kernel_let_is_by_value(value):
    """A kernel ``T.let`` whose value loads a host cell reads the cell by value"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), x: T.float32):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_local((1,), "float32")
        c[0] = x
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        t: T.let[T.float32] = c[0] if value == "load" else c[0] * T.float32(2)
        A[i] = t

    after = _split(tvm.IRModule({"main": main}))
    assert _annotations_of(after) == {"c": HOST}
    assert _kernel_params(after) == [("A_ptr", 'T.handle("float32", "global")'), ("c", "float32")]


@NOT_REJECTED
@pytest.mark.parametrize("view", ["decl_buffer", "let"])
def test_index_of_a_host_view_is_a_host_use(view):
    """The index a host view's address is computed from is a host load of its buffer"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": HOST_TARGET})
        x = T.alloc_local((8,), "float32")
        k = T.alloc_local((1,), "int32")
        with T.attr(T.target("cuda"), "target", 0):
            i = T.launch_thread("threadIdx.x", 1)
            k[i] = 3
        if view == "decl_buffer":
            v = T.decl_buffer((1,), "float32", data=T.address_of(x[k[0]]), scope="local")
            v[0] = T.float32(1)
        else:
            p: T.let[T.handle("float32", "local")] = T.address_of(x[k[0]])
            T.evaluate(T.call_extern("int32", "use", p))

    with pytest.raises(ValueError, match="A kernel stores into `k`.*T.let"):
        _split(tvm.IRModule({"main": main}))


@NOT_REJECTED
@pytest.mark.parametrize("scope", ["local", "global"])
def test_load_in_the_shape_of_an_allocation_is_a_host_use(scope):
    """A load of a cell in the shape of a host allocation, classified or not, is a host load"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": HOST_TARGET})
        k = T.alloc_local((1,), "int32")
        with T.attr(T.target("cuda"), "target", 0):
            i = T.launch_thread("threadIdx.x", 1)
            k[i] = 3
        x = T.alloc_buffer((k[0],), "float32", scope=scope)
        x[0] = T.float32(1)

    with pytest.raises(ValueError, match="A kernel stores into `k`.*T.let"):
        _split(tvm.IRModule({"main": main}))


@NOT_REJECTED
@pytest.mark.parametrize("position", ["shape", "elem_offset"])
@pytest.mark.parametrize(
    "call",
    [lambda t: T.call_packed("use", t), lambda t: T.call_extern("int32", "use", t)],
    ids=["call_packed", "call_extern"],
)
def test_load_in_the_shape_or_offset_of_a_tensor_is_a_host_use(call, position):
    """A load of a cell in a tensor's shape or element offset is a host load of that cell"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": HOST_TARGET})
        k = T.alloc_local((1,), "int32")
        with T.attr(T.target("cuda"), "target", 0):
            i = T.launch_thread("threadIdx.x", 1)
            k[i] = 3
        T.evaluate(
            call(
                T.tvm_stack_make_array(
                    A.data,
                    T.tvm_stack_make_shape(k[0] if position == "shape" else 8),
                    0,
                    1,
                    T.float32(0),
                    k[0] if position == "elem_offset" else 0,
                )
            )
        )

    with pytest.raises(ValueError, match="A kernel stores into `k`.*T.let"):
        _split(tvm.IRModule({"main": main}))


@NOT_REJECTED
@pytest.mark.parametrize("dtype", ["float32x4", "float32xvscalex4", "int8xvscalex16"])
def test_kernel_load_of_a_vector_host_cell_is_rejected_lane_by_lane(dtype):
    """A vector host cell, fixed or scalable, is no kernel scalar: its lanes are bound one by one"""
    element, lanes = dtype.split("x")[0], int(dtype.rsplit("x", 1)[1])
    lanes = T.vscale() * lanes if "vscale" in dtype else lanes

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, dtype)):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_local((1,), dtype)
        c[0] = T.Broadcast(tvm.tirx.const(1, element), lanes)
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = c[0]

    advice = rf"bind each lane .* \(`c_0: T.let\[T.{element}\] = ...`\)"
    with pytest.raises(ValueError, match=f"A kernel loads an element of `c`.*{advice}"):
        _split(tvm.IRModule({"main": main}))


@NOT_REJECTED
@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("access", ["load", "store", "pointer", "offset_pointer", "kernel_view"])
def test_view_of_a_view_is_traced_to_its_buffer(access, depth):
    """A pointer bound (once or twice) to ``b``'s pointer after a view of ``a``, and a view over
    it, are ``b``'s views, whether a kernel uses the view or the pointer"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), x: T.float32):
        T.func_attr({"target": HOST_TARGET})
        a = T.alloc_local((1,), "float32")
        b = T.alloc_local((1,), "float32")
        _pa: T.let[T.handle("float32", "local")] = a.data
        pb: T.let[T.handle("float32", "local")] = b.data
        pc: T.let[T.handle("float32", "local")] = pb
        d = T.decl_buffer((1,), "float32", data=pb if depth == 1 else pc, scope="local")
        b[0] = x
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        if access == "load":
            A[i] = d[0]
        elif access == "store":
            d[0] = A[i]
        elif access == "pointer":
            T.evaluate(T.call_extern("int32", "use", pb if depth == 1 else pc))
        elif access == "offset_pointer":
            T.evaluate(
                T.call_extern("int32", "use", T.handle_add_byte_offset(pb if depth == 1 else pc, 0))
            )
        else:
            e = T.decl_buffer((1,), "float32", data=pb if depth == 1 else pc, scope="local")
            A[i] = e[0]

    with pytest.raises(ValueError, match="A kernel uses a view of `b`"):
        _split(tvm.IRModule({"main": main}))


@NOT_REJECTED
@pytest.mark.parametrize("first", ["store", "address"])
def test_rejection_names_the_kernels_first_use_needing_the_pointer(first):
    """Of two kernel uses of a host cell that need its pointer, the rejection names the first"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), x: T.float32):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_local((1,), "float32")
        c[0] = x
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        if first == "store":
            c[0] = A[i]
            T.evaluate(T.call_extern("int32", "use", T.address_of(c[0])))
        else:
            T.evaluate(T.call_extern("int32", "use", T.address_of(c[0])))
            c[0] = A[i]

    how = "stores into" if first == "store" else "takes the address of"
    with pytest.raises(ValueError, match=f"A kernel {how} `c`"):
        _split(tvm.IRModule({"main": main}))


@NOT_ANNOTATED
@pytest.mark.parametrize("view", [False, True])
def test_host_cell_no_code_accesses_is_host_memory(view):
    """A host cell that nothing loads or stores, a view of it declared or not, is host memory"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": HOST_TARGET})
            c = T.alloc_local((1,), "float32")
            if view:
                v = T.decl_buffer((1,), "float32", data=c.data, scope="local")  # noqa: F841
            A[0] = T.float32(0)

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": HOST_TARGET})
            c = T.alloc_local((1,), "float32", annotations=HOST)
            if view:
                v = T.decl_buffer((1,), "float32", data=c.data, scope="local")  # noqa: F841
            A[0] = T.float32(0)

    tvm.ir.assert_structural_equal(_split(Before), Expected)


@NOT_ANNOTATED
@pytest.mark.parametrize("pointer", ["data", "address_of"])
def test_pointer_to_host_subroutine_is_a_host_use(pointer):
    """A call of a CPU module function without a thread environment is no launch: the pointer
    it gets is the host's use, and the buffer host memory"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": HOST_TARGET})
            c = T.alloc_local((1,), "float32")
            c[0] = T.float32(0)
            Before.sub(c.data if pointer == "data" else T.address_of(c[0]))

        @T.prim_func(private=True, s_tir=True)
        def sub(c_data: T.handle("float32", "local")):
            T.func_attr({"target": T.target("llvm")})
            c = T.decl_buffer(1, data=c_data, scope="local")
            c[0] = c[0] + T.float32(1)

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": HOST_TARGET})
            c = T.alloc_local((1,), "float32", annotations=HOST)
            c[0] = T.float32(0)
            Expected.sub(c.data if pointer == "data" else T.address_of(c[0]))

        @T.prim_func(private=True, s_tir=True)
        def sub(c_data: T.handle("float32", "local")):
            T.func_attr({"target": T.target("llvm")})
            c = T.decl_buffer(1, data=c_data, scope="local")
            c[0] = c[0] + T.float32(1)

    tvm.ir.assert_structural_equal(_split(Before), Expected)


@pytest.mark.xfail(strict=True, raises=tvm.error.InternalError, reason=REASON)
@pytest.mark.parametrize("pointer", ["data", "address_of"])
def test_function_without_target_hides_no_later_kernel(pointer):
    """A module function without a target, listed between the host function and a kernel it
    launches, does not hide the launch: the kernel's pointer into host memory is rejected
    before SplitHostDevice refuses the function without a target"""

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": HOST_TARGET})
            c = T.alloc_local((1,), "float32")
            c[0] = T.float32(0)
            Module.fill(c.data if pointer == "data" else T.address_of(c[0]))

        @T.prim_func(private=True, s_tir=True)
        def helper(x: T.int32) -> T.int32:
            return x + 1

        @T.prim_func(private=True, s_tir=True)
        def fill(c_data: T.handle("float32", "local")):
            T.func_attr({"target": T.target("cuda")})
            c = T.decl_buffer(1, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 1)
            c[i] = T.float32(1)

    assert [g.name_hint for g in Module.functions] == ["main", "helper", "fill"]
    with pytest.raises(ValueError, match="A kernel (uses the pointer|takes the address) of `c`"):
        _split(Module)


def _host_cell(kernel_reads):
    """A cuda host function whose cell the host stores into and a kernel reads, or not."""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": HOST_TARGET})
        c = T.alloc_local((1,), "float32")
        c[0] = T.float32(1)
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = c[0] if kernel_reads else T.float32(0)

    return tvm.IRModule({"main": main})


@pytest.mark.parametrize("case", [0, 1])
@pytest.mark.parametrize("name", ["SplitHostDevice", "LowerTVMBuiltin"])
def test_sequential_skips_the_passes_below_their_released_opt_level(name, case):
    """A Sequential under opt level -1 skips both passes, as it skips TVM's (opt level 0)"""
    if name == "LowerTVMBuiltin":
        mod = host_allocation("float32x4", [63, 64][case])
    else:
        mod = _host_cell(kernel_reads=bool(case))
    released = tvm_ffi.get_global_func(f"tirx.transform.{name}")
    with tvm.transform.PassContext(opt_level=-1):
        after = tvm.transform.Sequential([getattr(tvm.tirx.transform, name)()])(mod)
        expected = tvm.transform.Sequential([released()])(mod)
    tvm.ir.assert_structural_equal(after, expected)


def _without_host_memory(name, extent):
    """A cuda host function that TVM's pass ``name`` changes and the fix changes as TVM's does:
    a kernel and no host cell (SplitHostDevice), an allocation not marked host memory
    (LowerTVMBuiltin)."""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": HOST_TARGET})
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", extent)
        A[i] = T.float32(0)

    @T.prim_func(s_tir=True)
    def lowered(n: T.int32):
        T.func_attr({"target": CUDA, "tirx.is_host_func": True})
        T.attr("default", "device_id", 1)
        c = T.alloc_buffer((extent,), "float32", scope="global")
        c[0] = T.float32(1)

    return tvm.IRModule({"main": main if name == "SplitHostDevice" else lowered})


@pytest.mark.parametrize("extent", [1, 8])
@pytest.mark.parametrize("name", ["SplitHostDevice", "LowerTVMBuiltin"])
def test_sequential_runs_the_passes_at_their_released_opt_level(name, extent):
    """A Sequential under opt level 0 runs both passes, as it runs TVM's (opt level 0)"""
    mod = _without_host_memory(name, extent)
    released = tvm_ffi.get_global_func(f"tirx.transform.{name}")
    with tvm.transform.PassContext(opt_level=0):
        after = tvm.transform.Sequential([getattr(tvm.tirx.transform, name)()])(mod)
        expected = tvm.transform.Sequential([released()])(mod)
    assert not tvm_ffi.structural_equal(expected, mod)
    tvm.ir.assert_structural_equal(after, expected)


def _calls(mod, name):
    """The arguments of every call of the op ``name`` in ``mod``'s main, as text."""
    found = []

    def visit(node):
        if isinstance(node, tvm.ir.expr.Call) and getattr(node.op, "name", "") == name:
            found.append([str(arg) for arg in node.args])

    tvm_ffi.structural_walk(mod["main"].body, visit, order="pre")
    return found


@pytest.mark.parametrize("extent", [1, 1024])
def test_free_the_pass_did_not_emit_is_left_alone(extent):
    """A workspace free that the host code writes itself keeps its device beside host memory"""

    @T.prim_func
    def main(p: T.handle):
        T.func_attr({"target": CUDA, "tirx.is_host_func": True})
        T.attr("default", "device_id", 1)
        c = T.alloc_buffer((extent,), "float32", scope="global", annotations=HOST)
        c[0] = T.float32(1)
        T.evaluate(T.TVMBackendFreeWorkspace(2, 1, p))

    after = tvm.tirx.transform.LowerTVMBuiltin()(tvm.IRModule({"main": main}))
    assert ["2", "1", "p"] in _calls(after, "tirx.TVMBackendFreeWorkspace")


@pytest.mark.parametrize("extent", [1, 1024])
def test_free_of_a_subroutines_pointer_is_left_alone(extent):
    """A free the host code writes of a pointer a subroutine returns keeps its arguments"""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": CUDA, "tirx.is_host_func": True})
            T.attr("default", "device_id", 1)
            c = T.alloc_buffer((extent,), "float32", scope="global", annotations=HOST)
            c[0] = T.float32(1)
            T.evaluate(T.TVMBackendFreeWorkspace(2, 1, Module.get()))

        @T.prim_func(private=True)
        def get() -> T.handle:
            T.func_attr({"target": CUDA, "tirx.is_host_func": True})
            return T.reinterpret("handle", T.uint64(0))

    after = tvm.tirx.transform.LowerTVMBuiltin()(Module)
    assert ["2", "1", "get()"] in _calls(after, "tirx.TVMBackendFreeWorkspace")


@pytest.mark.parametrize("extent", [1, 1024])
def test_subroutine_call_with_the_host_memorys_pointer_is_left_alone(extent):
    """A call of a module function that passes host memory's pointer third keeps its arguments"""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": CUDA, "tirx.is_host_func": True})
            T.attr("default", "device_id", 1)
            c = T.alloc_buffer((extent,), "float32", scope="global", annotations=HOST)
            c[0] = T.float32(1)
            Module.use(7, 9, c.data)

        @T.prim_func(private=True)
        def use(a: T.int32, b: T.int32, p: T.handle("float32")):
            T.func_attr({"target": CUDA, "tirx.is_host_func": True})
            T.evaluate(a + b)

    def first_two(mod):
        found = []

        def visit(node):
            if isinstance(node, tvm.ir.expr.Call) and isinstance(node.op, tvm.ir.GlobalVar):
                found.append([str(arg) for arg in node.args[:2]])

        tvm_ffi.structural_walk(mod["main"].body, visit, order="pre")
        return found

    assert first_two(tvm.tirx.transform.LowerTVMBuiltin()(Module)) == [["7", "9"]]


@pytest.mark.parametrize("extent", [1, 1024])
def test_allocation_marked_to_skip_lowering_is_kept_beside_host_memory(extent):
    """An allocation marked ``disable_lower_builtin`` beside host memory stays as written"""

    @T.prim_func
    def main(n: T.int32):
        T.func_attr({"target": CUDA, "tirx.is_host_func": True})
        T.attr("default", "device_id", 1)
        c = T.alloc_buffer((extent,), "float32", scope="global", annotations=HOST)
        d = T.alloc_buffer((4,), "float32", annotations={"disable_lower_builtin": 1})
        c[0] = T.float32(1)
        d[0] = T.float32(1)

    kept = []

    def visit(node):
        if isinstance(node, tvm.tirx.AllocBuffer) and node.buffer.name == "d":
            kept.append({k: int(v) for k, v in node.annotations.items()})

    after = tvm.tirx.transform.LowerTVMBuiltin()(tvm.IRModule({"main": main}))
    tvm_ffi.structural_walk(after["main"].body, visit, order="pre")
    assert kept == [{"disable_lower_builtin": 1}]


@pytest.mark.xfail(strict=True, raises=HostMemoryOnDevice, reason=REASON)
@pytest.mark.parametrize("extent", [63, 64])
@pytest.mark.parametrize("flag", [1, -1])
def test_any_nonzero_host_function_mark_puts_host_memory_on_the_cpu(flag, extent):
    """A cuda function whose tirx.is_host_func is nonzero, -1 too, allocates host memory on the
    CPU (TVM's IsHostFunc: HasNonzeroAttr)"""

    @T.prim_func
    def main(n: T.int32):
        T.func_attr({"target": CUDA, "tirx.is_host_func": flag})
        T.attr("default", "device_id", 1)
        c = T.alloc_buffer((extent,), "float32x4", scope="global", annotations=HOST)
        c[0] = T.Broadcast(T.float32(1.5), 4)

    after = tvm.tirx.transform.LowerTVMBuiltin()(tvm.IRModule({"main": main}))
    devices = cases.workspace_devices(after)
    if devices != ([] if extent < 64 else [(KDLCPU, 0)]):
        raise HostMemoryOnDevice(f"is_host_func {flag}: workspaces {devices}")


@pytest.mark.parametrize("device_type", [KDLCPU, 2])
@pytest.mark.parametrize("extent", [1, 64])
def test_function_marked_not_host_is_lowered_as_released(extent, device_type):
    """A cuda function whose tirx.is_host_func is 0 is left by LowerTVMBuiltin as TVM leaves it,
    whatever device its allocation's annotation names"""

    @T.prim_func
    def main(n: T.int32):
        T.func_attr({"target": CUDA, "tirx.is_host_func": 0})
        T.attr("default", "device_id", 1)
        c = T.alloc_buffer(
            (extent,), "float32", scope="global", annotations={"device_type": device_type}
        )
        c[0] = T.float32(1)

    mod = tvm.IRModule({"main": main})
    released = tvm_ffi.get_global_func("tirx.transform.LowerTVMBuiltin")
    tvm.ir.assert_structural_equal(tvm.tirx.transform.LowerTVMBuiltin()(mod), released()(mod))


@pytest.mark.parametrize("call", ["packed", "extern"])
def test_function_without_target_is_lowered_as_released(call):
    """LowerTVMBuiltin lowers a function with neither a target nor a host mark as TVM's does"""

    @T.prim_func
    def main(n: T.int32):
        c = T.alloc_buffer((4,), "float32", scope="global")
        c[0] = T.float32(1)
        if call == "packed":
            T.evaluate(T.call_packed("f", c.data))
        else:
            T.evaluate(T.call_extern("int32", "f", c.data))

    mod = tvm.IRModule({"main": main})
    released = tvm_ffi.get_global_func("tirx.transform.LowerTVMBuiltin")
    after = tvm.tirx.transform.LowerTVMBuiltin()(mod)
    tvm.ir.assert_structural_equal(after, released()(mod))

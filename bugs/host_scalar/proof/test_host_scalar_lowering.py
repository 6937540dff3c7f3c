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
"""Host-level scalar cases through tvm.compile(target="cuda"), per dtype (this repository only).

The upstream files pin the two passes with Before/Expected modules and one float32 kernel.
This file checks what comes out of the whole compilation for every case of
host_scalar_cases.py and every dtype a kernel scalar can have, five ways:

* the host LLVM IR never loads or stores memory that it allocated on a non-CPU device (and
  the device memory that only kernels use, ``global``, ``kernel_shared`` and ``host_view``,
  stays there);
* each CUDA kernel's parameters: pointers for buffers, a scalar of the dtype's C type for a
  value the host passes (no pointer for a host-level scalar);
* the value each scalar kernel parameter receives: the module right after SplitHostDevice (as
  MakePackedAPI receives it) is replayed statement by statement up to each launch, and the
  argument must simplify to the value the cell holds there (``x``, ``x + v1``, ...);
* which allocations SplitHostDevice marks as host memory (``device_type`` = kDLCPU): exactly
  the ``local`` buffers of the host code that the host code uses;
* a kernel that stores into, takes the address of or indexes host memory (or a view of it)
  is a ValueError at compile time that names the buffer and the T.let spelling.

The bug cases fail on the released wheel with exceptions of their own (below), so that an
unrelated failure is not taken for the bug.
"""

import functools
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import tvm_ffi

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
import host_scalar_cases as cases

from harness import kernel_scalars

REASON = "host-level scalar cell is a device workspace passed by pointer"
# the bug cases whose kernels read a host cell (the others read a T.let of a host array)
BY_VALUE = ("cell", "reassigned")
# the cases whose kernels must take the cell by value (the launch replay covers BY_VALUE)
BY_VALUE_PARAMS = (*BY_VALUE, "nested")


class HostTouchesDeviceMemory(AssertionError):
    """The host loads or stores memory it allocated on the device (the report's crash)."""


class ScalarPassedByPointer(AssertionError):
    """A kernel takes a host-level scalar through a pointer parameter."""


class NotRejected(AssertionError):
    """A kernel that needs a pointer to host memory compiles without an error."""


class HostMemoryNotMarked(AssertionError):
    """A local buffer of the host code that the host uses is not marked as host memory."""


def _bug(case, exception, bug_cases=cases.BUG_CASES):
    """``case`` as a pytest parameter, a strict xfail raising ``exception`` if a bug case."""
    if case in bug_cases:
        return pytest.param(
            case, marks=pytest.mark.xfail(strict=True, raises=exception, reason=REASON)
        )
    return case


@functools.cache
def _compiled(case, dtype):
    """(module as MakePackedAPI receives it, CUDA source, host LLVM IR)."""
    split, lib = kernel_scalars.compile_for_cuda(cases.make(case, dtype))
    return split, lib.mod.imports[0].inspect_source(), lib.mod.inspect_source("ll")


# ---------------------------------------------------------------------------------------------
# host LLVM IR


def _device_memory_accesses(host_ll):
    """Host loads/stores through a pointer that TVMBackendAllocWorkspace returned for a
    non-CPU device: `%f = load ptr, ptr @__TVMBackendAllocWorkspace`, `%c = call ptr
    %f(i32 2, ...`, then `store float ..., ptr %c` or `load float, ptr %c`."""
    allocators, device_ptrs, accesses = set(), set(), []
    for line in host_ll.splitlines():
        load_fn = re.match(r"\s*(%[\w.]+) = load ptr, ptr @__TVMBackendAllocWorkspace\b", line)
        call = re.match(r"\s*(%[\w.]+) = (?:\w+ )*call (?:\w+ )*ptr (%[\w.]+)\(i32 ([^,]+),", line)
        store = re.match(r"\s*store .+, ptr (%[\w.]+)(?:,|$)", line)
        load = re.match(r"\s*%[\w.]+ = load (?!ptr, ptr @)[^,]+, ptr (%[\w.]+)(?:,|$)", line)
        if load_fn:
            allocators.add(load_fn.group(1))
        elif call and call.group(2) in allocators and call.group(3) != "1":  # 1: kDLCPU
            device_ptrs.add(call.group(1))
        elif (store or load) and (store or load).group(1) in device_ptrs:
            accesses.append(line.strip().split(", !")[0])
    return accesses


@pytest.mark.parametrize("dtype", cases.DTYPES)
@pytest.mark.parametrize(
    "case", [_bug(c, HostTouchesDeviceMemory) for c in cases.BUG_CASES + cases.CONTROL_CASES]
)
def test_host_does_not_touch_device_memory(case, dtype):
    _, _, host_ll = _compiled(case, dtype)
    accesses = _device_memory_accesses(host_ll)
    if accesses:
        raise HostTouchesDeviceMemory("; ".join(accesses))
    if case in cases.KERNEL_SHARED:  # what only kernels use stays device memory
        assert re.search(r"call ptr %[\w.]+\(i32 2,", host_ll), "no device workspace for it"


def test_detector_sees_the_report_on_released_passes():
    """The LLVM-IR detector finds the report's store (TVM's own passes, whatever is installed)."""
    from bugs.host_scalar import reference_fix as fix

    with fix.unfixed():
        lib = tvm.compile(cases.make("cell", "float32"), target="cuda")
    assert [a.split(",")[0] for a in _device_memory_accesses(lib.mod.inspect_source("ll"))] == [
        "store float 1.500000e+00"
    ]


# ---------------------------------------------------------------------------------------------
# kernel signatures


def _expected_params(case, dtype):
    """{kernel: [(C type, is pointer)]} the case's kernels must have."""
    ctype = cases.C_TYPES[dtype]
    buf, val = (ctype, True), (ctype, False)
    return {
        "cell": {"main_kernel": [buf, buf, val]},
        "reassigned": {"main_kernel": [buf, val], "main_kernel_1": [buf, buf, val]},
        "nested": {"main_kernel": [buf, buf, val]},
        "let": {"main_kernel": [buf, buf, val]},
        "param": {"main_kernel": [buf, buf, val]},
        "kernel_cell": {"main_kernel": [buf, buf, val]},
        "global": {"main_kernel": [buf, buf, val], "main_kernel_1": [buf, buf, buf]},
        "kernel_shared": {"main_kernel": [buf, buf, val], "main_kernel_1": [buf, buf, buf]},
        "host_view": {"main_kernel": [buf, buf, val], "main_kernel_1": [buf, buf, buf]},
        "host_array": {"main_kernel": [buf, buf, val]},
        "big_array": {"main_kernel": [buf, buf, val]},
        "symbolic": {"main_kernel": [buf, buf, val]},
    }[case]


@pytest.mark.parametrize("dtype", cases.DTYPES)
@pytest.mark.parametrize(
    "case",
    [
        _bug(c, ScalarPassedByPointer, BY_VALUE_PARAMS)
        for c in cases.BUG_CASES + cases.CONTROL_CASES
    ],
)
def test_kernel_parameters(case, dtype):
    _, cuda_source, _ = _compiled(case, dtype)
    found = {
        name: sorted((ctype, pointer) for ctype, pointer, _ in params)
        for name, params in cases.kernel_signatures(cuda_source).items()
    }
    expected = {k: sorted(v) for k, v in _expected_params(case, dtype).items()}
    if case in BY_VALUE_PARAMS and any(
        p[-1].startswith("c_ptr")
        for params in cases.kernel_signatures(cuda_source).values()
        for p in params
    ):
        raise ScalarPassedByPointer(f"{found}")
    assert found == expected


# ---------------------------------------------------------------------------------------------
# the value each scalar kernel parameter receives


class WrongLaunchValue(AssertionError):
    """A kernel receives a value that is not what the host holds at the launch."""


def _launches(mod):
    """[(kernel name, [(kernel parameter, host value)])] in program order, the host function
    replayed: Binds and one-element stores are substituted into later expressions."""
    host = mod["main"]
    bound, stored, launches = [], [], []

    def lookup(pairs, key):
        for k, value in reversed(pairs):
            if k.same_as(key):
                return value
        return None

    def resolve(expr):
        def on_var(var):
            value = lookup(bound, var)
            return var if value is None else value

        def on_load(load):
            if len(load.indices) != 1:
                return load
            value = lookup(stored, load.source)
            return load if value is None else value

        return tvm_ffi.structural_map(expr, [(tvm.ir.Var, on_var), (tvm.ir.TensorLoad, on_load)])

    def visit(node):
        if isinstance(node, tvm.tirx.Bind):
            bound.append((node.var, resolve(node.value)))
        elif isinstance(node, tvm.tirx.BufferStore) and len(node.indices) == 1:
            stored.append((node.buffer, resolve(node.value)))
        elif isinstance(node, tvm.tirx.Evaluate) and isinstance(node.value, tvm.ir.Call):
            call = node.value
            if getattr(call.op, "name", "") == "tirx.call_ffi_kernel":
                name = str(call.args[0].value)
                kernel = mod[name]
                args = [resolve(a) for a in call.args[1 : 1 + len(kernel.params)]]
                launches.append((name, list(zip(kernel.params, args))))
                return tvm_ffi.WalkResult.SKIP
        return None

    tvm_ffi.structural_walk(host.body, visit, order="pre")
    return host, launches


def _expected_increments(case, dtype, x):
    """[(kernel, what it adds to the loaded element)] of each launch, in program order."""
    ty = getattr(T, dtype)
    v0, v1, _ = cases.VALUES[dtype]
    return {
        "cell": [("main_kernel", ty(v0))],
        "reassigned": [("main_kernel", x), ("main_kernel_1", x + ty(v1))],
        "let": [("main_kernel", x + ty(v0))],
        "param": [("main_kernel", x)],
    }[case]


def _terms(expr):
    if isinstance(expr, tvm.tirx.Add):
        return _terms(expr.a) + _terms(expr.b)
    return [expr]


def _increment(kernel, host_values):
    """What ``kernel``'s one store adds to the element it loads, with each scalar parameter
    replaced by the value the host passes for it."""
    stores = []
    tvm_ffi.structural_walk(
        kernel.body,
        lambda n: stores.append(n) if isinstance(n, tvm.tirx.BufferStore) else None,
        order="pre",
    )
    assert len(stores) == 1, f"expected one store in the kernel, got {len(stores)}"
    terms = _terms(stores[0].value)
    loads = [t for t in terms if isinstance(t, tvm.ir.TensorLoad)]
    assert len(loads) == 1, f"expected `B[i] + ...`, got {stores[0].value}"
    rest = [t for t in terms if t is not loads[0]]
    total = rest[0]
    for term in rest[1:]:
        total = total + term

    def on_var(var):
        for param, value in host_values:
            if param.same_as(var):
                return value
        return var

    return tvm_ffi.structural_map(total, (tvm.ir.Var, on_var))


@pytest.mark.parametrize("dtype", cases.DTYPES)
@pytest.mark.parametrize(
    "case", [_bug(c, ScalarPassedByPointer, BY_VALUE) for c in BY_VALUE] + ["let", "param"]
)
def test_kernel_receives_value_at_launch(case, dtype):
    """Replay the host to each launch: the kernel adds the value the cell holds there."""
    split, _, _ = _compiled(case, dtype)
    host, launches = _launches(split)
    analyzer = tvm.sym.Analyzer()
    got = []
    for name, params in launches:
        pointers = [p.name for p, _ in params if isinstance(p.ty, tvm.ir.PointerType)]
        if case in BY_VALUE and any(n.startswith("c") for n in pointers):
            raise ScalarPassedByPointer(f"{name} takes {pointers}")
        got.append((name, analyzer.simplify(_increment(split[name], params))))
    x = host.params[2]
    want = [(n, analyzer.simplify(v)) for n, v in _expected_increments(case, dtype, x)]
    if [n for n, _ in got] != [n for n, _ in want] or not all(
        tvm_ffi.structural_equal(g, w) for (_, g), (_, w) in zip(got, want)
    ):
        raise WrongLaunchValue(f"the kernels add {got}, expected {want}")


# ---------------------------------------------------------------------------------------------
# where SplitHostDevice places the local buffers of the host code


def _marked(mod):
    """{function: sorted names of its AllocBuffers annotated device_type}."""
    found = {}
    for gvar, func in mod.functions.items():
        names = []

        def visit(node, names=names):
            annotations = node.annotations if isinstance(node, tvm.tirx.AllocBuffer) else None
            if annotations is not None and "device_type" in annotations:
                assert int(annotations["device_type"]) == 1, "host memory is kDLCPU"
                names.append(node.buffer.name)

        tvm_ffi.structural_walk(func.body, visit, order="pre")
        found[gvar.name_hint] = sorted(names)
    return found


@pytest.mark.parametrize("dtype", ["float32", "int64"])
@pytest.mark.parametrize(
    "case", [_bug(c, HostMemoryNotMarked) for c in cases.BUG_CASES + cases.CONTROL_CASES]
)
def test_host_memory_is_marked(case, dtype):
    """Exactly the local buffers of the host code that the host uses are host memory."""
    split, _, _ = _compiled(case, dtype)
    want = {"cell": ["c"], "reassigned": ["c"], "nested": ["c"]}.get(case, [])
    if case in ("host_array", "big_array", "symbolic"):
        want = ["a"]
    got = _marked(split)
    if want and got["main"] != want:
        raise HostMemoryNotMarked(f"{got}")
    assert got == {name: (want if name == "main" else []) for name in got}


@pytest.mark.xfail(strict=True, raises=HostMemoryNotMarked, reason=REASON)
def test_only_local_allocations_are_marked():
    """Global buffers of the host code (device memory for kernels and packed functions) and
    views stay unmarked, whoever uses them; so do the kernels' own local buffers."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), n: T.int32):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        g = T.alloc_buffer((4,), "float32")
        h = T.alloc_buffer((1,), "float32")
        y = T.alloc_local((n,), "float32")
        v = T.decl_buffer((1,), data=A.data)
        y[0] = T.float32(1)
        T.call_packed("fill", g.data, y[0])
        with T.launch_thread("threadIdx.x", 8) as i:
            k = T.alloc_local((1,), "float32")
            k[0] = A[i] + h[0] + v[0]
            A[i] = k[0]

    mod = tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))
    if _marked(mod)["main"] != ["y"]:
        raise HostMemoryNotMarked(f"{_marked(mod)}")
    assert _marked(mod) == {"main": ["y"], "main_kernel": []}


@pytest.mark.parametrize("dtype", cases.DTYPES)
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, raises=NotRejected, reason=REASON))
        for c in cases.REJECTED
    ],
)
def test_kernel_needing_host_memory_is_rejected(case, dtype):
    try:
        tvm.compile(cases.make(case, dtype), target="cuda")
    except ValueError as err:
        message = str(err)
    else:
        raise NotRejected(f"{case} compiles")
    assert f"A kernel {cases.REJECTED[case]}" in message
    name = cases.REJECTED[case].split("`")[1]  # a scalar cell: one T.let, not one per lane
    assert f"(`{name}: T.let[T.{dtype}] = ...`)" in message and "T.alloc_buffer" in message


@pytest.mark.xfail(strict=True, raises=NotRejected, reason=REASON)
def test_kernel_using_a_view_of_host_memory_is_rejected():
    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        c = T.alloc_local((1,), "float32")
        d = T.decl_buffer((1,), data=c.data, scope="local")
        d[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = d[0]

    try:
        tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))
    except ValueError as err:
        assert "A kernel uses a view of `c`" in str(err)
    else:
        raise NotRejected("a kernel reads a view of a host cell")


def test_kernel_only_buffers_are_not_rejected():
    """A local buffer of the host code that kernels write and the host never touches compiles
    (device memory shared by the kernels), for every kind of kernel use."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        c = T.alloc_local((1,), "float32")
        x = T.alloc_local((8,), "float32")
        with T.launch_thread("threadIdx.x", 8) as i:
            c[0] = T.call_extern("float32", "load", T.address_of(c[0]))
            x[i] = A[i]
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = c[0] + x[i]

    mod = tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))
    assert _marked(mod)["main"] == []
    assert [p.name for p in mod["main_kernel_1"].params] == ["A_ptr", "c_ptr", "x_ptr"]


# ---------------------------------------------------------------------------------------------
# the parser: why the upstream tests have one cell spelling


@pytest.mark.xfail(strict=True, raises=pytest.fail.Exception, reason=REASON)
def test_vector_host_cell_read_by_kernel_is_rejected():
    """A host cell of a vector dtype is no scalar a launch can pass (the runtimes pass 32- and
    64-bit scalars only): a kernel that reads it is rejected at compile time, not handed a
    pointer to host memory."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32x4"), x: T.float32):
        c = T.alloc_local((1,), "float32x4")
        c[0] = T.Broadcast(x, 4)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            A[i] = c[0]

    advice = r"bind each lane .* with T.let on the host \(`c_0: T.let\[T.float32\] = ...`\)"
    with pytest.raises(ValueError, match=f"A kernel loads an element of `c`.*{advice}"):
        tvm.compile(main, target="cuda")


@pytest.mark.skipif(not tvm.testing.env.has_opencl(), reason="needs an OpenCL device")
def test_vector_host_cell_advice_runs():
    """The rejection's advice for a vector cell (each lane a T.let, the vector built in the
    kernel) compiles and gives the right values on OpenCL: no vector kernel parameter, which
    every device runtime refuses at launch."""

    @T.prim_func
    def main(A: T.Buffer((32,), "float32"), x: T.float32):
        c_0: T.let[T.float32] = x + T.float32(1)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            A[T.Ramp(i * 4, 1, 4)] = T.Broadcast(c_0, 4)

    dev = tvm.opencl(0)
    a = tvm.runtime.tensor(np.zeros(32, "float32"), dev)
    tvm.compile(main, target="opencl")["main"](a, np.float32(2))
    np.testing.assert_array_equal(a.numpy(), np.full(32, 3, "float32"))


def test_annotated_scalar_assignment_is_local_cell():
    """`c: T.float32 = v` declares a one-element local cell initialized to v: the parse rule
    every host-scalar case rests on (and the printer's scalar sugar, patch 0005, prints back)."""

    @T.prim_func(private=True)
    def before(x: T.float32):
        c: T.float32 = x
        T.evaluate(c)

    @T.prim_func(private=True)
    def expected(x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[0] = x
        T.evaluate(c[0])

    tvm.ir.assert_structural_equal(before, expected)


def test_plain_assignment_parses_like_annotated():
    """On 0.27 ``c = v`` at host level is the same one-element cell as ``c: T.float32 = v``."""

    @T.prim_func
    def plain(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        c = T.float32(1.5)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + c

    @T.prim_func
    def annotated(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        c: T.float32 = T.float32(1.5)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + c

    tvm.ir.assert_structural_equal(plain.with_attr("global_symbol", "annotated"), annotated)
    alloc = annotated.body.seq[0]
    assert isinstance(alloc, tvm.tirx.AllocBuffer)
    assert (alloc.buffer.scope(), [int(e) for e in alloc.buffer.shape]) == ("local", [1])


# ---------------------------------------------------------------------------------------------
# where the cell is allocated: under host control flow (pass level: the pipeline before
# SplitHostDevice may hoist the allocation to the top)


def _split_under(form, dtype):
    """SplitHostDevice of a function whose host cell is allocated under ``form`` ("for",
    "if" or "for-if") and read by a kernel there: the kernel. The cell and the kernel come
    from a ``T.macro``, whose statements carry a SequentialSpan that a rebuilt allocation must
    accept."""

    @T.macro
    def cell_read_by_kernel(A, x):
        c = T.alloc_local((1,), dtype)
        c[0] = x
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = c[0]

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, dtype), x: tvm.tirx.Var("x", dtype)):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        if form == "for":
            for _ in range(2):
                cell_read_by_kernel(A, x)
        elif form == "if":
            if x > T.Cast(dtype, 0):
                cell_read_by_kernel(A, x)
        else:
            for j in range(2):
                if j == 1:
                    cell_read_by_kernel(A, x)

    return tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))["main_kernel"]


@pytest.mark.parametrize("dtype", cases.DTYPES)
@pytest.mark.parametrize(
    "form",
    [
        pytest.param(
            f, marks=pytest.mark.xfail(strict=True, raises=ScalarPassedByPointer, reason=REASON)
        )
        for f in ("for", "if", "for-if")
    ],
)
def test_cell_under_host_control_flow_passed_by_value(form, dtype):
    """A cell allocated under a host for / if reaches the kernel as a scalar of its dtype."""
    kernel = _split_under(form, dtype)
    pointers = [p.name for p in kernel.params if isinstance(p.ty, tvm.ir.PointerType)]
    if "c_data" in pointers or "c_ptr" in pointers:
        raise ScalarPassedByPointer(f"{kernel.params}")
    assert [str(p.ty) for p in kernel.params if isinstance(p.ty, tvm.ir.PrimType)] == [dtype]


# Moved from the upstream SplitHostDevice file, whose test keeps one size and takes ext_dev and
# Hexagon as targets: the constant and the symbolic size on each device runtime, and a cell
# that an ext_dev or Hexagon kernel reads (its pointer stays, as released).


@pytest.mark.parametrize("target", ["cuda", "rocm", "vulkan", "metal", "opencl", "webgpu"])
@pytest.mark.parametrize("size", [4, None], ids=["constant", "symbolic"])
@pytest.mark.parametrize(
    "scope",
    [
        pytest.param(
            "local",
            marks=pytest.mark.xfail(
                strict=True, raises=ValueError, reason="host-level scalar on the device"
            ),
        ),
        "global",
    ],
)
def test_only_local_host_buffers_are_host_memory_of_any_size(scope, size, target):
    """Of the buffers only the host code uses, the local ones become host memory"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(n: T.int32):
            T.func_attr({"target": T.target(target, host="llvm")})
            y = T.alloc_buffer(
                (n if size is None else size,), "float32", scope=scope, annotations={"note": 1}
            )
            y[0] = T.float32(1.5)
            T.call_packed("fill", y[0])

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(n: T.int32):
            T.func_attr({"target": T.target(target, host="llvm")})
            y = T.alloc_buffer(
                (n if size is None else size,),
                "float32",
                scope=scope,
                annotations={"note": 1, "device_type": 1} if scope == "local" else {"note": 1},
            )
            y[0] = T.float32(1.5)
            T.call_packed("fill", y[0])

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize("kind", ["ext_dev", "hexagon"])
def test_host_cell_of_kernels_no_device_runtime_launches_left_alone(kind):
    """A host cell read by a kernel that no device runtime launches is left as it is"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(B: T.Buffer(8, "float32"), x: T.float32):
            T.func_attr({"target": T.target(kind, host="llvm")})
            c = T.alloc_local((1,), "float32")
            c[0] = x
            T.attr(T.target(kind), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            B[i] = c[0]

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(B: T.Buffer(8, "float32"), x: T.float32):
            T.func_attr({"target": T.target(kind, host="llvm")})
            c = T.alloc_local((1,), "float32")
            c[0] = x
            kernel_error_code: T.let[T.int32] = T.call_ffi_kernel(
                "main_kernel", B.data, c.data, 8, launch_params=["threadIdx.x"], ret_ty="int32"
            )
            assert kernel_error_code == 0, "Error executing compute kernel"

        @T.prim_func(s_tir=True)
        def main_kernel(B_data: T.handle("float32"), c_data: T.handle("float32", "local")):
            T.func_attr(
                {
                    "target": T.target(kind),
                    "calling_conv": 2,
                    "tirx.kernel_launch_params": ["threadIdx.x"],
                    "tirx.noalias": True,
                    "tirx.is_global_func": True,
                }
            )
            c = T.decl_buffer(1, data=c_data, scope="local")
            B = T.decl_buffer(8, data=B_data)
            i = T.launch_thread("threadIdx.x", 8)
            B[i] = c[0]

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


def test_function_without_host_left_alone():
    """A function whose target has no host has no host code: its local buffers stay as they are"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main():
            T.func_attr({"target": T.target("cuda")})
            y = T.alloc_buffer((4,), "float32", scope="local")
            y[0] = T.float32(1.5)
            T.call_packed("fill", y[0])

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Before)

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

import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T


def _cast_kernel(dtype, scalar="int32"):
    """A kernel that stores its scalar argument, cast to ``dtype``, in a ``dtype`` buffer."""
    element, _, lanes = dtype.partition("x")

    def value(n):
        return T.Broadcast(T.Cast(element, n), int(lanes)) if lanes else T.Cast(element, n)

    @T.prim_func
    def main(A: T.Buffer((1,), dtype), n: getattr(T, scalar)):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = value(n)

    return main


def _float64_in_kernel(scalar, second):
    """A kernel (the second of two) that computes in float64 from its ``scalar`` argument"""

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), n: getattr(T, scalar)):
        if second:
            for _ in T.thread_binding(1, thread="threadIdx.x"):
                A[0] = T.Cast("float32", n)
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast("float32", T.Cast("float64", n) * T.float64(3))

    return main


def _float64_constant_argument(ty):
    """A kernel whose only float64 is a constant passed to an external function"""

    @T.prim_func
    def main(A: T.Buffer((1,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            T.evaluate(T.call_extern(ty, "f", T.float64(1.5)))

    return main


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="WebGPU refuses a dtype the target lacks with an internal error",
)
@pytest.mark.parametrize(
    "func, refusal",
    [
        pytest.param(_cast_kernel(t, "int32"), f"represent the type {t}", id=t)
        for t in ["int64", "uint64", "float64", "int64x2", "float32x8"]
    ]
    + [
        pytest.param(
            _cast_kernel("float32", t), f"pass a kernel argument of type {t}", id=f"{t}-argument"
        )
        for t in ("uint64", "float64")
    ]
    + [
        pytest.param(
            _cast_kernel("int64", "float64"), "represent the type int64", id="int64-beside-argument"
        )
    ]
    + [
        pytest.param(
            _float64_in_kernel(t, second),
            "represent the type float64",
            id=f"float64-in-{'second-' * second}kernel-{t}",
        )
        for t, second in [("uint32", False), ("int32", True), ("uint32", True)]
    ]
    + [
        pytest.param(
            _float64_constant_argument(t),
            "represent the type float64",
            id=f"float64-constant-argument-{t}",
        )
        for t in ("float32", "void")
    ],
)
def test_webgpu_rejects_a_type_it_lacks(func, refusal):
    """A type WGSL lacks, or a kernel argument it cannot pass, is a ValueError naming it"""
    with pytest.raises(ValueError, match=rf"webgpu target cannot {refusal}:"):
        tvm.compile(func, target="webgpu")


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="WebGPU refuses a dtype the target lacks with an internal error",
)
@pytest.mark.parametrize(
    "dtype, reason",
    [
        pytest.param("uint64", "WGSL has no 64-bit integers", id="uint64"),
        pytest.param("int64x4", "WGSL has no 64-bit integers", id="int64x4"),
        pytest.param("float64", "WGSL has f16 and f32 only", id="float64"),
        pytest.param("float32x8", "WGSL vectors have 2, 3 or 4 lanes", id="float32x8"),
        pytest.param("int64x8", "WGSL vectors have 2, 3 or 4 lanes", id="int64x8"),
        pytest.param("float4_e2m1fn", "WGSL has no such type", id="float4_e2m1fn"),
    ],
)
def test_webgpu_says_why_it_lacks_a_type(dtype, reason):
    """The ValueError for a type WGSL lacks gives the reason WGSL lacks it"""
    with pytest.raises(ValueError, match=rf"the type {dtype}: {reason}$"):
        tvm.compile(_cast_kernel(dtype), target="webgpu")


@pytest.mark.parametrize(
    "dtype, scalar",
    [pytest.param(t, "int32", id=t) for t in ["int32", "uint32", "float16", "float32x4", "int8x4"]]
    + [pytest.param(t, "int64", id=f"int64-argument-{t}") for t in ("int32", "float32")],
)
def test_webgpu_compiles_the_types_it_has(dtype, scalar):
    """The types WGSL has compile, and an int64 argument, which the WebGPU build narrows to i32"""
    tvm.compile(_cast_kernel(dtype, scalar), target="webgpu")


def _argument_kernel(dtype):
    """A device kernel that stores its ``dtype`` argument, as the code generator receives it"""

    @T.prim_func
    def main(A_ptr: T.handle(dtype), n: getattr(T, dtype)):
        T.func_attr({"calling_conv": 2})
        A = T.decl_buffer((1,), dtype, data=A_ptr)
        A[0] = n

    return main


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="WebGPU refuses a dtype the target lacks with an internal error",
)
@pytest.mark.parametrize("dtype", ["float16", "bool"])
def test_webgpu_codegen_rejects_a_narrow_kernel_argument(dtype):
    """A kernel argument WGSL has but the runtime cannot pass (not 32-bit) is a ValueError"""
    mod = tvm.IRModule({"main": _argument_kernel(dtype)})
    with pytest.raises(ValueError, match=rf"cannot pass a kernel argument of type {dtype}:"):
        tvm.target.codegen.build_module(mod, "webgpu")


def _view_at_address(access, address, scope="global", after=None):
    """A kernel with workgroup or local memory ``S`` that reads ``A`` (under a condition where
    ``access`` is "guarded"), writes ``B`` or never accesses a view ``V`` at
    ``address(X, S, t)``, declared after a view ``U`` of ``A`` or ``S``, or a kernel"""
    kernel, of_a, of_s = (after == a for a in ("kernel", "parameter-view", "workgroup-view"))

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        if kernel:
            for t in T.thread_binding(4, thread="threadIdx.x"):
                B[t] = A[t]
        for t in T.thread_binding(4, thread="threadIdx.x"):
            S = T.alloc_buffer((4,), "float32", scope="local" if scope == "local" else "shared")
            S[t] = A[t]
            if of_a:
                U = T.decl_buffer((4,), "float32", data=A.data)
            if of_s:
                U = T.decl_buffer((4,), "float32", data=S.data, scope="shared")  # noqa: F841
            if access == "written":
                V = T.decl_buffer((1,), "float32", data=address(B, S, t), scope=scope)
                V[0] = A[t]
            elif access == "guarded":
                if t < 2:
                    V = T.decl_buffer((1,), "float32", data=address(A, S, t), scope=scope)
                    B[t] = V[0]
            else:
                V = T.decl_buffer((1,), "float32", data=address(A, S, t), scope=scope)
                if access == "read":
                    B[t] = V[0]

    return main


@pytest.mark.xfail(
    strict=True,
    raises=(TypeError, tvm.error.InternalError),
    reason="WebGPU view at an address stops the code generator at an FFI type check "
    "(a view of workgroup memory at the storage-scope check)",
)
@pytest.mark.parametrize("access", ["read", "written", "unused", "guarded"])
@pytest.mark.parametrize(
    "address, scope, after",
    [
        pytest.param(lambda X, S, t: T.address_of(X[0]), "global", None, id="element-0"),
        pytest.param(lambda X, S, t: T.address_of(X[t]), "global", None, id="thread-element"),
        pytest.param(
            lambda X, S, t: T.ptr_byte_offset(X.data, t * 4, "float32"),
            "global",
            None,
            id="byte-offset",
        ),
        pytest.param(lambda X, S, t: T.address_of(S[t]), "shared", None, id="workgroup-element"),
        pytest.param(lambda X, S, t: T.address_of(S[t]), "local", None, id="local-element"),
        pytest.param(lambda X, S, t: T.address_of(t), "global", None, id="scalar-address"),
    ]
    + [
        pytest.param(lambda X, S, t: T.address_of(X[t]), "global", after, id=f"after-a-{after}")
        for after in ("parameter-view", "workgroup-view", "kernel")
    ],
)
def test_webgpu_rejects_a_view_at_an_address(access, address, scope, after):
    """A view a kernel declares at an address is a ValueError naming the view"""
    with pytest.raises(ValueError, match=r"cannot declare buffer V over .*pointer casts"):
        tvm.compile(_view_at_address(access, address, scope, after), target="webgpu")


@T.prim_func
def _view_in_a_refused_kernel(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for z in T.thread_binding(1, thread="blockIdx.z"):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            V = T.decl_buffer((1,), "float32", data=T.address_of(A[t]))
            B[t] = V[0]


def test_webgpu_keeps_the_error_it_meets_before_a_view():
    """A kernel refused before its view is reached (it binds blockIdx.z) keeps that error"""
    with pytest.raises(tvm.error.InternalError, match="blockIdx.z is not supported"):
        tvm.compile(_view_in_a_refused_kernel, target="webgpu")


@T.prim_func
def _view_of_parameter(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        V = T.decl_buffer((4,), "float32", data=A.data)
        B[t] = V[t]


@T.prim_func
def _view_of_shared_allocation(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        S = T.alloc_buffer((4,), "float32", scope="shared")
        S[t] = A[t]
        V = T.decl_buffer((4,), "float32", data=S.data, scope="shared")
        B[t] = V[t]


@T.prim_func
def _host_view_at_address(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    A_1 = T.decl_buffer((1,), "float32", data=T.address_of(A[1]))
    for t in T.thread_binding(4, thread="threadIdx.x"):
        B[t] = A_1[0]


@pytest.mark.parametrize(
    "func", [_view_of_parameter, _view_of_shared_allocation, _host_view_at_address]
)
def test_webgpu_compiles_the_views_it_can_express(func):
    """A kernel's views of a parameter and an allocation, and a host view, still compile"""
    tvm.compile(func, target="webgpu")


if __name__ == "__main__":
    tvm.testing.main()

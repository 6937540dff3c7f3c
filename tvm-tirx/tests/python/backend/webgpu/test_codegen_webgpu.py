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
import tvm_tirx
import tvm_tirx.testing
from tvm_tirx.script import tirx as T


def _cast_kernel(dtype, scalar="int32"):
    """A kernel that stores its scalar argument, cast to ``dtype``, in a ``dtype`` tensor."""
    element, _, lanes = dtype.partition("x")

    def value(n):
        return T.Broadcast(T.Cast(element, n), int(lanes)) if lanes else T.Cast(element, n)

    @T.function
    def main(A: T.Tensor((1,), dtype), n: getattr(T, scalar)):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = value(n)

    return main


@T.macro
def _nothing(*args):
    T.evaluate(0)


def _float64_in_kernel(scalar, second):
    """A kernel (the second of two) that computes in float64 from its ``scalar`` argument"""

    @T.macro
    def cast_kernel(A, n):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", n)

    first = cast_kernel if second else _nothing

    @T.function
    def main(A: T.Tensor((1,), "float32"), n: getattr(T, scalar)):
        first(A, n)
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", T.Cast("float64", n) * T.float64(3))

    return main


def _float64_constant_argument(ty):
    """A kernel whose only float64 is a constant passed to an external function"""

    @T.function
    def main(A: T.Tensor((1,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            T.evaluate(T.call_extern("f", T.float64(1.5), ty=ty))

    return main


@pytest.mark.xfail(
    strict=True,
    raises=RuntimeError,
    reason="WebGPU refuses a dtype the target lacks with a failed internal check",
)
@pytest.mark.parametrize(
    "func, refusal",
    [
        pytest.param(_cast_kernel(t, "int32"), f"represent the type {t}", id=t)
        for t in [
            *("int64", "uint64", "float64", "int64x2", "uint64x2"),
            *("float32x8", "float16x16", "int32x16"),
        ]
    ]
    + [
        pytest.param(
            _cast_kernel("float16", t), f"pass a kernel argument of type {t}", id=f"{t}-argument"
        )
        for t in ("uint64", "float64")
    ]
    + [
        pytest.param(_cast_kernel(t, a), f"represent the type {t}", id=f"{t}-beside-argument")
        for t, a in [("int64", "float64"), ("float64", "uint64")]
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
        tvm_tirx.tirx.compile(func, target="webgpu")


@pytest.mark.xfail(
    strict=True,
    raises=RuntimeError,
    reason="WebGPU refuses a dtype the target lacks with a failed internal check",
)
@pytest.mark.parametrize(
    "dtype, reason",
    [
        pytest.param("uint64", "WGSL has no 64-bit integers", id="uint64"),
        pytest.param("int64x4", "WGSL has no 64-bit integers", id="int64x4"),
        pytest.param("uint64x4", "WGSL has no 64-bit integers", id="uint64x4"),
        pytest.param("float64", "WGSL has f16 and f32 only", id="float64"),
        pytest.param("float32x8", "WGSL vectors have 2, 3 or 4 lanes", id="float32x8"),
        pytest.param("int64x8", "WGSL vectors have 2, 3 or 4 lanes", id="int64x8"),
        pytest.param("uint64x8", "WGSL vectors have 2, 3 or 4 lanes", id="uint64x8"),
        pytest.param("float4_e2m1fn", "WGSL has no such type", id="float4_e2m1fn"),
        pytest.param("float6_e2m3fn", "WGSL has no such type", id="float6_e2m3fn"),
    ],
)
def test_webgpu_says_why_it_lacks_a_type(dtype, reason):
    """The ValueError for a type WGSL lacks gives the reason WGSL lacks it"""
    with pytest.raises(ValueError, match=rf"the type {dtype}: {reason}$"):
        tvm_tirx.tirx.compile(_cast_kernel(dtype), target="webgpu")


@pytest.mark.parametrize(
    "dtype, scalar",
    [pytest.param(t, "int32", id=t) for t in ["int32", "uint32", "float16", "float32x4", "int8x4"]]
    + [pytest.param(t, "int64", id=f"int64-argument-{t}") for t in ("int32", "float32")],
)
def test_webgpu_compiles_the_types_it_has(dtype, scalar):
    """The types WGSL has compile, and an int64 argument, which the WebGPU build narrows to i32"""
    tvm_tirx.tirx.compile(_cast_kernel(dtype, scalar), target="webgpu")


def _argument_kernel(dtype):
    """A device kernel that stores its ``dtype`` argument, as the code generator receives it"""

    @T.function
    def main(A_ptr: T.Ptr(getattr(T, dtype)), n: getattr(T, dtype)):
        T.func_attr({"calling_conv": 2})
        A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((1,), dtype)])
        A[0] = n

    return main


@pytest.mark.xfail(
    strict=True,
    raises=RuntimeError,
    reason="WebGPU refuses a dtype the target lacks with a failed internal check",
)
@pytest.mark.parametrize("dtype", ["float16", "bool"])
def test_webgpu_codegen_rejects_a_narrow_kernel_argument(dtype):
    """A kernel argument WGSL has but the runtime cannot pass (not 32-bit) is a ValueError"""
    mod = tvm_tirx.IRModule({"main": _argument_kernel(dtype)})
    with pytest.raises(ValueError, match=rf"cannot pass a kernel argument of type {dtype}:"):
        tvm_tirx.codegen.build_module(mod, "webgpu")


def _view_at_address(use, address, scope="global", context=None):
    """A kernel with workgroup memory ``S`` and a view ``V`` at ``address(X, S, t)`` that it
    reads ``A`` through, writes ``B`` through or never accesses; declared after a view ``U``
    of ``A`` or ``S``, after a kernel, or under a condition"""
    one, four = T.Tensor((1,), "float32", scope=scope), T.Tensor((4,), "float32", scope="shared")

    @T.macro
    def read(A, B, S, t):
        V = T.decl_tensor(address(A, S, t), ty_args=[one])
        B[t] = V[0]

    @T.macro
    def written(A, B, S, t):
        V = T.decl_tensor(address(B, S, t), ty_args=[one])
        V[0] = A[t]

    @T.macro
    def unused(A, B, S, t):
        V = T.decl_tensor(address(A, S, t), ty_args=[one])  # noqa: F841
        B[t] = A[t]

    view = {"read": read, "written": written, "unused": unused}[use]

    @T.macro
    def kernel(A, B):
        with T.launch_thread("threadIdx.x", 4) as t:
            B[t] = A[t]

    @T.macro
    def parameter_view(A, S):
        U = T.decl_tensor(A.data, ty_args=[T.Tensor((4,), "float32")])  # noqa: F841

    @T.macro
    def workgroup_view(A, S):
        U = T.decl_tensor(S.data, ty_args=[four])  # noqa: F841

    @T.macro
    def condition(A, B, S, t):
        if t > 0:
            view(A, B, S, t)

    first = kernel if context == "kernel" else _nothing
    prior = {"parameter-view": parameter_view, "workgroup-view": workgroup_view}
    prior = prior.get(context, _nothing)
    body = condition if context == "condition" else view

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
        first(A, B)
        with T.launch_thread("threadIdx.x", 4) as t:
            S = T.alloc_shared((4,), "float32")
            S[t] = A[t]
            prior(A, S)
            body(A, B, S, t)

    return main


_FLOAT_PTR = tvm_tirx.ir.PtrType(tvm_tirx.ir.PrimType("float32"))


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="WebGPU view at an address is refused by a failed check naming no view",
)
@pytest.mark.parametrize("use", ["read", "written", "unused"])
@pytest.mark.parametrize(
    "address, scope, context",
    [
        pytest.param(lambda X, S, t: T.address_of(X[0]), "global", None, id="element-0"),
        pytest.param(lambda X, S, t: T.address_of(X[t]), "global", None, id="thread-element"),
        pytest.param(
            lambda X, S, t: T.ptr_byte_offset(X.data, t * 4, ty=_FLOAT_PTR),
            "global",
            None,
            id="byte-offset",
        ),
        pytest.param(lambda X, S, t: T.address_of(S[t]), "shared", None, id="workgroup-element"),
        pytest.param(lambda X, S, t: T.address_of(t), "global", None, id="scalar-address"),
    ]
    + [
        pytest.param(lambda X, S, t: T.address_of(X[t]), "global", after, id=f"after-a-{after}")
        for after in ("parameter-view", "workgroup-view", "kernel")
    ]
    + [
        pytest.param(
            lambda X, S, t: T.address_of(X[t]), "global", "condition", id="under-a-condition"
        )
    ],
)
def test_webgpu_rejects_a_view_at_an_address(use, address, scope, context):
    """A view a kernel declares at an address is a ValueError naming the view"""
    with pytest.raises(ValueError, match=r"cannot declare tensor V over .*pointer casts"):
        tvm_tirx.tirx.compile(_view_at_address(use, address, scope, context), target="webgpu")


@T.function
def _view_of_parameter(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    with T.launch_thread("threadIdx.x", 4) as t:
        V = T.decl_tensor(A.data, ty_args=[T.Tensor((4,), "float32")])
        B[t] = V[t]


@T.function
def _view_of_shared_allocation(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    with T.launch_thread("threadIdx.x", 4) as t:
        S = T.alloc_shared((4,), "float32")
        S[t] = A[t]
        V = T.decl_tensor(S.data, ty_args=[T.Tensor((4,), "float32", scope="shared")])
        B[t] = V[t]


@T.function
def _host_view_at_address(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    A_1 = T.decl_tensor(T.address_of(A[1]), ty_args=[T.Tensor((1,), "float32")])
    with T.launch_thread("threadIdx.x", 4) as t:
        B[t] = A_1[0]


@pytest.mark.parametrize(
    "func", [_view_of_parameter, _view_of_shared_allocation, _host_view_at_address]
)
def test_webgpu_compiles_the_views_it_can_express(func):
    """A kernel's views of a parameter and an allocation, and a host view, still compile"""
    tvm_tirx.tirx.compile(func, target="webgpu")


if __name__ == "__main__":
    tvm_tirx.testing.main()

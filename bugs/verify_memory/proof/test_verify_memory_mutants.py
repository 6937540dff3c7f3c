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
"""The dimensions along which tool-made mutants of the VerifyMemory reference fix
(docs/mutants.md) changed the verdict, each swept here (this repository only).

* the call a host load sits in: any call, those whose op name sorts before
  ``tirx.address_of`` included, is no address computation;
* the pointer a view is declared over: a DLTensor field read by ``tvm_struct_get`` from a
  pointer parameter is that parameter's memory;
* the scope of an allocation: only a kernel's ``shared.dyn`` shape is a launch parameter
  (``warp``, ``wmma.accumulator`` are kernel code), only a ``global`` host allocation is device
  memory (``amx.tmm`` sorts before it and is not);
* the value of ``disable_lower_builtin``: any nonzero value, negative ones included;
* the function: one without a target is not checked; only the default calling convention (0,
  written or not) is checked, any other value (1, 2, -1) is not; a PrimFunc after a Relax
  function or an ExternFunc is checked;
* how the pass runs: a Sequential runs it under opt level 0 and skips it under -1, as TVM's own.

Every case but the ``tvm_struct_get`` views passes with the released verifier too: only the
mutants change its verdict.
"""

import pytest
import tvm_ffi

import tvm
import tvm.testing
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T

ALIAS_BUG = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,  # pytest.raises: DID NOT RAISE
    reason="VerifyMemory never fires inside tvm.compile: aliases, pointer arithmetic, webgpu",
)
HOST_ACCESS = "is directly accessed by host memory"


def _rejects(mod):
    """Whether the installed VerifyMemory pass rejects ``mod``."""
    try:
        tvm.tirx.transform.VerifyMemory()(mod)
    except RuntimeError as err:
        assert HOST_ACCESS in str(err)
        return True
    return False


@pytest.mark.parametrize("call", ["acos", "acosh", "exp", "sqrt"])
def test_host_load_inside_a_call_is_a_host_access(call):
    """A host load of a parameter inside a call's argument is a host access, whatever the call."""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        T.evaluate(getattr(T, call)(A[0]))

    with pytest.raises(RuntimeError, match=f"Variable `A` {HOST_ACCESS}"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


def _struct_get_bound(target):
    @T.prim_func
    def func(args: T.handle, n: T.int32):
        T.func_attr({"target": T.target(target)})
        data: T.let[T.handle] = T.tvm_struct_get(args, 0, 1, "handle")
        A = T.decl_buffer((16,), "float32", data=data)
        A[0] = T.float32(1.0)

    return func


def _struct_get_inline(target):
    @T.prim_func
    def func(args: T.handle, n: T.int32):
        T.func_attr({"target": T.target(target)})
        A = T.decl_buffer((16,), "float32", data=T.tvm_struct_get(args, 0, 1, "handle"))
        A[0] = T.float32(1.0)

    return func


@ALIAS_BUG
@pytest.mark.parametrize("view", [_struct_get_bound, _struct_get_inline], ids=["let", "inline"])
def test_host_access_through_tvm_struct_get_of_a_pointer_parameter(view):
    """A view over tvm_struct_get(p, ...) of a pointer parameter p is p's memory on the host."""
    with pytest.raises(RuntimeError, match=f"Variable `A` {HOST_ACCESS}"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": view("cuda")}))


@pytest.mark.parametrize("scope", ["shared", "local", "warp", "wmma.accumulator"])
def test_kernel_allocation_shape_is_kernel_code_but_for_shared_dyn(scope):
    """The shape of a kernel's allocation in any scope but shared.dyn is kernel code."""

    @T.prim_func
    def func(A: T.Buffer((64,), "float32"), L: T.Buffer((1,), "int32")):
        T.func_attr({"target": T.target("cuda")})
        with T.launch_thread("blockIdx.x", 8) as bx:
            S = T.alloc_buffer((L[0],), "float32", scope=scope)
            S[0] = T.float32(1)
            A[bx] = S[0]

    assert not _rejects(tvm.IRModule({"main": func}))


@pytest.mark.parametrize("target", ["cuda", "vulkan"])
@pytest.mark.parametrize("scope", ["amx.tmm", "local", "shared"])
def test_host_allocation_of_another_scope_than_global_is_not_checked(scope, target):
    """Only a global host allocation is device memory: one of any other scope is not checked."""

    @T.prim_func
    def func(x: T.float32):
        T.func_attr({"target": T.target(target)})
        acc = T.alloc_buffer((2,), "float32", scope=scope)
        acc[0] = x

    assert tvm.tirx.analysis.verify_memory(func)


@pytest.mark.parametrize("value", [1, 2, -1, -2])
def test_host_allocation_with_nonzero_disable_lower_builtin_stays_on_host(value):
    """Any nonzero disable_lower_builtin, negative ones included, keeps a host allocation."""

    @T.prim_func
    def func(x: T.float32):
        T.func_attr({"target": T.target("cuda")})
        acc = T.alloc_buffer((2,), "float32", annotations={"disable_lower_builtin": value})
        acc[0] = x

    assert tvm.tirx.analysis.verify_memory(func)


def _untargeted_public():
    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        A[0] = T.float32(1.0)

    return func


def _untargeted_private():
    @T.prim_func(private=True)
    def func(A: T.Buffer((16,), "float32")):
        A[0] = T.float32(1.0)

    return func


@pytest.mark.parametrize(
    "make", [_untargeted_public, _untargeted_private], ids=["public", "private"]
)
def test_function_without_target_is_not_checked(make):
    """A function without a target is not checked: it is valid whatever it accesses."""
    assert tvm.tirx.analysis.verify_memory(make())


@pytest.mark.parametrize("target", ["cuda", "opencl"])
@pytest.mark.parametrize(
    "calling_conv, checked", [(None, True), (0, True), (1, False), (2, False), (-1, False)]
)
def test_only_the_default_calling_convention_is_checked(calling_conv, checked, target):
    """Only a function of the default calling convention (0, written or not) is checked."""
    attrs = {"target": T.target(target)}
    if calling_conv is not None:
        attrs["calling_conv"] = calling_conv

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr(attrs)
        B[0] = A[0]

    assert _rejects(tvm.IRModule({"main": func})) == checked


def _host_store(target):
    @T.prim_func
    def kernel(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        B[0] = A[0]

    return kernel


@I.ir_module
class _Relax:
    @R.function
    def main(x: R.Tensor((16,), "float32")):
        return x


@pytest.mark.parametrize("first", ["relax_function", "extern_func"])
def test_prim_func_after_another_kind_of_function_is_checked(first):
    """A PrimFunc that follows a Relax function or an ExternFunc in the module is checked."""
    other = _Relax["main"] if first == "relax_function" else relax.ExternFunc("ext")
    mod = tvm.IRModule({"other": other, "kernel": _host_store("cuda")})
    with pytest.raises(RuntimeError, match=f"Variable `B` {HOST_ACCESS}"):
        tvm.tirx.transform.VerifyMemory()(mod)


@pytest.mark.parametrize("target", ["cuda", "opencl"])
@pytest.mark.parametrize("opt_level", [-1, 0, 1, 3])
def test_sequential_runs_the_pass_at_the_released_opt_level(opt_level, target):
    """A Sequential runs the pass under opt level 0 and above and skips it under -1, as TVM's."""
    mod = tvm.IRModule({"main": _host_store(target)})
    released = tvm_ffi.get_global_func("tirx.transform.VerifyMemory")
    verdicts = []
    for make in (tvm.tirx.transform.VerifyMemory, released):
        with tvm.transform.PassContext(opt_level=opt_level):
            try:
                tvm.transform.Sequential([make()])(mod)
                verdicts.append("accepted")
            except RuntimeError:
                verdicts.append("rejected")
    assert verdicts[0] == verdicts[1]


if __name__ == "__main__":
    tvm.testing.main()

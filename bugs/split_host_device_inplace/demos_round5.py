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
"""Blind round 5 demos of SplitHostDevice's wrong fixes (apache/tvm)."""

import tvm
from harness.blind_demo import Demo, split_module
from tvm.script import ir as I
from tvm.script import tirx as T


def launch_under_if():
    """A kernel launched inside a host ``if`` on a scalar parameter (opencl, llvm host)."""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), n: T.int32):
            T.func_attr({"target": T.target("opencl", host="llvm")})
            if n > 0:
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = A[i] * T.float32(2)

    return Module


def two_launches():
    """One host function that launches two kernels one after the other."""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)
            with T.launch_thread("threadIdx.x", 8) as j:
                B[j] = A[j]

    return Module


def same_loop_var_nested():
    """A host-only llvm function (no kernel) whose inner loop rebinds the outer loop's variable:
    ConvertSSA, the pass's tail, renames it."""

    @T.prim_func
    def main(A: T.Buffer((8,), "int32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(4):
            A[i] = i

    loop = main.body
    body = tvm.tirx.For(loop.loop_var, 0, 2, loop.kind, loop)
    return tvm.IRModule({"main": main.with_body(body)})


def already_split():
    """A host function calling a cuda kernel it was already split from (no device region
    left): LowerDeviceKernelLaunches, the pass's tail, turns the call into a launch."""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            Module.kern(A.data)

        @T.prim_func(private=True)
        def kern(A_ptr: T.handle("float32")):
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer((8,), "float32", data=A_ptr)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    return Module


def with_module_attrs():
    """A kernel in a module that carries module attributes."""
    mod = launch_under_if()
    return mod.with_attrs({"system_lib_prefix": "lib_", "runtime_note": "kept"})


def host_helper_and_kernel():
    """A host-only llvm helper that the pass leaves alone, beside a function with a kernel."""

    @I.ir_module
    class Module:
        @T.prim_func
        def helper(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = T.float32(0)

        @T.prim_func
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    return Module


def input_after(mod):
    """Observer: the input module's functions, after SplitHostDevice()(mod)."""
    tvm.tirx.transform.SplitHostDevice()(mod)
    names = sorted(gv.name_hint for gv in mod.get_global_vars())
    return f"input now holds {names}"


def input_main_after(mod):
    """Observer: the input's main, as printed after SplitHostDevice()(mod)."""
    tvm.tirx.transform.SplitHostDevice()(mod)
    return " | ".join(x.strip() for x in mod["main"].script().splitlines()[-3:])


def output_attrs(mod):
    """Observer: the output module's attributes."""
    out = tvm.tirx.transform.SplitHostDevice()(mod)
    return f"output attrs: {dict(out.attrs) if out.attrs is not None else None}"


def output_names(mod):
    """Observer: the output module's functions."""
    out = tvm.tirx.transform.SplitHostDevice()(mod)
    return f"output holds {sorted(gv.name_hint for gv in out.get_global_vars())}"


DEMOS = {
    "blind5-only-under-immutable": Demo(launch_under_if, input_after),
    "blind5-host-update-in-place": Demo(two_launches, input_main_after),
    "blind5-early-return": Demo(same_loop_var_nested, split_module),
    "blind5-lower-inside-guard": Demo(already_split, split_module),
    "blind5-copy-drops-attrs": Demo(with_module_attrs, output_attrs),
    "blind5-new-module-of-updates": Demo(host_helper_and_kernel, output_names),
}

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
"""Blind round 5 demos of SplitHostDevice's wrong fixes (apache/tvm-tirx): the programs of
demos_round5.py written for that line; the observers are the same."""

import tvm_tirx
from tvm_tirx.script import ir as I
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo, split_module
from harness.tvm_line import function_like

CUDA = {"kind": "cuda", "arch": "sm_80", "host": "llvm"}


def launch_under_if():
    """A kernel launched inside a host ``if`` on a scalar parameter (opencl, llvm host)."""

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((8,), "float32"), n: T.int32):
            T.func_attr({"target": T.target({"kind": "opencl", "host": "llvm"})})
            if n > 0:
                with T.launch_thread("threadIdx.x", 8) as i:
                    A[i] = A[i] * T.float32(2)

    return Module


def two_launches():
    """One host function that launches two kernels one after the other."""

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target(CUDA)})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)
            with T.launch_thread("threadIdx.x", 8) as j:
                B[j] = A[j]

    return Module


def same_loop_var_nested():
    """A host-only llvm function whose inner loop rebinds the outer loop's variable."""

    @T.function
    def main(A: T.Tensor((8,), "int32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(4):
            A[i] = i

    loop = main.body.seq[-1]
    outer = type(loop)(loop.var, 0, 2, 1, loop.kind, loop)
    return tvm_tirx.IRModule({"main": function_like(main, main.params, outer)})


def already_split():
    """A host function calling a cuda kernel it was already split from."""

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target(CUDA)})
            Module.kern(A.data)

        @T.function(private=True)
        def kern(A_ptr: T.Ptr(T.float32)):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"})})
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    return Module


def with_module_attrs():
    return launch_under_if().with_attrs({"system_lib_prefix": "lib_", "runtime_note": "kept"})


def host_helper_and_kernel():
    """A host-only llvm helper that the pass leaves alone, beside a function with a kernel."""

    @I.ir_module
    class Module:
        @T.function
        def helper(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = T.float32(0)

        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target(CUDA)})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    return Module


def _split(mod):
    return tvm_tirx.tirx.transform.SplitHostDevice()(mod)


def input_after(mod):
    _split(mod)
    return f"input now holds {sorted(gv.name_hint for gv in mod.get_global_vars())}"


def input_main_after(mod):
    _split(mod)
    return " | ".join(x.strip() for x in mod["main"].script().splitlines()[-3:])


def output_attrs(mod):
    out = _split(mod)
    return f"output attrs: {dict(out.attrs) if out.attrs is not None else None}"


def output_names(mod):
    return f"output holds {sorted(gv.name_hint for gv in _split(mod).get_global_vars())}"


DEMOS = {
    "blind5-only-under-immutable": Demo(launch_under_if, input_after),
    "blind5-host-update-in-place": Demo(two_launches, input_main_after),
    "blind5-early-return": Demo(same_loop_var_nested, split_module),
    "blind5-lower-inside-guard": Demo(already_split, split_module),
    "blind5-copy-drops-attrs": Demo(with_module_attrs, output_attrs),
    "blind5-new-module-of-updates": Demo(host_helper_and_kernel, output_names),
}

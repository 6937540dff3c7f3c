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
"""Programs on which SplitHostDevice's reference fix and blind wrong fixes differ, on
apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py
--bug split_host_device_inplace), every round's.

demos.py's entries, their programs made of this line's functions (a device region is a
``T.launch_thread`` region), with demos.py's observers; each entry's comment is there. Left out:
the wrong fixes that show on apache/tvm only (wrong_fixes.toml: not_on_tvm_tirx; every region
tvm-tirx splits is a thread launch or a device scope, and its output is in SSA form either way),
and the demos of a module's global infos of rounds 6 and 7 (tvm-tirx 0.1.0a4 registers no
GlobalInfo that Python can make)."""

import sys

from bugs.split_host_device_inplace.demos import entries, programs
from harness.blind_demo import without
from harness.tvm_line import function_like

TARGETS = {
    "cuda": {"kind": "cuda", "arch": "sm_80", "host": "llvm"},
    "opencl": {"kind": "opencl", "host": "llvm"},
}


def device_region(name="main", kind="cuda"):
    """A public function ``name`` whose 8 threads add 1 to a float32 buffer (``kind``, llvm
    host)."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32")):
        T.func_attr({"target": T.target(TARGETS[kind])})
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = A[i] + T.float32(1)

    return main.with_attr("global_symbol", name)


def host_only():
    """A function of the CPU (llvm), no device region."""
    from tvm_tirx.script import tirx as T

    @T.function
    def a_host(B: T.Tensor((4,), "int32")):
        T.func_attr({"target": T.target({"kind": "llvm"})})
        for j in range(4):
            B[j] = j

    return a_host


def launch_under_if():
    """A kernel launched inside a host ``if`` on a scalar parameter (opencl, llvm host)."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32"), n: T.int32):
        T.func_attr({"target": T.target(TARGETS["opencl"])})
        if n > 0:
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] * T.float32(2)

    return main


def two_launches():
    """One host function that launches two kernels one after the other."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
        T.func_attr({"target": T.target(TARGETS["cuda"])})
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = A[i] + T.float32(1)
        with T.launch_thread("threadIdx.x", 8) as j:
            B[j] = A[j]

    return main


def split_by_hand():
    """A module already split: ``main`` calls its private cuda kernel (nothing to split)."""
    from tvm_tirx.script import ir as I
    from tvm_tirx.script import tirx as T

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target(TARGETS["cuda"])})
            Module.kernel(A.data)

        @T.function(private=True)
        def kernel(A_ptr: T.Ptr(T.float32)):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"})})
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    return Module


def loops_bound_twice():
    """A host-only function whose two loops bind one variable (not in SSA form)."""
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32")):
        T.func_attr({"target": T.target({"kind": "llvm"})})
        for i in range(4):
            A[i] = T.float32(0)

    *decls, loop = main.body.seq
    return tvm_tirx.IRModule({"main": main.with_body(tvm_tirx.ir.SeqStmt([*decls, loop, loop]))})


def loop_in_loop_of_its_variable():
    """A host-only llvm function whose inner loop rebinds the outer loop's variable."""
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "int32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(4):
            A[i] = i

    loop = main.body.seq[-1]
    outer = type(loop)(loop.var, 0, 2, 1, loop.kind, loop)
    return tvm_tirx.IRModule({"main": function_like(main, main.params, outer)})


def bound_twice():
    """A host-only function (nothing to split, cuda target) that binds ``x`` twice: ``x = 1;
    x = 2``."""
    import tvm_tirx

    ir = tvm_tirx.ir
    x = ir.Var("x", "int32")
    stmts = []
    for value in (1, 2):
        stmts += [ir.Bind(x, tvm_tirx.tirx.const(value, "int32")), ir.Evaluate(x)]
    func = tvm_tirx.tirx.Function([], ir.SeqStmt(stmts))
    target = tvm_tirx.target.Target(TARGETS["cuda"])
    return tvm_tirx.IRModule({"main": func.with_attr("target", target)})


DEMOS = without(
    entries(programs(sys.modules[__name__])),
    "blind2-thread-launch-only",
    "blind3-convert-ssa-in-guard",
    "blind6-shd-copy-drops-global-infos",
    "blind7-guard-returns-early",
    "blind7-copy-drops-global-infos",
)

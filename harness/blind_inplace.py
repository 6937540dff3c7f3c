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
"""Programs and observations the third round's demos of the in-place passes share.

The demos of annotate_entry_func_inplace, split_host_device_inplace and lower_iket_inplace (the
passes AnnotateEntryFunc, SplitHostDevice and LowerIket) share a few small modules, on either TVM
line, and a summary of a module that shows what a pass changed in it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.tvm_line import LINE

if LINE == "tvm":
    import tvm
    from tvm.script import ir as I
    from tvm.script import relax as R
    from tvm.script import tirx as T

    Tensor = T.Buffer
else:
    import tvm_tirx as tvm
    from tvm_tirx.script import ir as I
    from tvm_tirx.script import tirx as T

    Tensor = T.Tensor

IMMUTABLE = {"testing.immutable_module": True}


def one_function():
    """A module of one public function."""
    if LINE == "tvm":

        @T.prim_func
        def main(A: Tensor((8,), "float32")):
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    else:

        @T.function
        def main(A: Tensor((8,), "float32")):
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    return tvm.IRModule({"main": main}, attrs={"note": "kept"})


def public_and_private():
    """One public function and one private function."""
    if LINE == "tvm":

        @I.ir_module
        class Module:
            @T.prim_func
            def main(A: Tensor((8,), "float32")):
                for i in range(8):
                    A[i] = A[i] + T.float32(1)

            @T.prim_func(private=True)
            def helper(A: Tensor((8,), "float32")):
                for i in range(8):
                    A[i] = T.float32(0)

        return Module.with_attr("note", "kept")

    @T.function
    def main(A: Tensor((8,), "float32")):
        for i in range(8):
            A[i] = A[i] + T.float32(1)

    @T.function(private=True)
    def helper(A: Tensor((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)

    return tvm.IRModule({"main": main, "helper": helper}, attrs={"note": "kept"})


def summary(mod):
    """The module's functions with their attribute keys, its attributes and global infos."""
    funcs = []
    for gv, func in sorted(mod.functions_items(), key=lambda kv: kv[0].name_hint):
        keys = sorted(
            k for k in (func.attrs.keys() if func.attrs is not None else []) if k != "target"
        )
        funcs.append(f"{gv.name_hint}{keys}")
    attrs = sorted(mod.attrs.keys()) if mod.attrs is not None else []
    infos = sorted(mod.global_infos.keys()) if mod.global_infos is not None else []
    return f"functions {funcs} attrs {attrs} global_infos {infos}"


def before_and_after(mod, make_pass, config=None):
    """Run the pass on ``mod``: the summaries of the input afterwards and of the output, and
    whether the input still equals a twin built alike (structurally)."""
    twin = mod.clone()
    twin_text = twin.script()
    with tvm.transform.PassContext(config=config or {}):
        out = make_pass()(mod)
    changed = mod.script() != twin_text
    return f"input changed: {changed}\ninput:  {summary(mod)}\noutput: {summary(out)}"


def with_vdevice(mod):
    """``mod`` with a global info (a vdevice: apache/tvm only; tvm-tirx has no concrete global
    info to make)."""
    if LINE != "tvm":
        raise NotImplementedError("tvm-tirx has no concrete GlobalInfo")
    from tvm.script import ir as I_

    mod = mod.clone()
    mod.update_global_info("vdevice", [I_.vdevice("llvm")])
    return mod


def annotate_entry_func():
    return tvm.tirx.transform.AnnotateEntryFunc()


def split_host_device():
    return tvm.tirx.transform.SplitHostDevice()


def device_region():
    """A function with one device region (cuda, llvm host), as the pipeline hands it to
    SplitHostDevice; the module carries the attribute 'note'."""
    if LINE == "tvm":

        @T.prim_func(s_tir=True)
        def main(A: Tensor((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    else:

        @T.function
        def main(A: Tensor((8,), "float32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    return tvm.IRModule({"main": main}, attrs={"note": "kept"})


def split_by_hand():
    """A module split by hand (apache/tvm): a host function calling a private cuda kernel."""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            Module.kernel(A.data)

        @T.prim_func(private=True)
        def kernel(A_data: T.handle("float32")):
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer((8,), "float32", data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    return Module


def loop_var_bound_twice():
    """A host-only llvm function (apache/tvm) whose two loops bind the same variable: valid
    TIR, not in SSA form (ConvertSSA, inside SplitHostDevice, renames the second)."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(8):
            A[i] = T.float32(1)
        for j in range(8):
            A[j] = A[j] + T.float32(2)

    first, _ = list(main.body.seq)
    i, buf = first.loop_var, first.body.buffer
    store = tvm.tirx.BufferStore(
        buf, tvm.tirx.BufferLoad(buf, [i]) + tvm.tirx.const(2, "float32"), [i]
    )
    second = tvm.tirx.For(i, 0, 8, tvm.tirx.ForKind.SERIAL, store)
    return tvm.IRModule({"main": main.with_body(tvm.tirx.SeqStmt([first, second]))})


def script_without_attrs(mod):
    """The module's script without the func_attr lines."""
    return "\n".join(
        x for x in mod.script().splitlines() if "func_attr" not in x and not x.startswith("#")
    )


def split_output(mod):
    """SplitHostDevice's output: its script without attributes, and each function's attribute
    keys."""
    out = split_host_device()(mod)
    return summary(out) + "\n" + script_without_attrs(out)


def split_output_ssa(mod):
    """SplitHostDevice's output: whether each function is in SSA form (apache/tvm)."""
    out = split_host_device()(mod)
    return {gv.name_hint: bool(tvm.tirx.analysis.verify_ssa(f)) for gv, f in out.functions_items()}


def lower_iket():
    if LINE == "tvm":
        from tvm.backend.cuda.transforms import LowerIket
    else:
        from tvm_tirx.backend.cuda.transform import LowerIket
    return LowerIket()


def five_marked_kernels():
    """Five private cuda kernels (sm_90a), each with an IKET mark, as SplitHostDevice leaves
    them, in a module built from a dict (apache/tvm)."""

    @T.prim_func(private=True)
    def kernel(A: T.Buffer((32,), "int32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
        tx = T.launch_thread("threadIdx.x", 32)
        T.cuda.iket.mark("store")
        A[tx] = A[tx] + 1

    return tvm.IRModule({f"kernel_{k}": kernel for k in range(5)})


def two_marked_kernels(enabled=None):
    """Two cuda kernels (sm_90a) with the marks "first" and "second" (apache/tvm); with
    ``enabled``, the module attribute tirx.iket.enabled set to it."""

    @I.ir_module
    class Module:
        @T.prim_func
        def main_kernel(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark("first")
            A[tx] = tx

        @T.prim_func
        def main_kernel_1(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark("second")
            A[tx] = A[tx] + 1

    return Module if enabled is None else Module.with_attr("tirx.iket.enabled", enabled)


def marked_kernel_and_relax_function():
    """A marked cuda kernel and a Relax function in one module (apache/tvm)."""

    @I.ir_module
    class Module:
        @T.prim_func
        def main_kernel(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark("first")
            A[tx] = tx

        @R.function
        def entry(x: R.Tensor((32,), "int32")) -> R.Tensor((32,), "int32"):
            return x

    return Module


def iket_result(mod):
    """LowerIket on ``mod``: whether the input changed, the output's functions, the kernels
    still marked, and the IKET events each kernel emits."""
    twin_text = mod.script()
    out = lower_iket()(mod)
    marked = sorted(gv.name_hint for gv, f in out.functions_items() if "iket.mark" in f.script())
    events = {
        gv.name_hint: [
            x.strip().split(",")[0] for x in f.script().splitlines() if "official_event" in x
        ]
        for gv, f in sorted(out.functions_items(), key=lambda kv: kv[0].name_hint)
    }
    return (
        f"input changed: {mod.script() != twin_text}\n"
        f"output functions: {sorted(gv.name_hint for gv in out.get_global_vars())}\n"
        f"still marked: {marked}\nevents: {events}"
    )


CHILD_ENV = {
    "TVM_IKET_INJECTED_CHILD_ENABLE": "1",
    "TVM_IKET_OFFICIAL_PROFILE": "cutlass-4.6.0",
    "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
    "SMODEL_INJECTION_CONFIG": "/nonexistent/config.json",
}


def in_run_iket_child(mod):
    """``mod``, with this process's environment made that of a verified run-iket child."""
    import os

    os.environ.update(CHILD_ENV)
    return mod

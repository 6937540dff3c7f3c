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
"""Programs on which SplitHostDevice's reference fix and each blind wrong fix differ, on
apache/tvm (harness/blind_demo.py; run with scripts/blind_demos.py --bug
split_host_device_inplace).

The programs are modules (attribute 'note') of functions with a cuda device region (a
``T.attr(target, "target", 0)`` region, llvm host), as the pipeline hands them to
SplitHostDevice; the observers (harness/blind_inplace.py) show whether the caller's module
changed and what the split made."""

import tvm
from harness.blind_demo import Demo
from harness.blind_inplace import (
    IMMUTABLE,
    NOTE,
    before_and_after,
    module_of,
    output_script,
    split_host_device,
)
from tvm.script import ir as I
from tvm.script import tirx as T


def device_region(name="main"):
    """A public function ``name`` whose 8 threads add 1 to a float32 buffer."""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] + T.float32(1)

    return main.with_attr("global_symbol", name)


def serial_region():
    """A device region without a thread launch: a single-threaded kernel of a serial loop."""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)
        for i in range(8):
            A[i] = A[i] + T.float32(1)

    return main


def host_only():
    """A function of the CPU (llvm), no device region."""

    @T.prim_func(s_tir=True)
    def a_host(B: T.Buffer((4,), "int32")):
        T.func_attr({"target": T.target("llvm")})
        for j in range(4):
            B[j] = j

    return a_host


def split_by_hand():
    """A host function calling a private cuda kernel: nothing left to split."""

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
    """A host-only llvm function whose two loops bind one variable: valid TIR, not in SSA form
    (ConvertSSA, inside SplitHostDevice, renames the second)."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(8):
            A[i] = T.float32(1)
        for j in range(8):
            A[j] = A[j] + T.float32(2)

    first, _ = list(main.body.seq)
    i, buf = first.loop_var, first.body.buffer
    plus_two = tvm.tirx.BufferLoad(buf, [i]) + tvm.tirx.const(2, "float32")
    second = tvm.tirx.For(
        i, 0, 8, tvm.tirx.ForKind.SERIAL, tvm.tirx.BufferStore(buf, plus_two, [i])
    )
    return tvm.IRModule({"main": main.with_body(tvm.tirx.SeqStmt([first, second]))})


def split_in_ssa(mod):
    """Whether each function of SplitHostDevice's output is in SSA form."""
    out = split_host_device()(mod)
    return {gv.name_hint: bool(tvm.tirx.analysis.verify_ssa(f)) for gv, f in out.functions_items()}


ONE = module_of(NOTE, main=device_region)
HOST_FIRST = module_of(NOTE, a_host=host_only, main=device_region)
CHANGED = before_and_after(split_host_device)
SPLIT = output_script(split_host_device)

DEMOS = {
    # the input stays unsplit; the wrong fix copies the pass's result, not its input
    "blind2-clone-result": Demo(ONE, CHANGED),
    # two functions to split under testing.immutable_module: the wrong fix runs the pass on a
    # copy but in the caller's context, which trips on the copy being written
    "blind2-immutable-kept": Demo(
        module_of(NOTE, main=device_region, other=lambda: device_region("other")),
        before_and_after(split_host_device, IMMUTABLE),
    ),
    # the output keeps the module's attributes; the wrong fix's copy drops them
    "blind2-copy-drops-attrs": Demo(ONE, CHANGED),
    # a region without a thread launch: the wrong fix copies only for a thread launch
    "blind2-thread-launch-only": Demo(module_of(NOTE, main=serial_region), CHANGED),
    # a host-only function first, then one to split: the wrong fix decides from the first
    "blind2-first-function-only": Demo(HOST_FIRST, CHANGED),
    # the host function launches its kernel; the wrong fix returns the copy it handed the pass
    # (split in place, its launches not lowered)
    "blind2-return-copy": Demo(ONE, SPLIT),
    # the input keeps its unsplit main; the wrong fix copies before the second write only
    "blind3-host-update-in-place": Demo(ONE, CHANGED),
    # split by hand, nothing to split: the call still becomes a kernel launch and the kernel
    # gets calling_conv 2; the wrong fix returns early, unlowered
    "blind3-early-return-unlowered": Demo(split_by_hand, SPLIT),
    # a host-only function not in SSA form: the output is; the wrong fix runs ConvertSSA only
    # where something was split
    "blind3-convert-ssa-in-guard": Demo(loop_var_bound_twice, split_in_ssa),
    # the output keeps the module attribute; the wrong fix's copy drops it
    "blind3-copy-drops-attrs": Demo(ONE, CHANGED),
    # the output holds main_kernel, launched from main; the wrong fix writes the split into a
    # copy it then drops
    "blind3-split-result-discarded": Demo(ONE, SPLIT),
    # called plainly, the input stays unsplit; the wrong fix copies only under
    # testing.immutable_module
    "blind3-copy-only-when-immutable": Demo(ONE, CHANGED),
}

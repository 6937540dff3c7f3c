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
--bug split_host_device_inplace).

demos.py's programs and observers in this line's TVMScript (a device region is a
``T.launch_thread`` region); each entry's comment is there. Not here: the two wrong fixes that
show on apache/tvm only (wrong_fixes_round*.NOT_ON_TVM_TIRX: every region tvm-tirx splits is a
thread launch or a device scope, and its output is in SSA form either way)."""

from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo
from harness.blind_inplace import (
    IMMUTABLE,
    NOTE,
    before_and_after,
    module_of,
    output_script,
    split_host_device,
)


def device_region(name="main"):
    """A public function ``name`` whose 8 threads add 1 to a float32 buffer (cuda, llvm host)."""

    @T.function
    def main(A: T.Tensor((8,), "float32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})})
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = A[i] + T.float32(1)

    return main.with_attr("global_symbol", name)


def host_only():
    """A function of the CPU (llvm), no device region."""

    @T.function
    def a_host(B: T.Tensor((4,), "int32")):
        T.func_attr({"target": T.target({"kind": "llvm"})})
        for j in range(4):
            B[j] = j

    return a_host


def split_by_hand():
    """A host function calling a private cuda kernel: nothing left to split."""

    @T.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})})
            T.Call(Module.kernel, [A.data], ty=T.Tuple())

        @T.function(private=True)
        def kernel(A_ptr: T.Ptr(T.float32)):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"})})
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    return Module


ONE = module_of(NOTE, main=device_region)
HOST_FIRST = module_of(NOTE, a_host=host_only, main=device_region)
CHANGED = before_and_after(split_host_device)
SPLIT = output_script(split_host_device)

DEMOS = {
    "blind2-clone-result": Demo(ONE, CHANGED),
    "blind2-immutable-kept": Demo(
        module_of(NOTE, main=device_region, other=lambda: device_region("other")),
        before_and_after(split_host_device, IMMUTABLE),
    ),
    "blind2-copy-drops-attrs": Demo(ONE, CHANGED),
    "blind2-first-function-only": Demo(HOST_FIRST, CHANGED),
    "blind2-return-copy": Demo(ONE, SPLIT),
    "blind3-host-update-in-place": Demo(ONE, CHANGED),
    "blind3-early-return-unlowered": Demo(split_by_hand, SPLIT),
    "blind3-copy-drops-attrs": Demo(ONE, CHANGED),
    "blind3-split-result-discarded": Demo(ONE, SPLIT),
    "blind3-copy-only-when-immutable": Demo(ONE, CHANGED),
}

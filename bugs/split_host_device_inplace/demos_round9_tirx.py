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
"""Blind round 9: split_host_device_inplace's round-9 demos on apache/tvm-tirx.
blind9-copy-drops-global-infos is not among them: apache/tvm-tirx has no concrete GlobalInfo
(no ``I.vdevice``, no other kind registered), so a module's global infos are always empty and a
copy that drops them loses nothing."""

from tvm_tirx.script import ir as I
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo, line_package, script_of, split_module


def kernel_module():
    """A host function with one CUDA kernel, in a module with an attribute."""

    @I.ir_module
    class Before:
        I.module_attrs({"note": "keep"})

        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    return Before


def input_after(mod):
    """Observer: the input module as it is after SplitHostDevice ran on it."""
    line_package().tirx.transform.SplitHostDevice()(mod)
    return script_of(mod)


DEMOS = {
    "blind9-host-written-first": Demo(kernel_module, input_after),
    "blind9-kernels-written-first": Demo(kernel_module, input_after),
    "blind9-copy-after-writes": Demo(kernel_module, input_after),
    "blind9-copy-drops-attrs": Demo(kernel_module, split_module),
    "blind9-input-lowered": Demo(kernel_module, split_module),
    "blind9-only-immutable": Demo(kernel_module, input_after),
}

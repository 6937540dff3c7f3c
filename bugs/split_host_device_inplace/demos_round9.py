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
"""Blind round 9: programs on which split_host_device_inplace's round-9 wrong fixes
differ from the reference fix (apache/tvm)."""

from harness.blind_demo import Demo, line_package, script_of, split_module
from tvm.script import ir as I
from tvm.script import tirx as T


def kernel_module():
    """A host function with one CUDA kernel, as the pipeline hands it to SplitHostDevice, in a
    module with an attribute and a global info."""

    @I.ir_module
    class Before:
        I.module_attrs({"note": "keep"})
        I.module_global_infos({"vdevice": [I.vdevice("llvm")]})

        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    return Before


def input_after(mod):
    """Observer: the input module as it is after SplitHostDevice ran on it."""
    line_package().tirx.transform.SplitHostDevice()(mod)
    return script_of(mod)


def demos(program):
    """The demos, on ``program`` (this line's builder of kernel_module)."""
    return {
        "blind9-host-written-first": Demo(program, input_after),
        "blind9-kernels-written-first": Demo(program, input_after),
        "blind9-copy-after-writes": Demo(program, input_after),
        "blind9-copy-drops-attrs": Demo(program, split_module),
        "blind9-copy-drops-global-infos": Demo(program, split_module),
        "blind9-input-lowered": Demo(program, split_module),
        "blind9-only-immutable": Demo(program, input_after),
    }


DEMOS = demos(kernel_module)

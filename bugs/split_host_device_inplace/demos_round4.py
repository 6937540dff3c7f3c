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
"""Blind round 4 demos of split_host_device_inplace (apache/tvm): modules as the pipeline
hands them to SplitHostDevice (demos.py's device region among them), and what the pass makes of
them and of its input."""

from bugs.split_host_device_inplace.demos import device_region
from harness.blind_demo import Demo
from harness.blind_inplace import (
    input_after,
    module_info,
    module_of,
    output_of,
    split_host_device,
    statements,
    vdevice,
)


def already_split():
    """A module already split: ``main`` calls its kernel ``main_kernel`` (nothing to split)."""
    from tvm.script import ir as I
    from tvm.script import tirx as T

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            Module.main_kernel(A.data)

        @T.prim_func(private=True, s_tir=True)
        def main_kernel(A_data: T.handle("float32")):
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer((8,), "float32", data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    return Module


def rebinds():
    """A host-only function (nothing to split) that binds ``x`` twice: ``x = 1; x = 2``."""
    import tvm
    from tvm import tirx

    x = tirx.Var("x", "int32")
    stmts = []
    for value in (1, 2):
        stmts += [tirx.Bind(x, tirx.const(value, "int32")), tirx.Evaluate(x)]
    func = tirx.PrimFunc([], tirx.SeqStmt(stmts))
    return tvm.IRModule({"main": func.with_attr("target", tvm.target.Target("cuda", host="llvm"))})


INPUT = input_after(split_host_device, statements)
OUTPUT = output_of(split_host_device, statements)
INFO = module_info(split_host_device)
ONE = module_of(main=device_region)

DEMOS = {
    "blind4-copy-after-first-write": Demo(ONE, INPUT),
    "blind4-guard-skips-launch-lowering": Demo(already_split, OUTPUT),
    "blind4-guard-returns-early": Demo(rebinds, OUTPUT),
    "blind4-copy-drops-attrs": Demo(
        module_of({"system_lib_prefix": "lib_"}, main=device_region), INFO
    ),
    "blind4-copy-drops-global-infos": Demo(module_of(infos=vdevice, main=device_region), INFO),
    "blind4-copy-only-under-immutable-option": Demo(ONE, INPUT),
}

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
"""Blind round 4 demos of split_host_device_inplace (apache/tvm-tirx): the programs of
demos_round4.py written for tvm_tirx (demos_tirx.py's device region among them), with its
observers."""

from bugs.split_host_device_inplace.demos_tirx import device_region
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

TARGET = {"kind": "cuda", "arch": "sm_80", "host": "llvm"}


def already_split():
    """A module already split: ``main`` calls its kernel ``main_kernel`` (nothing to split)."""
    from tvm_tirx.script import ir as I
    from tvm_tirx.script import tirx as T

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target(TARGET)})
            Module.main_kernel(A)

        @T.function(private=True)
        def main_kernel(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"})})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    return Module


def rebinds():
    """A host-only function (nothing to split) that binds ``x`` twice: ``x = 1; x = 2``."""
    import tvm_tirx

    ir = tvm_tirx.ir
    x = ir.Var("x", "int32")
    stmts = []
    for value in (1, 2):
        stmts += [ir.Bind(x, tvm_tirx.tirx.const(value, "int32")), ir.Evaluate(x)]
    func = tvm_tirx.tirx.Function([], ir.SeqStmt(stmts))
    target = tvm_tirx.target.Target(TARGET)
    return tvm_tirx.IRModule({"main": func.with_attr("target", target)})


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

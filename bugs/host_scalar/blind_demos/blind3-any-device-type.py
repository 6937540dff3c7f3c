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
"""Demo program on which the reference fix and blind3-any-device-type differ.

LowerTVMBuiltin on the host code of an OpenCL function (device_type 4) with a local array whose
allocation is annotated device_type = 4 (kDLOpenCL), not kDLCPU. The reference rejects the
annotation (only kDLCPU is accepted); the wrong fix allocates the array on the CPU (1, 0)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    import tvm
    from tvm.script import tirx as T

    @T.prim_func
    def func(n: T.int32):
        T.func_attr({"target": T.target("llvm"), "tirx.is_host_func": 1})
        T.attr(0, "device_id", 0)
        T.attr(0, "device_type", 4)
        x = T.alloc_buffer((n,), "float32", scope="local", annotations={"device_type": 4})
        T.evaluate(T.call_extern("int32", "use", x.data))

    return tvm.IRModule({"main": func})


def observe(mod):
    import tvm

    out = tvm.tirx.transform.LowerTVMBuiltin()(mod)
    return [x.strip() for x in out.script().splitlines() if "Workspace" in x]


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind3-any-device-type"))

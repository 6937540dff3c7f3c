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
"""Demo program on which the reference fix and blind3-launched-thread-env-only differ.

The host code of an OpenCL function stores a local cell and hands its pointer to a module
function whose target is OpenCL but which opens no thread environment (LowerDeviceKernelLaunches
launches it as a kernel: its device is not the host's). The reference rejects the kernel's
pointer to host memory; the wrong fix takes the call for a host call and keeps the cell in host
memory (SplitHostDevice's output)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    import tvm
    from tvm.script import ir as I
    from tvm.script import tirx as T

    target = tvm.target.Target("opencl", host="llvm")

    @I.ir_module
    class Module:
        @T.prim_func
        def main(C: T.Buffer((4,), "float32")):
            c = T.alloc_buffer((1,), "float32", scope="local")
            c[0] = T.float32(1.5)
            Module.kern(C.data, c.data)

        @T.prim_func(private=True)
        def kern(C_ptr: T.handle("float32"), c_ptr: T.handle("float32")):
            C = T.decl_buffer((4,), "float32", data=C_ptr)
            c = T.decl_buffer((1,), "float32", data=c_ptr)
            C[0] = c[0]

    device = tvm.target.Target("opencl")
    return tvm.IRModule(
        {
            gvar: func.with_attr("target", target if gvar.name_hint == "main" else device)
            for gvar, func in Module.functions.items()
        }
    )


def observe(mod):
    import tvm

    out = tvm.tirx.transform.SplitHostDevice()(mod)
    return [x.strip() for x in out["main"].script().splitlines() if " = T." in x or "kern" in x]


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind3-launched-thread-env-only"))

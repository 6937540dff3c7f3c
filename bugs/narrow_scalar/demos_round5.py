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
"""Blind round 5 demos of the narrow kernel scalar report on apache/tvm: SplitHostDevice's
output (opencl, llvm host) for a kernel reading a host scalar of one dtype, and for a module
kernel with a symbol of its own that the host launches twice."""

from harness.blind_demo import Demo, split_module, split_or_error


def scalar_kernel(dtype):
    """A kernel storing a host scalar ``x`` of ``dtype`` into ``A``."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), dtype), x: getattr(T, dtype)):
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = x

    return main


def module_kernel():
    """A host function launching the module kernel ``kern`` (symbol ``my_kernel``, int8
    scalar) twice, with two scalars."""
    import tvm
    from tvm.script import ir as I
    from tvm.script import tirx as T

    host = tvm.target.Target("opencl", host="llvm")
    device = tvm.target.Target("opencl")

    @I.ir_module
    class Module:
        @T.prim_func
        def main(A: T.Buffer((8,), "int8"), x: T.int8, y: T.int8):
            T.func_attr({"target": host, "global_symbol": "main"})
            Module.kern(A.data, x)
            Module.kern(A.data, y)

        @T.prim_func
        def kern(A_ptr: T.handle("int8", "global"), x: T.int8):
            T.func_attr({"target": device, "global_symbol": "my_kernel"})
            A = T.decl_buffer((8,), "int8", data=A_ptr)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + x

    return Module


DEMOS = {
    "blind5-unsigned-as-int32": Demo(lambda: scalar_kernel("uint16"), split_or_error()),
    "blind5-bool-kept-narrow": Demo(lambda: scalar_kernel("bool"), split_or_error()),
    "blind5-bfloat16-kept-narrow": Demo(lambda: scalar_kernel("bfloat16"), split_or_error()),
    "blind5-named-launch-offset-0": Demo(lambda: scalar_kernel("int8"), split_or_error()),
    "blind5-kernel-keyed-by-name-only": Demo(module_kernel, split_module),
    "blind5-widen-non-cpu-devices": Demo(lambda: scalar_kernel("int16"), split_or_error("hexagon")),
    "blind5-first-call-site-only": Demo(module_kernel, split_module),
    "blind5-entry-after-decls": Demo(lambda: scalar_kernel("int8"), split_or_error()),
}

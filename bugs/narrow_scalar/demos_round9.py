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
"""Blind round 9: programs on which the narrow kernel scalar reference fix and each of
its round-9 wrong fixes differ (SplitHostDevice's output, or the error it raises)."""

from harness.blind_demo import Demo, from_script, split_module, split_or_error


def _kernel(params, body, target="opencl"):
    """A function whose device region (``target``) reads the scalars ``params``."""
    return lambda: from_script(
        f"""
@T.prim_func
def main(A: T.Buffer((8,), "int32"), {params}):
    T.attr(T.target("{target}"), "target", 0)
    tx = T.launch_thread("threadIdx.x", 8)
    {body}
"""
    )


def _cpu_kernel():
    return from_script(
        """
@T.prim_func
def main(A: T.Buffer((8,), "int32"), x: T.int8):
    T.attr(T.target("llvm"), "target", 0)
    for i in range(8):
        A[i] = T.Cast("int32", x)
"""
    )


def _module_kernel():
    """A kernel written as a module function, launched twice by the host."""
    return from_script(
        """
@I.ir_module
class Mod:
    @T.prim_func
    def main(A: T.Buffer((8,), "int32"), x: T.int8):
        T.func_attr({"target": T.target("llvm")})
        Mod.kern(A.data, x)
        Mod.kern(A.data, x + T.int8(1))

    @T.prim_func
    def kern(A_ptr: T.handle("int32", "global"), x: T.int8):
        T.func_attr({"target": T.target("opencl")})
        A = T.decl_buffer((8,), "int32", data=A_ptr)
        tx = T.launch_thread("threadIdx.x", 8)
        A[tx] = T.Cast("int32", x)
"""
    )


_SPLIT = split_or_error("opencl")
_CPU = split_or_error("llvm")


def demos(kernel, cpu_kernel, module_kernel):
    """The demos, on this line's program builders: ``kernel(params, body)`` a function whose
    OpenCL kernel reads the scalars ``params``, ``cpu_kernel()`` one whose kernel is a CPU one,
    ``module_kernel()`` a module whose kernel is a module function launched twice."""
    return {
        "blind9-bool-kept": Demo(kernel("z: T.bool", "A[tx] = T.if_then_else(z, 1, 2)"), _SPLIT),
        "blind9-bfloat16-kept": Demo(kernel("w: T.bfloat16", 'A[tx] = T.Cast("int32", w)'), _SPLIT),
        "blind9-uint-as-int32": Demo(kernel("y: T.uint16", 'A[tx] = T.Cast("int32", y)'), _SPLIT),
        "blind9-32bit-rebound": Demo(
            kernel("x: T.int8, n: T.int32", 'A[tx] = T.Cast("int32", x) + n'), _SPLIT
        ),
        "blind9-host-uncast": Demo(kernel("x: T.int16", 'A[tx] = T.Cast("int32", x)'), _SPLIT),
        "blind9-arg-offset": Demo(kernel("x: T.float16", 'A[tx] = T.Cast("int32", x)'), _SPLIT),
        "blind9-bind-after-body": Demo(kernel("x: T.uint8", 'A[tx] = T.Cast("int32", x)'), _SPLIT),
        "blind9-module-kernels-kept": Demo(module_kernel, split_module),
        "blind9-cpu-widened": Demo(cpu_kernel, _CPU),
        "blind9-narrow-to-wide": Demo(kernel("x: T.int8", 'A[tx] = T.Cast("int32", x)'), _SPLIT),
    }


DEMOS = demos(_kernel, _cpu_kernel, _module_kernel)

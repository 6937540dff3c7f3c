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
"""Blind round 8: programs on which each wrong fix of round 8 and the reference fix of
the missing-dtype codegen report differ; the result compared is the build's outcome for
WebGPU or Metal ("compiles", or the error's kind and first line)."""

from harness.blind_demo import Demo, from_script, line_package, message

U64_BUFFER = """
@T.prim_func
def main(A: T.Buffer((1,), "uint64"), n: T.int32):
    with T.launch_thread("threadIdx.x", 1) as t:
        A[0] = T.Cast("uint64", n)
"""

F16_ARG = """
@T.prim_func
def main(A: T.Buffer((1,), "float32"), x: T.float16):
    with T.launch_thread("threadIdx.x", 1) as t:
        A[0] = T.Cast("float32", x)
"""

# a float64 constant printed with no type of its own: an extern call's argument
F64_CONSTANT = """
@T.prim_func
def main(A: T.Buffer((1,), "float32"), x: T.float32):
    with T.launch_thread("threadIdx.x", 1) as t:
        A[0] = T.call_pure_extern("float32", "g", T.float64(1.5))
"""

F32X8 = """
@T.prim_func
def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    with T.launch_thread("threadIdx.x", 1) as t:
        A[T.Ramp(0, 1, 8)] = B[T.Ramp(0, 1, 8)]
"""

F64_METAL = """
@T.prim_func
def main(A: T.Buffer((1,), "float64"), n: T.int32):
    with T.launch_thread("threadIdx.x", 1) as t:
        A[0] = T.Cast("float64", n)
"""

F32 = """
@T.prim_func
def main(A: T.Buffer((4,), "float32"), x: T.float32):
    with T.launch_thread("threadIdx.x", 4) as t:
        A[t] = x * T.float32(0.5)
"""


def build_for(target):
    """Observer: the function compiled for ``target``: "compiles" or the error's first line."""

    def observe(func):
        package = line_package()
        compile_ = package.compile if package.__name__ == "tvm" else package.tirx.compile
        try:
            compile_(func, target=target)
            return "compiles"
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"

    return observe


def program(text):
    return lambda: from_script(text)


def demos(f64_constant=F64_CONSTANT):
    webgpu, metal = build_for("webgpu"), build_for("metal")
    return {
        "blind8-metal-left-internal": Demo(program(F64_METAL), metal),
        "blind8-webgpu-arg-left-internal": Demo(program(F16_ARG), webgpu),
        "blind8-float-constant-left-internal": Demo(program(f64_constant), webgpu),
        "blind8-webgpu-u64-left-internal": Demo(program(U64_BUFFER), webgpu),
        "blind8-webgpu-lanes-left-internal": Demo(program(F32X8), webgpu),
        "blind8-webgpu-arg-type-error": Demo(program(F16_ARG), webgpu),
        "blind8-webgpu-float-or": Demo(program(F32), webgpu),
    }


DEMOS = demos()

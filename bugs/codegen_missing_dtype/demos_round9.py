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
"""Blind round 9: programs on which the missing-type reference fix and each of its
round-9 wrong fixes differ: the error (kind and first line) that compiling for WebGPU or Metal
raises."""

from harness.blind_demo import Demo, from_script, line_package, message

# the kernels' thread launch on apache/tvm
LAUNCH = 'for tx in T.thread_binding(1, thread="threadIdx.x"):'


def compiled(target):
    """Observer: compile the function for ``target``; its error (kind, first line) or "compiles"."""

    def observe(func):
        package = line_package()
        compile_ = package.compile if package.__name__ == "tvm" else package.tirx.compile
        try:
            compile_(func, target=target)
            return "compiles"
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"

    return observe


def kernel(params, body, launch=LAUNCH):
    """A function of ``params`` (and ``n: int32``) whose one-thread kernel runs ``body`` (lines)."""
    lines = "\n        ".join(body)
    return lambda: from_script(
        f"""
@T.prim_func
def main({params}, n: T.int32):
    {launch}
        {lines}
"""
    )


def demos(launch):
    """The demos, with kernels opened by ``launch`` (this line's one-thread launch)."""
    webgpu, metal = compiled("webgpu"), compiled("metal")
    uint64 = kernel('A: T.Buffer((1,), "uint64")', ['A[0] = T.Cast("uint64", n)'], launch)
    wide = kernel('A: T.Buffer((8,), "int32")', ["A[T.Ramp(0, 1, 8)] = T.Broadcast(n, 8)"], launch)
    float64 = kernel('A: T.Buffer((1,), "float64")', ['A[0] = T.Cast("float64", n)'], launch)
    return {
        "blind9-uint64-internal": Demo(uint64, webgpu),
        "blind9-vector-lanes-internal": Demo(wide, webgpu),
        "blind9-lanes-upper-3": Demo(
            kernel(
                'A: T.Buffer((1,), "float32x4"), B: T.Buffer((1,), "float64")',
                ['A[0] = T.Broadcast(T.Cast("float32", n), 4)', 'B[0] = T.Cast("float64", n)'],
                launch,
            ),
            webgpu,
        ),
        "blind9-scalar-arg-internal": Demo(
            kernel(
                'A: T.Buffer((1,), "float32"), x: T.float64',
                ['A[0] = T.Cast("float32", x) + T.Cast("float32", n)'],
                launch,
            ),
            webgpu,
        ),
        "blind9-metal-float-only": Demo(wide, metal),
        "blind9-metal-names-webgpu": Demo(float64, metal),
        "blind9-element-type-named": Demo(wide, webgpu),
        "blind9-uint64-float-reason": Demo(uint64, webgpu),
        "blind9-u32-arg-refused": Demo(
            kernel(
                'A: T.Buffer((1,), "float32"), u: T.uint32',
                ['A[0] = T.Cast("float32", T.Cast("float64", u) * T.float64(0.5))'],
                launch,
            ),
            webgpu,
        ),
    }


DEMOS = demos(LAUNCH)

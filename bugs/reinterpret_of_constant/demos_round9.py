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
"""Blind round 9: programs on which the reinterpret-of-a-constant reference fix and each
of its round-9 wrong fixes differ: the CUDA kernel source (compiled to source, no GPU), or the
error its build raises."""

from harness.blind_demo import Demo, from_script, message

CUDA = {"kind": "cuda", "arch": "sm_80"}


def kernel(params, body):
    """A function of ``params`` whose one-thread kernel runs ``body`` (one line)."""
    return lambda: from_script(
        f"""
@T.prim_func
def main({params}):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        {body}
"""
    )


def cuda_kernel(func):
    """Observer: the CUDA source of the kernel's definition, or the build's error."""
    import tvm

    try:
        lib = tvm.compile(func, target=tvm.target.Target(CUDA))
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    source = lib.mod.imports[0].inspect_source()
    return source[source.rindex('extern "C" __global__') :].strip()


_F32 = kernel('A: T.Buffer((1,), "int32")', 'A[0] = T.reinterpret("int32", T.float32(2.0))')

DEMOS = {
    "blind9-int-missed": Demo(
        kernel('A: T.Buffer((1,), "float32")', 'A[0] = T.reinterpret("float32", T.int32(7))'),
        cuda_kernel,
    ),
    "blind9-float-missed": Demo(_F32, cuda_kernel),
    "blind9-temp-of-target-type": Demo(_F32, cuda_kernel),
    "blind9-32-bit-only": Demo(
        kernel('A: T.Buffer((1,), "int64")', 'A[0] = T.reinterpret("int64", T.float64(2.0))'),
        cuda_kernel,
    ),
    "blind9-scalar-target-only": Demo(
        kernel(
            'A: T.Buffer((1,), "uint8x4")', 'A[0] = T.reinterpret("uint8x4", T.int32(16909060))'
        ),
        cuda_kernel,
    ),
    "blind9-fixed-name": Demo(
        kernel(
            'A: T.Buffer((1,), "int32")',
            'A[0] = T.reinterpret("int32", T.float32(2.0))'
            ' - T.reinterpret("int32", T.float32(3.0))',
        ),
        cuda_kernel,
    ),
    "blind9-pointer-too": Demo(
        kernel(
            'A: T.Buffer((1,), "int32")',
            'A[0] = T.call_extern("int32", "f", T.reinterpret("handle", T.uint64(64)))',
        ),
        cuda_kernel,
    ),
}

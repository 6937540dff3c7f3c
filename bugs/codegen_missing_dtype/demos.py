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
"""Programs on which the WebGPU/Metal code generators' reference fix and each blind wrong fix
differ, on apache/tvm (harness/blind_demo.py; run with scripts/blind_demos.py --bug
codegen_missing_dtype). demos_tirx.py shows the same kernels on apache/tvm-tirx: the programs
and the observer here serve both lines (TVM is imported when a program is built).

Each program is one small function of kernels compiled for the target named beside it: what is
compared is whether it compiles, or the error that refuses it."""

import importlib

from harness.blind_demo import Demo, line_package, message

# float32 computed through float64 arithmetic (a type neither WebGPU nor Metal has)
F64 = "T.Cast('float32', T.Cast('float64', n) * T.float64(0.5))"


def kernels(params, *bodies, threads=1):
    """A function ``main(params)`` (TVMScript, its buffers written ``T.Buffer``) with one kernel
    of ``threads`` threadIdx.x threads ``t`` per body (statement lines): a thread_binding loop
    on apache/tvm, a launch_thread region of a ``T.Tensor`` function on apache/tvm-tirx."""
    package = line_package().__name__
    T = importlib.import_module(f"{package}.script.tirx")
    if package == "tvm":
        head, launch = (
            "@T.prim_func",
            f"for t in T.thread_binding({threads}, thread='threadIdx.x'):",
        )
    else:
        head, launch = (
            "@T.function",
            f"with T.launch_thread('threadIdx.x', {threads}) as t:",
        )
        params = params.replace("T.Buffer", "T.Tensor")
    text = f"{head}\ndef main({params}):\n"
    for body in bodies:
        text += f"    {launch}\n" + "".join(f"        {line}\n" for line in body)
    return importlib.import_module(f"{package}.script").from_source(text, extra_vars={"T": T})


def program(params, *bodies, threads=1):
    """A demo's program: ``kernels(params, *bodies, threads=threads)``."""
    return lambda: kernels(params, *bodies, threads=threads)


def stored(a_dtype, m_dtype, value):
    """Round 4's program: one kernel storing ``value`` (of the scalar argument m, of
    ``m_dtype``) into A[0] (A of ``a_dtype``)."""
    return program(f"A: T.Buffer((1,), '{a_dtype}'), m: T.{m_dtype}", [f"A[0] = {value}"])


def through_float64(dtype):
    """``m`` to ``dtype`` through float64 arithmetic."""
    return f"T.Cast('{dtype}', T.Cast('float64', m) * T.float64(3))"


def scalar_into(buffer_dtype, arg_dtype):
    """Round 5's program: one kernel of four threads storing a cast of its scalar argument (of
    ``arg_dtype``) into a buffer of ``buffer_dtype``."""
    return program(
        f"A: T.Buffer((4,), '{buffer_dtype}'), n: T.{arg_dtype}",
        [f"A[t] = T.Cast('{buffer_dtype}', n)"],
        threads=4,
    )


def doubled(dtype):
    """Round 7's program: A[t] = B[t] + B[t] in a kernel of eight threads, over buffers of
    ``dtype`` (a vector type too)."""
    return program(
        f"A: T.Buffer((8,), '{dtype}'), B: T.Buffer((8,), '{dtype}')",
        ["A[t] = B[t] + B[t]"],
        threads=8,
    )


def compiled(target, fns=False):
    """Observer: the program compiled for ``target``: "compiles", or the error's kind and line;
    with ``fns`` (an llvm host), the WGSL source's function lines after "compiles"."""

    def observe(func):
        package = line_package()
        build = package.compile if package.__name__ == "tvm" else package.tirx.compile
        try:
            lib = build(
                func,
                target=package.target.Target(target, host="llvm") if fns else target,
            )
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"
        if not fns:
            return "compiles"
        source = lib.mod.imports[0].inspect_source() if lib.mod.imports else ""
        return "compiles: " + " ".join(x.strip() for x in source.splitlines() if "fn " in x)

    return observe


# the programs of rounds 3 to 5, the same on both lines
FLOAT64_IN_SECOND_KERNEL = program(
    "A: T.Buffer((1,), 'float32'), B: T.Buffer((1,), 'float64')",
    ["A[0] = T.float32(1)"],
    ["B[0] = T.float64(2)"],
)
INT64_TO_FLOAT64 = program(
    "A: T.Buffer((1,), 'int64'), B: T.Buffer((1,), 'float64')",
    ["B[0] = T.Cast('float64', A[0])"],
)
FLOAT64_IN_BODY = program(
    "A: T.Buffer((1,), 'float32'), B: T.Buffer((1,), 'float32')",
    ["B[0] = T.Cast('float32', T.Cast('float64', A[0]) * T.float64(3.0))"],
)
FLOAT16_ARGUMENT = program("A: T.Buffer((1,), 'float16'), n: T.float16", ["A[0] = n"])
NARROWED_INT64 = program(
    "A: T.Buffer((4,), 'float32'), n: T.int32",
    ["A[t] = T.Cast('float32', T.Cast('int64', n) * T.int64(3) // T.int64(2))"],
    threads=4,
)
UINT64_BUFFER = program("A: T.Buffer((1,), 'uint64'), n: T.int32", ["A[0] = T.Cast('uint64', n)"])
EIGHT_LANES = program(
    "A: T.Buffer((8,), 'float32'), B: T.Buffer((8,), 'float32')",
    ["A[T.ramp(0, 1, 8)] = B[T.ramp(0, 1, 8)] + B[T.ramp(0, 1, 8)]"],
)
BROADCAST8 = stored("float32x8", "float32", "T.Broadcast(m, 8)")
TWO_KERNELS_M = program(
    "A: T.Buffer((1,), 'float32'), m: T.int32",
    ["A[0] = T.Cast('float32', m)"],  # valid
    [f"A[0] = {through_float64('float32')}"],  # float64: the second
)
TWO_KERNELS_N = program(
    "A: T.Buffer((4,), 'float32'), B: T.Buffer((4,), 'float32'), n: T.int32",
    ["A[t] = T.Cast('float32', n)"],
    [f"B[t] = {F64}"],
    threads=4,
)
NESTED_FLOAT64 = program(
    "A: T.Buffer((4,), 'float32'), n: T.int32",
    ["A[t] = T.Cast('float32', T.Cast('float64', n) + T.float64(1.5))"],
    threads=4,
)
# the only 8-lane type is the buffer's element, float32x8 (no index vector)
VECTOR8 = program(
    "A: T.Buffer((1,), 'float32x8'), n: T.int32",
    ["A[0] = T.Broadcast(T.Cast('float32', n), 8)"],
)
# round 6 (each kernel of eight threads here, of one on apache/tvm-tirx)
AB_N = "A: T.Buffer((8,), 'int32'), B: T.Buffer((8,), 'float32'), n: T.int32"
A64_B_N = "A: T.Buffer((8,), 'int64'), B: T.Buffer((8,), 'float32'), n: T.int32"
A64_H = "A: T.Buffer((8,), 'int64'), h: T.float16"
B_N = "B: T.Buffer((8,), 'float32'), n: T.int32"
B_U32 = "B: T.Buffer((8,), 'float32'), n: T.uint32"

WEBGPU, METAL = compiled("webgpu"), compiled("metal")

DEMOS = {
    # round 3
    # Metal, two kernels, float64 in the second: the wrong fix looks at the first function only
    "blind3-first-function-only": Demo(FLOAT64_IN_SECOND_KERNEL, METAL),
    # Metal, int64 in (Metal has long), float64 out: the wrong fix's error names int64
    "blind3-metal-no-long": Demo(INT64_TO_FLOAT64, METAL),
    # Metal, float32 buffers, float64 in the body: the wrong fix scans the parameters only
    "blind3-params-only": Demo(FLOAT64_IN_BODY, METAL),
    # WebGPU, a float16 scalar argument (WGSL has f16, the runtime passes i32, u32, f32 only):
    # the wrong fix checks the argument against WGSL's types
    "blind3-scalar-args-as-storage": Demo(FLOAT16_ARGUMENT, WEBGPU),
    # VALID: WebGPU int64 arithmetic that the code generator narrows to i32: the wrong fix scans
    # before the build and refuses it
    "blind3-scan-before-build": Demo(NARROWED_INT64, WEBGPU),
    # WebGPU, a uint64 buffer: the wrong fix refuses 64-bit signed integers only
    "blind3-uint64-internal": Demo(UINT64_BUFFER, WEBGPU),
    # WebGPU, an 8-lane vector add (WGSL has 2 to 4 lanes): the wrong fix ignores the lanes
    "blind3-vector-lanes-ignored": Demo(EIGHT_LANES, WEBGPU),
    # round 4
    "blind4-u32-not-passable": Demo(
        stored("float32", "uint32", through_float64("float32")), WEBGPU
    ),
    "blind4-scalars-before-buffers": Demo(stored("int64", "float16", "T.Cast('int64', m)"), WEBGPU),
    "blind4-type-before-lanes": Demo(BROADCAST8, WEBGPU),
    "blind4-f16-lacking": Demo(stored("float16", "int32", through_float64("float16")), WEBGPU),
    "blind4-metal-eight-lanes": Demo(BROADCAST8, METAL),
    "blind4-webgpu-first-kernel-only": Demo(TWO_KERNELS_M, WEBGPU),
    # round 5
    "blind5-webgpu-first-kernel-only": Demo(TWO_KERNELS_N, WEBGPU),
    "blind5-metal-not-wrapped": Demo(NESTED_FLOAT64, METAL),
    "blind5-webgpu-element-before-lanes": Demo(VECTOR8, WEBGPU),
    "blind5-metal-no-lane-limit": Demo(VECTOR8, METAL),
    "blind5-body-vars-only": Demo(NESTED_FLOAT64, WEBGPU),
    "blind5-check-before-build": Demo(scalar_into("int32", "int64"), WEBGPU),
    "blind5-webgpu-signed-64-only": Demo(scalar_into("uint64", "int32"), WEBGPU),
    # round 6
    # metal: the second of two kernels computes in float64
    "blind6-cmd-first-func-only": Demo(
        program(AB_N, ["A[t] = n"], [f"B[t] = {F64}"], threads=8), METAL
    ),
    # metal: an int64 buffer (Metal has long), float64 in the arithmetic
    "blind6-cmd-metal-int64-lacking": Demo(
        program(A64_B_N, ["A[t] = T.Cast('int64', n)", f"B[t] = {F64}"], threads=8),
        METAL,
    ),
    # webgpu: a uint32 kernel argument, float64 in the arithmetic
    "blind6-cmd-webgpu-uint32-arg": Demo(program(B_U32, [f"B[t] = {F64}"], threads=8), WEBGPU),
    # webgpu: an 8-lane float32 vector store
    "blind6-cmd-lanes-after-scalar": Demo(
        program(
            "B: T.Buffer((64,), 'float32'), x: T.float32",
            ["B[T.Ramp(t * 8, 1, 8)] = T.Broadcast(x, 8)"],
            threads=8,
        ),
        WEBGPU,
    ),
    # webgpu: float64 only inside the kernel's arithmetic
    "blind6-cmd-webgpu-body-skipped": Demo(program(B_N, [f"B[t] = {F64}"], threads=8), WEBGPU),
    # webgpu: an int64 buffer and a float16 kernel argument
    "blind6-cmd-scalars-first": Demo(
        program(A64_H, ["A[t] = T.Cast('int64', h)"], threads=8), WEBGPU
    ),
    # round 7: valid WebGPU kernels (the WGSL functions they compile to)
    "blind7-cmd-float-demorgan": Demo(doubled("float32"), compiled("webgpu", fns=True)),
    "blind7-cmd-float-f16-dropped": Demo(doubled("float16"), compiled("webgpu", fns=True)),
    "blind7-cmd-lanes-off-by-one": Demo(doubled("int32x4"), compiled("webgpu", fns=True)),
    "blind7-cmd-uint-inverted": Demo(doubled("uint32"), compiled("webgpu", fns=True)),
    "blind7-cmd-lanes-check-hoisted": Demo(doubled("float32x2"), compiled("webgpu", fns=True)),
    "blind7-cmd-int-inverted": Demo(doubled("int32"), compiled("webgpu", fns=True)),
}

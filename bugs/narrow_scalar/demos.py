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
"""Programs on which the narrow kernel scalar's reference fix and each blind wrong fix differ, on
apache/tvm (harness/blind_demo.py; run with scripts/blind_demos.py --bug narrow_scalar;
demos_tirx.py holds the second round's programs on apache/tvm-tirx).

Each program is a kernel that reads a scalar narrower than 32 bits from the host. What is
compared: the module after SplitHostDevice (alone, or as tvm.compile's pipeline leaves it), the
CUDA kernel's source, or a launch's values on pocl (OpenCL, llvm host)."""

import numpy as np

import tvm
from harness.blind_demo import Demo, compile_and_run, on, script_of, targeted
from tvm.ir.instrument import pass_instrument
from tvm.script import ir as I
from tvm.script import tirx as T

# ------------------------------------------------------------------------------ observers


def split_alone(mod):
    """The module after SplitHostDevice alone (without its target attributes), and whether it
    is well-formed."""
    after = tvm.tirx.transform.SplitHostDevice()(mod)
    try:
        tvm.tirx.analysis.verify_well_formed(after)
        verdict = "well-formed"
    except Exception as err:  # the verdict is the result
        verdict = "not well-formed: " + str(err).strip().splitlines()[-1][:200]
    return f"{script_of(after)}\n{verdict}"


def lines(mod, *marks):
    """The lines of ``mod``'s functions that hold one of ``marks``, stripped and sorted."""
    found = []
    for func in mod.functions.values():
        found += [x.strip() for x in func.script().splitlines() if any(m in x for m in marks)]
    return sorted(found)


class _Stop(Exception):
    pass


def split_in_pipeline(target):
    """The observer: compile for ``target`` up to SplitHostDevice (the module as MakePackedAPI
    gets it); its kernels' signatures and entry bindings, and the host's launches."""

    def observe(func):
        seen = {}

        @pass_instrument
        class Catch:
            def run_before_pass(self, mod, info):
                if "MakePackedAPI" in info.name and "mod" not in seen:
                    seen["mod"] = mod
                    raise _Stop()

        try:
            with tvm.transform.PassContext(instruments=[Catch()]):
                tvm.compile(func, target=target)
        except Exception:  # the instrument's stop arrives wrapped
            if "mod" not in seen:
                raise
        return lines(seen["mod"], "def ", "call_ffi_kernel", ": T.let[", " = T.Cast(")

    return observe


def launched(*inputs):
    """The observer: compile for OpenCL, launch on pocl with ``inputs``; the first's values."""
    return lambda program: compile_and_run(program, list(inputs), [0])


def cuda_kernel(func):
    """The CUDA kernel's source lines (pocl's OpenCL compiler here has no float16 arithmetic)."""
    source = tvm.compile(func, target="cuda").mod.imports[0].inspect_source()
    body = source[source.index('extern "C" __global__') :]
    return [x.strip() for x in body.splitlines() if x.strip() and not x.startswith("//")]


# ------------------------------------------------------------------------------- programs


def doubled(kind):
    """A kernel for ``kind`` (llvm host) doubles an int8 argument."""

    @T.prim_func
    def main(C: T.Buffer((8,), "int32"), x: T.int8):
        i = T.launch_thread("threadIdx.x", 8)
        C[i] = T.Cast("int32", x) * 2

    return on({"kind": kind, "host": "llvm"}, main)


@T.prim_func
def unsigned_pair(C: T.Buffer((8,), "uint32"), x: T.uint8, y: T.uint16):
    i = T.launch_thread("threadIdx.x", 8)
    C[i] = T.Cast("uint32", x) + T.Cast("uint32", y)


@T.prim_func
def float8_and_float16(C: T.Buffer((8,), "float8_e4m3fn"), x: T.float8_e4m3fn, y: T.float16):
    i = T.launch_thread("threadIdx.x", 8)
    C[i] = T.Cast("float8_e4m3fn", T.Cast("float16", x) + y)


@T.prim_func
def shape_from_scalar(a: T.handle, n: T.int16):
    A = T.match_buffer(a, (n,), "int32")
    i = T.launch_thread("threadIdx.x", 8)
    if i < T.Cast("int32", n):
        A[i] = i


@T.prim_func
def float_then_int8(C: T.Buffer((8,), "int32"), a: T.float32, x: T.int8):
    for i in T.thread_binding(8, thread="threadIdx.x"):
        C[i] = T.Cast("int32", x) + T.Cast("int32", a * T.float32(10))


@T.prim_func
def float_plus_int8(A: T.Buffer((4,), "float32"), f: T.float32, x: T.int8):
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = f + T.Cast("float32", x)


@T.prim_func
def float16_and_bfloat16(A: T.Buffer((8,), "float32"), h: T.float16, b: T.bfloat16):
    for i in T.thread_binding(8, thread="threadIdx.x"):
        A[i] = T.Cast("float32", h) + T.Cast("float32", b)


@T.prim_func
def scaled_by_float16(A: T.Buffer((8,), "float32"), h: T.float16):
    for i in T.thread_binding(8, thread="threadIdx.x"):
        A[i] = A[i] * T.Cast("float32", h)


@T.prim_func
def float16_squared(A: T.Buffer((4,), "float32"), h: T.float16):
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = T.Cast("float32", h * h) + T.Cast("float32", i)


@I.ir_module
class CallsDoubling:
    """A host function launches a kernel written as a module function with an int8 scalar."""

    @T.prim_func
    def main(C: T.Buffer((8,), "int32"), x: T.int8):
        CallsDoubling.kernel(C.data, x)

    @T.prim_func
    def kernel(C_data: T.handle("int32"), x: T.int8):
        C = T.decl_buffer(8, dtype="int32", data=C_data)
        i = T.launch_thread("threadIdx.x", 8)
        C[i] = T.Cast("int32", x) * 2


@I.ir_module
class CallsTwice:
    """A host function launches a kernel written as a module function twice, with two uint16
    scalars."""

    @T.prim_func
    def main(C: T.Buffer((8,), "int32"), x: T.uint16, y: T.uint16):
        CallsTwice.kernel(C.data, x)
        CallsTwice.kernel(C.data, y)

    @T.prim_func
    def kernel(C_data: T.handle("int32"), x: T.uint16):
        C = T.decl_buffer(8, dtype="int32", data=C_data)
        i = T.launch_thread("threadIdx.x", 8)
        C[i] = C[i] + T.Cast("int32", x)


@I.ir_module
class CallsScaling:
    """A host function calls a private module function that opens a thread environment and
    scales an int8 scalar by its thread index."""

    @T.prim_func
    def main(A: T.Buffer((4,), "int32"), x: T.int8):
        CallsScaling.kern(A.data, x)

    @T.prim_func(private=True)
    def kern(A_ptr: T.handle("int32"), x: T.int8):
        A = T.decl_buffer((4,), "int32", data=A_ptr)
        with T.launch_thread("threadIdx.x", 4) as i:
            A[i] = T.Cast("int32", x) * (i + 1)


OPENCL_HOST = {"kind": "opencl", "host": "llvm"}

DEMOS = {
    # float32 a then int8 x (kernel parameters A_ptr, a, x), run: the wrong fix casts the
    # argument before x (a: 2.5 -> 2) and passes x as it is
    "blind2-launch-arg-off-by-one": Demo(
        lambda: float_then_int8, launched(np.zeros(8, "int32"), 2.5, -3), opencl=True
    ),
    # an llvm host function launches an OpenCL module function with an int8 scalar: the wrong
    # fix widens only the kernels SplitHostDevice splits out, and leaves this one int8
    "blind2-split-kernels-only": Demo(
        lambda: targeted(CallsDoubling, "llvm", "opencl"), split_alone
    ),
    # a WebGPU kernel's int8 scalar: the wrong fix's device-runtime list forgets WebGPU
    "blind2-webgpu-forgotten": Demo(lambda: doubled("webgpu"), split_alone),
    # an ext_dev kernel, called as a function, keeps its int8 parameter: the wrong fix widens
    # every non-CPU kernel
    "blind2-non-cpu-widened": Demo(lambda: doubled("ext_dev"), split_alone),
    # cuda, a float8_e4m3fn and a float16 scalar: the reference widens the float16 one only, the
    # wrong fix the float8 one too
    "blind2-other-floats-to-float32": Demo(
        lambda: on({"kind": "cuda", "arch": "sm_90", "host": "llvm"}, float8_and_float16),
        split_alone,
    ),
    # the buffer's shape is the int16 scalar n: the wrong fix binds n after the declaration
    # that uses it (not well-formed)
    "blind2-entry-after-decls": Demo(lambda: on(OPENCL_HOST, shape_from_scalar), split_alone),
    # OpenCL, a uint8 and a uint16 scalar: the reference passes both as uint32, the wrong fix as
    # int32
    "blind2-uint-as-int32": Demo(lambda: on(OPENCL_HOST, unsigned_pair), split_alone),
    # two launches of an OpenCL module function from an llvm host function with uint16
    # scalars: the wrong fix decides from the caller's target and casts neither argument
    "blind2-caller-target": Demo(lambda: targeted(CallsTwice, "llvm", "opencl"), split_alone),
    # cuda sm_80, a float16 and a bfloat16 scalar: the reference widens both to float32, the
    # wrong fix leaves a bfloat16 parameter that no runtime can pass
    "blind3-bfloat16-kept": Demo(
        lambda: float16_and_bfloat16, split_in_pipeline({"kind": "cuda", "arch": "sm_80"})
    ),
    # the float16 h squared (300 * 300 overflows float16), CUDA source: the reference squares in
    # float16 after the entry binding, the wrong fix squares the float32 slot
    "blind3-wide-in-body": Demo(lambda: float16_squared, cuda_kernel),
    # float32 f then int8 x, run: the wrong fix counts the launch's arguments from zero and
    # casts f, the argument before x, to int32
    "blind3-symbol-args-from-zero": Demo(
        lambda: float_plus_int8, launched(np.zeros(4, "float32"), 2.5, 3), opencl=True
    ),
    # an OpenCL module function's int8 scalar, run with x = -5: the wrong fix widens only split
    # kernels and the runtime refuses the launch
    "blind3-split-kernels-only": Demo(
        lambda: targeted(CallsScaling, OPENCL_HOST, "opencl"),
        launched(np.zeros(4, "int32"), -5),
        opencl=True,
    ),
    # cuda, a float16 h: the reference passes h as float32 and narrows it back; the wrong fix
    # applies the integer rule first and passes Cast(int32, h)
    "blind3-integer-rule-first": Demo(lambda: scaled_by_float16, split_in_pipeline("cuda")),
    # a CUDA function calls an llvm module function that opens a thread environment (a kernel
    # called as a function): the reference keeps its int8 parameter, the wrong fix widens it on
    # every target
    "blind3-every-target": Demo(
        lambda: targeted(CallsScaling, {"kind": "cuda", "host": "llvm"}, "llvm"),
        lambda mod: lines(tvm.tirx.transform.SplitHostDevice()(mod), "def ", "kern", ": T.let["),
    ),
}

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
"""Programs on which CodeGenC's reference fix for a reinterpret of a constant and each blind wrong
fix differ (harness/blind_demo.py; run with scripts/blind_demos.py --bug
reinterpret_of_constant).

Every program is valid; most are kernels built for OpenCL and run on pocl, where the unfixed
source takes the address of a literal and the OpenCL build fails."""

import tempfile
from pathlib import Path

import numpy as np
import tvm_ffi

import tvm
from harness.blind_demo import Demo, compile_and_run, message, script_of
from tvm import tirx
from tvm.script import tirx as T

TWO_BITS = tirx.reinterpret("uint32", tirx.const(2.0, "float32"))  # 0x40000000


def one_store(dtype, extent, value, index=0):
    """A kernel of one thread storing ``value`` at ``A[index]`` of A, ``extent`` ``dtype``s."""

    @T.prim_func
    def f(A: T.Buffer((extent,), dtype)):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[index] = value

    return lambda: f


@T.prim_func
def in_condition(A: T.Buffer((1,), "int32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        if T.reinterpret("int32", T.float32(2.0)) == 0x40000000:
            A[0] = 7


@T.prim_func
def in_branch_then_after(A: T.Buffer((2,), "uint32")):
    for t in T.thread_binding(2, thread="threadIdx.x"):
        if t == 0:
            A[0] = T.reinterpret("uint32", T.float32(2.0))
        A[1] = T.reinterpret("uint32", T.float32(2.0))


@T.prim_func
def two_kernels(A: T.Buffer((2,), "uint32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A[0] = T.reinterpret("uint32", T.float32(2.0))
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A[1] = T.reinterpret("uint32", T.float32(1.0))


@T.prim_func
def on_host(A: T.Buffer((2,), "uint32")):
    A[0] = T.reinterpret("uint32", T.float32(2.0))
    A[1] = T.uint32(5)


def run_as_c(func):
    """``func`` built for the "c" target, exported with gcc and run on the CPU: its buffer's
    values, or gcc's error."""
    lib = tvm.compile(func, target="c")
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "lib.so")
        try:
            lib.export_library(path)
        except Exception as err:  # gcc refuses the source
            lines = [x for x in str(err).splitlines() if " error: " in x]
            return f"export failed: {(lines or [message(err)])[0].split(' error: ', 1)[-1][:200]}"
        loaded = tvm.runtime.load_module(path)
        a = tvm.runtime.tensor(np.zeros(2, "uint32"), tvm.cpu(0))
        loaded["on_host"](a)
        return f"values: {a.numpy().tolist()}"


def device_module_after_build(func):
    """The device module tvm.compile hands to target.build.opencl, printed after the build."""
    name = "target.build.opencl"
    build = tvm_ffi.get_global_func(name)  # the fix's stand-in
    given = []

    def keep(mod, target):
        given.append(mod)
        return build(mod, target)

    tvm_ffi.register_global_func(name, keep, override=True)
    try:
        tvm.compile(func, target="opencl")
    finally:
        tvm_ffi.register_global_func(name, build, override=True)
    return script_of(given[0])


def on_pocl(program, dtype, extent):
    """A demo that builds ``program`` for OpenCL and runs it on pocl with A of ``extent`` zeros
    of ``dtype``: A's values, or the error."""
    return Demo(
        program, lambda func: compile_and_run(func, [np.zeros(extent, dtype)], [0]), opencl=True
    )


def store_on_pocl(dtype, extent, value, index=0):
    """``on_pocl`` of ``one_store(dtype, extent, value, index)``."""
    return on_pocl(one_store(dtype, extent, value, index), dtype, extent)


DEMOS = {
    # a host function built for "c": the wrong fix wraps the device builds only, gcc refuses
    "blind3-device-builds-only": Demo(lambda: on_host, run_as_c),
    # an int32 constant's bits as float32: the wrong fix stores float constants only
    "blind3-float-constants-only": store_on_pocl(
        "float32", 1, tirx.reinterpret("float32", tirx.const(0x3F800000, "int32"))
    ),
    # the device module after the build: the wrong fix rewrites it in place, not a clone
    "blind3-no-clone": Demo(one_store("uint32", 1, TWO_BITS), device_module_after_build),
    # an int32 constant as uint8x4 (a vector store): the wrong fix skips vector target types
    "blind3-scalar-target-only": store_on_pocl(
        "uint8", 4, tirx.reinterpret("uint8x4", tirx.const(0x01020304, "int32")), tirx.Ramp(0, 1, 4)
    ),
    # two kernels: the wrong fix rewrites the first only
    "blind3-second-kernel": on_pocl(lambda: two_kernels, "uint32", 2),
    # one constant in an if's branch and after it: the wrong fix's one temporary is declared in
    # the branch only
    "blind3-shared-temporary": on_pocl(lambda: in_branch_then_after, "uint32", 2),
    # a reinterpret in an if condition: the wrong fix rewrites stores only
    "blind3-stores-only": on_pocl(lambda: in_condition, "int32", 1),
    # 2.0f's bits as uint32: the wrong fix's temporary is uint32, so C converts 2.0f to 2
    "blind3-target-type-temporary": store_on_pocl("uint32", 1, TWO_BITS),
}

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
"""Blind round 5: demos of the reinterpret_of_constant wrong fixes (apache/tvm)."""

import re

from harness.blind_demo import Demo, compile_and_run

# a temporary's declaration: `float v_1 = ...`
_TEMP = re.compile(r"\s*[\w ]+ v(_\d+)? = ")


def kernels(dtype, *blocks, launch=True):
    """A PrimFunc of one buffer ``A`` of four ``dtype`` elements whose body is one kernel
    (a thread_binding of one thread) per block of statements, or the statements of the only
    block on the host where ``launch`` is False."""
    import tvm.script
    from tvm.script import tirx as T

    lines = ["@T.prim_func", f'def main(A: T.Buffer((4,), "{dtype}")):']
    for block in blocks:
        indent = "    "
        if launch:
            lines.append('    for t in T.thread_binding(1, thread="threadIdx.x"):')
            indent = "        "
        lines += [indent + x for x in block]
    return tvm.script.from_source("\n".join(lines) + "\n", extra_vars={"T": T})


def run(dtype):
    """Observer: compile for OpenCL (llvm host) and run on pocl with A zeroed: A's values or
    the error."""

    def observe(func):
        import numpy as np

        return compile_and_run(func, [np.zeros(4, dtype)], [0])

    return observe


def c_source(func):
    """Observer: the lines of the 'c' target's host source that reinterpret through an
    address."""
    import tvm

    source = tvm.compile(func, target="c").mod.inspect_source()
    return " / ".join(x.strip() for x in source.splitlines() if "(&(" in x or _TEMP.match(x))


def opencl_source(func):
    """Observer: the OpenCL kernel source's statements that reinterpret through an address or
    bind a temporary."""
    import tvm

    lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
    source = lib.mod.imports[0].inspect_source()
    return " / ".join(x.strip() for x in source.splitlines() if "(&(" in x or _TEMP.match(x))


DEMOS = {
    "blind5-reinterp-float-only": Demo(
        lambda: kernels("float32", ['A[0] = T.reinterpret("float32", T.int32(1075838976))']),
        run("float32"),
        opencl=True,
    ),
    "blind5-reinterp-target-type-temp": Demo(
        lambda: kernels("uint32", ['A[1] = T.reinterpret("uint32", T.float32(2.5))']),
        run("uint32"),
        opencl=True,
    ),
    "blind5-reinterp-no-c-host": Demo(
        lambda: kernels("int32", ['A[0] = T.reinterpret("int32", T.float32(-1.5))'], launch=False),
        c_source,
    ),
    "blind5-reinterp-stores-only": Demo(
        lambda: kernels(
            "int32",
            ['if T.reinterpret("int32", T.float32(-0.0)) < 0:', "    A[2] = 7"],
        ),
        run("int32"),
        opencl=True,
    ),
    "blind5-reinterp-one-temp-per-type": Demo(
        lambda: kernels(
            "uint32",
            [
                'A[0] = T.reinterpret("uint32", T.float32(1.0)) - '
                'T.reinterpret("uint32", T.float32(0.5))'
            ],
        ),
        run("uint32"),
        opencl=True,
    ),
    "blind5-reinterp-scalar-targets-only": Demo(
        lambda: kernels(
            "uint8", ['A[T.Ramp(0, 1, 4)] = T.reinterpret("uint8x4", T.int32(0x04030201))']
        ),
        run("uint8"),
        opencl=True,
    ),
    "blind5-reinterp-first-function-only": Demo(
        lambda: kernels(
            "int32",
            ['A[0] = T.reinterpret("int32", T.float32(1.0))'],
            ['A[3] = T.reinterpret("int32", T.float32(-2.0))'],
        ),
        run("int32"),
        opencl=True,
    ),
    "blind5-reinterp-no-float64": Demo(
        lambda: kernels("int64", ['A[0] = T.reinterpret("int64", T.float64(2.0))']),
        run("int64"),
        opencl=True,
    ),
}

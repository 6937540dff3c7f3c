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
"""Blind round 5: demos of the reinterpret_of_constant wrong fixes (apache/tvm-tirx): the
kernel or host source (no OpenCL runtime of this line is loaded here)."""

import re

from harness.blind_demo import Demo

# a temporary's declaration: `float v_1 = ...`
_TEMP = re.compile(r"\s*[\w ]+ v(_\d+)? = ")


def kernels(dtype, *blocks, launch=True):
    """A function of one tensor ``A`` of four ``dtype`` elements whose body is one kernel
    (a launch of one thread) per block of statements, or the statements of the only block on
    the host where ``launch`` is False."""
    import tvm_tirx.script
    from tvm_tirx.script import tirx as T

    lines = ["@T.function", f'def main(A: T.Tensor((4,), "{dtype}")):']
    for block in blocks:
        indent = "    "
        if launch:
            lines.append('    with T.launch_thread("threadIdx.x", 1):')
            indent = "        "
        lines += [indent + x for x in block]
    return tvm_tirx.script.from_source("\n".join(lines) + "\n", extra_vars={"T": T})


def _taken(source):
    return " / ".join(x.strip() for x in source.splitlines() if "(&(" in x or _TEMP.match(x))


def source(target):
    """Observer: the statements of ``target``'s source (the kernels' for a device target,
    with an llvm host) that reinterpret through an address or bind a temporary."""

    def observe(func):
        import tvm_tirx

        if target == "c":
            return _taken(tvm_tirx.tirx.compile(func, target="c").mod.inspect_source())
        tgt = tvm_tirx.target.Target(target, host="llvm")
        lib = tvm_tirx.tirx.compile(func, target=tgt)
        return _taken("\n".join(m.inspect_source() for m in lib.mod.imports))

    return observe


DEMOS = {
    "blind5-reinterp-float-only": Demo(
        lambda: kernels("float32", ["A[0] = T.reinterpret(T.int32(1075838976), ty=T.float32)"]),
        source("opencl"),
    ),
    "blind5-reinterp-target-type-temp": Demo(
        lambda: kernels("uint32", ["A[1] = T.reinterpret(T.float32(2.5), ty=T.uint32)"]),
        source("opencl"),
    ),
    "blind5-reinterp-no-c-host": Demo(
        lambda: kernels(
            "int32", ["A[0] = T.reinterpret(T.float32(-1.5), ty=T.int32)"], launch=False
        ),
        source("c"),
    ),
    "blind5-reinterp-stores-only": Demo(
        lambda: kernels(
            "int32", ["if T.reinterpret(T.float32(-0.0), ty=T.int32) < 0:", "    A[2] = 7"]
        ),
        source("opencl"),
    ),
    "blind5-reinterp-one-temp-per-type": Demo(
        lambda: kernels(
            "uint32",
            [
                "A[0] = T.reinterpret(T.float32(1.0), ty=T.uint32) - "
                "T.reinterpret(T.float32(0.5), ty=T.uint32)"
            ],
        ),
        source("opencl"),
    ),
    "blind5-reinterp-scalar-targets-only": Demo(
        lambda: kernels(
            "uint8", ["A[T.Ramp(0, 1, 4)] = T.reinterpret(T.int32(0x04030201), ty=T.uint8x4)"]
        ),
        source("opencl"),
    ),
    "blind5-reinterp-first-function-only": Demo(
        lambda: kernels(
            "int32",
            ["A[0] = T.reinterpret(T.float32(1.0), ty=T.int32)"],
            ["A[3] = T.reinterpret(T.float32(-2.0), ty=T.int32)"],
        ),
        source("opencl"),
    ),
    "blind5-reinterp-no-float64": Demo(
        lambda: kernels("int64", ["A[0] = T.reinterpret(T.float64(2.0), ty=T.int64)"]),
        source("opencl"),
    ),
}

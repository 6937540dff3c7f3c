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
"""What the case modules of the kernel scalar reports share (bugs/host_scalar/proof/
host_scalar_cases.py, bugs/narrow_scalar/proof/narrow_scalar_cases.py): their programs are
``main(B, C, x)`` for cuda, ``B`` and ``C`` of N elements and ``x`` a scalar: the program
whose one kernel reads a scalar spelled one of three ways, its compilation with the module
SplitHostDevice hands on, a call of the compiled ``main`` on cuda(0), and the kernel
signatures read from the CUDA source."""

import operator
import re

import tvm
from harness import pass_records
from tvm.script import tirx as T

N = 8

# the kernels' declarations in the CUDA source: name and parameter list
DECLARATION = r"__global__ void (?:__launch_bounds__\(\d+\) )?(\w+)\(([^)]*)\);"


def scalar_read_by_kernel(dtype, spelling, value=None, compute=operator.add):
    """The IRModule of ``main(B, C, x)`` whose kernel computes ``C[i] = compute(B[i], v)``,
    the scalar ``v`` spelled as ``spelling`` says: ``param``, the argument ``x`` itself;
    ``let``, ``c: T.let[ty] = value(x)`` (computed on the host); ``cell``, ``c: ty =
    value(x)`` (a host-level cell)."""
    ty = getattr(T, dtype)
    if spelling not in ("param", "let", "cell"):
        raise ValueError(f"unknown spelling {spelling!r}")

    @T.prim_func
    def main(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype), x: ty):
        if spelling == "param":
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = compute(B[i], x)
        elif spelling == "let":
            c: T.let[ty] = value(x)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = compute(B[i], c)
        else:
            c: ty = value(x)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = compute(B[i], c)

    return tvm.IRModule({"main": main})


def call_on_cuda(lib, b, c, x):
    """Call ``lib["main"]`` on cuda(0) with the numpy arrays ``b``, ``c`` and the scalar ``x``;
    return (B, C) as numpy after the call."""
    dev = tvm.cuda(0)
    b = tvm.runtime.tensor(b, device=dev)
    c = tvm.runtime.tensor(c, device=dev)
    lib["main"](b, c, x)
    dev.sync()
    return b.numpy(), c.numpy()


def kernel_signatures(cuda_source):
    """{kernel name: [(C type, is pointer, parameter name)]}, read from the declarations."""
    found = {}
    for name, params in re.findall(DECLARATION, cuda_source):
        found[name] = []
        for param in filter(None, (p.strip() for p in params.split(","))):
            words = param.replace("__restrict__", "").split()
            ctype = " ".join(words[:-1])
            found[name].append((ctype.rstrip("*").strip(), ctype.endswith("*"), words[-1]))
    return found


def compile_for_cuda(mod):
    """``tvm.compile(mod, target="cuda")`` and the module as MakePackedAPI receives it (right
    after SplitHostDevice and the fixes that wrap it): (that module, the library)."""
    lib, captured = pass_records.compile_recording(mod, "cuda", "tirx.MakePackedAPI")
    assert len(captured) == 1
    return captured[0], lib

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
"""Kernel scalar cases of the narrow kernel scalar report, shared by the proof tests and
their GPU child process (this repository only).

Every case is ``main(B, C, x)`` for cuda at one of 12 dtypes, with the scalar ``v`` that the
kernel reads spelled three ways:

* ``param``: the function's argument itself, ``v = x``;
* ``let``:   ``c: T.let[ty] = x + 1`` (bool: ``T.Not(x)``), computed on the host;
* ``cell``:  ``c: ty = x + 1`` (bool: ``T.Not(x)``), a host-level cell: it reaches the kernel
  by value only with the host-scalar fix as well;

and the kernel computes ``C[i] = B[i] + v`` (bool: ``B[i] != v``).

The CUDA runtime passes a kernel scalar only as int32, uint32, int64, float32 or float64
(``GetArgConvertCode``, src/runtime/pack_args.h): LAUNCHABLE. NARROW maps each narrower
dtype to the 32-bit dtype the fix passes it as. The lowering's and the mutants' proof tests
share the failure of a case (ScalarNotLaunchable, NARROW_REASON) and the launch they read the
host's argument from (``launch``).
"""

import operator
import sys
from pathlib import Path

import numpy as np
import tvm_ffi

import tvm
from tvm.script import tirx as T

# the repository root, for harness/ (scripts/device_runs.py imports this module by its folder)
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from harness import kernel_scalars

N = kernel_scalars.N
DTYPES = [
    "float16", "bfloat16", "float32", "float64",
    "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "bool",
]  # fmt: skip
NARROW = {
    "float16": "float32",
    "bfloat16": "float32",
    "int8": "int32",
    "int16": "int32",
    "uint8": "uint32",
    "uint16": "uint32",
    "bool": "int32",
}
LAUNCHABLE = ("int32", "uint32", "int64", "float32", "float64")
SPELLINGS = ("param", "let", "cell")
# x per dtype: values that a wrong width or signedness would change
VALUES = {
    "float16": 1.5,
    "bfloat16": 1.5,
    "float32": 1.5,
    "float64": 1.5,
    "int8": -100,
    "int16": -300,
    "int32": -70000,
    "int64": -(2**40),
    "uint8": 200,
    "uint16": 40000,
    "uint32": 3000000000,
    "bool": True,
}
# C type of each dtype a launchable kernel scalar parameter can have
C_TYPES = {
    "int32": "int",
    "uint32": "uint",
    "int64": "int64_t",
    "float32": "float",
    "float64": "double",
}
# bfloat16 host scalars do not compile on 0.27 at all (report bfloat16_scalar: MakePackedAPI
# cannot bind a bfloat16 argument, BF16ComputeLegalize a bfloat16 T.let): those cases are a
# strict xfail of that report besides the others
BFLOAT16_REASON = "bfloat16 host scalar: it does not compile"
NARROW_REASON = "narrow kernel scalar parameter the runtime cannot pass"
# the kernel launch: T.call_ffi_kernel on the wheel, T.call_packed on TVM main of 2026-08
LAUNCH_OPS = ("tirx.call_ffi_kernel", "tirx.tvm_call_packed")


class ScalarNotLaunchable(AssertionError):
    """The value reaches the kernel in a form the runtime cannot launch."""


def launch(host, ops=LAUNCH_OPS):
    """The one launch of the host function ``host``: its one call of an op of ``ops``."""
    found = []

    def visit(node):
        if isinstance(node, tvm.ir.Call) and isinstance(node.op, tvm.ir.Op):
            if node.op.name in ops:
                found.append(node)

    tvm_ffi.structural_walk(host.body, visit, order="pre")
    assert len(found) == 1, found
    return found[0]


def split_dtype(spelling, dtype):
    """The dtype of the value the host passes when SplitHostDevice runs: BF16ComputeLegalize
    (before the split) stores a bfloat16 cell as float32."""
    return "float32" if (spelling, dtype) == ("cell", "bfloat16") else dtype


def passed_as(dtype):
    """The dtype the kernel parameter of a ``dtype`` scalar must have."""
    return NARROW.get(dtype, dtype)


def make(spelling, dtype):
    """The IRModule of ``spelling`` at ``dtype``."""
    if dtype == "bool":
        return kernel_scalars.scalar_read_by_kernel(dtype, spelling, T.Not, operator.ne)
    ty = getattr(T, dtype)
    return kernel_scalars.scalar_read_by_kernel(dtype, spelling, lambda x: x + ty(1))


def inputs(dtype):
    """(B, C, x): numpy arrays and the Python scalar."""
    b = (np.arange(N) % 2 == 0) if dtype == "bool" else np.arange(N).astype(dtype)
    return b, np.zeros(N, dtype=dtype), VALUES[dtype]


def expected(spelling, dtype):
    """C after running ``spelling`` at ``dtype`` on ``inputs(dtype)``, computed with numpy."""
    b, _, x = inputs(dtype)
    if dtype == "bool":
        v = x if spelling == "param" else not x
        return b != v
    v = np.array(x, dtype=dtype)
    if spelling != "param":
        v = v + np.array(1, dtype=dtype)
    return b + v


def run_on_cuda(lib, dtype):
    """Call ``lib["main"]`` on cuda(0) with ``inputs(dtype)``; return C as numpy."""
    return kernel_scalars.call_on_cuda(lib, *inputs(dtype))[1]


def kernel_params(cuda_source):
    """[(C type, is pointer, name)] of ``main_kernel``, read from its declaration."""
    return kernel_scalars.kernel_signatures(cuda_source)["main_kernel"]

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
"""Reproducer: a uint64 kernel scalar compiles, and no GPU runtime can launch it.

    python bugs/uint64_scalar/probe.py          # evidence
    python bugs/uint64_scalar/probe.py --check  # exit 1 if the bug reproduces

``main(A: T.Buffer(8, "uint64"), x: T.uint64)`` whose cuda kernel reads ``x``: SplitHostDevice
gives the kernel a uint64 scalar parameter and the module builds, though the GPU runtimes pass
kernel scalars only as int32, uint32, int64, float32 and float64 (``GetArgConvertCode`` in
``src/runtime/pack_args.h``): the first call fails with "Cannot handle uint64 as device
function argument". One layer, ``pass``: SplitHostDevice's output (a uint64 kernel parameter
= present; a ValueError naming uint64 = fixed). Control: the same function with an int64
scalar must split cleanly.

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run or is given an unknown argument. ``probe(run_gpu)`` returns the
findings for scripts/check_tvm.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

try:
    from probe_common import finding, main, run_main

    import tvm
    import tvm.tirx.transform
    from tvm.script import tirx as T
except Exception as err:  # no usable TVM: one line, exit 2
    print(f"uint64_scalar/probe.py: cannot import tvm/tirx: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "uint64_scalar"
NAME = "uint64_scalar/probe.py"


def function(dtype):
    """``A[i] = x`` on cuda threads, ``x`` a scalar argument of ``dtype``."""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, dtype), x: tvm.tirx.Var("x", dtype)):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = x

    return main


def kernel_scalars(dtype):
    """The kernel's scalar parameters after SplitHostDevice, as ``name: dtype``."""
    after = tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": function(dtype)}))
    kernel = after["main_kernel"]
    return [f"{p.name}: {p.ty.dtype}" for p in kernel.params if isinstance(p.ty, tvm.ir.PrimType)]


def probe(run_gpu=False):
    del run_gpu  # the launch failure itself needs a GPU; the pass output shows it
    control = kernel_scalars("int64")
    if control != ["x: int64"]:
        evidence = f"control: an int64 scalar becomes {control}, not `x: int64`"
        return [finding(BUG, "pass", "untestable", evidence)]
    try:
        scalars = kernel_scalars("uint64")
    except ValueError as err:
        if "uint64" in str(err):
            first = str(err).strip().splitlines()[0]
            return [finding(BUG, "pass", "fixed", f"SplitHostDevice rejects it: {first}")]
        raise
    if "x: uint64" in scalars:
        evidence = (
            f"main_kernel takes {', '.join(scalars)}, which no GPU runtime passes (int32, "
            "uint32, int64, float32, float64 only)"
        )
        return [finding(BUG, "pass", "present", evidence)]
    return [finding(BUG, "pass", "fixed", f"main_kernel takes {', '.join(scalars)}")]


if __name__ == "__main__":
    run_main(NAME, lambda: main(None, NAME, probe))

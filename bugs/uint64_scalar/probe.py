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
"""Reproducer: a uint64 kernel scalar compiles, and no device runtime can pass it.

    python bugs/uint64_scalar/probe.py          # evidence
    python bugs/uint64_scalar/probe.py --check  # exit 1 if the bug reproduces

``main(A: T.Buffer(8, "uint64"), x: T.uint64)`` whose kernel reads ``x`` gets a uint64 kernel
parameter, and the module builds (nothing changes at compile time, fixed or not). The device
runtimes convert each kernel scalar with ``GetArgConvertCode`` (``src/runtime/pack_args.h``,
shared by CUDA, ROCm, OpenCL, Vulkan and Metal); without a uint64 case the first call fails
with "Cannot handle uint64 as device function argument". One layer without a device,
``runtime``: that function in the header this TVM's runtime is built from (a wheel ships it,
a checkout has it; where the uint64 reference fix is installed, the header its OpenCL runtime
is built from): a uint64 case passing the 64-bit slot (``INT64_TO_INT64``) = fixed, none =
present, another slot = present (the value loses bits). check_tvm.py --run-gpu adds the launch
itself (its ``gpu run`` layer). Control: the same function with an int64 scalar must split into
a kernel taking ``x: int64``.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, needs_tvm, script

BUG = "uint64_scalar"

with needs_tvm(BUG):
    import tvm
    import tvm.tirx.transform
    from tvm.script import tirx as T

HEADER = "src/runtime/pack_args.h"


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


def runtime_header():
    """(text of pack_args.h this TVM's runtime is built from, where it comes from), or
    (None, why not)."""
    runtime = sys.modules.get("opencl_runtime")  # the uint64 reference fix's runtime
    variant = runtime.selected() if runtime is not None else None
    package = Path(tvm.__file__).resolve().parent
    for top in (package, package.parent.parent):  # a wheel, a checkout's python/tvm
        path = top / HEADER
        if path.is_file():
            if variant is not None:
                text = variant.texts(runtime.layout(package))[Path(HEADER).name]
                return text, f"{HEADER} as the installed fix's OpenCL runtime is built"
            return path.read_text(), f"{HEADER} of this TVM"
    return None, f"no {HEADER} beside {package}"


def uint64_slot(text):
    """The slot GetArgConvertCode gives a uint64 scalar ('' for none), or None if the function
    is not found."""
    body = re.search(r"ArgConvertCode GetArgConvertCode\(DLDataType t\) \{(.*?)\n\}", text, re.S)
    if body is None:
        return None
    branch = re.search(r"t\.code == kDLUInt\) \{(.*?)\}", body.group(1), re.S)
    case = re.search(r"t\.bits == 64U\) return (\w+);", branch.group(1)) if branch else None
    return case.group(1) if case else ""


def probe(run_gpu=False):
    del run_gpu  # the launch itself is check_tvm.py's gpu run layer
    control = kernel_scalars("int64")
    scalars = kernel_scalars("uint64")
    if control != ["x: int64"] or scalars != ["x: uint64"]:
        evidence = f"the kernels take {control} (int64) and {scalars} (uint64), not one scalar x"
        return [finding(BUG, "runtime", "untestable", evidence)]
    text, where = runtime_header()
    slot = uint64_slot(text) if text is not None else None
    if slot is None:
        reason = where if text is None else f"no GetArgConvertCode in {where}"
        return [finding(BUG, "runtime", "untestable", reason)]
    if slot == "INT64_TO_INT64":
        evidence = f"main_kernel takes x: uint64; {where} passes it in the 64-bit slot"
        return [finding(BUG, "runtime", "fixed", evidence)]
    evidence = (
        f"main_kernel takes x: uint64; {where} "
        + (f"passes it as {slot}: the value loses bits" if slot else "has no uint64 case")
        + " ('Cannot handle uint64 as device function argument' at the first call)" * (not slot)
    )
    return [finding(BUG, "runtime", "present", evidence)]


if __name__ == "__main__":
    script(BUG, probe)

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
"""The tvm-tirx probe of host_scalar: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/host_scalar/probe_tirx.py          # evidence
    python bugs/host_scalar/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/host_scalar/probe_tirx.py --run-gpu  # also the gpu run layer (a child)
    python bugs/host_scalar/probe_tirx.py --json   # the findings as JSON

``c: T.float32 = T.float32(1.5)`` at host level of a cuda function, read by its kernel.
Layers: parse (the one-element local cell: the premise, never a verdict), codegen (kernel gets
``float* c_ptr``), host IR (the cell allocated with a non-CPU device type and stored from the
host), gpu run (--run-gpu, in a child process: a SIGSEGV or wrong values are the bug).
Control: ``c = T.float32(1.5)`` (a ``T.let``) must compile clean, else those layers are
untestable.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding, first_line, host_device_writes
from probe_tirx_common import N, T, np

VALUE = 1.5
# what in the gpu run's child is the bug: a SIGSEGV at the call, or wrong values
GPU_SHOWS = {"crash": "SIGSEGV", "wrong": True}


def _host_device_writes(lib):
    """Host LLVM IR: workspace allocations with a non-CPU device type, and host stores into
    them: ([allocation lines], [store lines])."""
    return host_device_writes(lib.mod.inspect_source("ll"))


def host_scalar_function(variant):
    """``C[i] = B[i] + c`` on cuda threads, the host-level ``c`` annotated (a cell) or plain
    (a ``T.let`` binding)."""
    if variant == "annotated":

        @T.function
        def main(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
            c: T.float32 = T.float32(VALUE)
            with T.launch_thread("threadIdx.x", N) as i:
                C[i] = B[i] + c

    else:

        @T.function
        def main(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
            c = T.float32(VALUE)
            with T.launch_thread("threadIdx.x", N) as i:
                C[i] = B[i] + c

    return main


def _parsed_c(func):
    """How ``c`` parses: ('cell' | 'binding' | 'other', the printed line)."""
    text = func.script()
    line = next((x.strip() for x in text.splitlines() if re.match(r"\s*c\b", x)), "")
    if re.match(r"c = T\.alloc_tensor\(.*\(1,\).*scope=\"local\"", line) and re.search(
        r"^\s*c\[0\] = ", text, re.M
    ):
        return "cell", line
    if line.startswith("c: T.let["):
        return "binding", line
    return "other", line or "(no `c` in the printed function)"


def _c_pointer(signature):
    return re.search(r"\*\s*(?:__restrict__\s+)?c_ptr\b", signature) is not None


def _host_scalar_control():
    """None when the plain spelling is a T.let that compiles clean, else why not."""
    func = host_scalar_function("plain")
    kind, line = _parsed_c(func)
    if kind != "binding":
        return f"control `c = T.float32(...)` parses as `{line}`, not a T.let binding"
    lib = common.compile_cuda(func)
    signature = common.cuda_kernel_signature(lib)
    allocs, stores = _host_device_writes(lib)
    if _c_pointer(signature) or allocs or stores:
        return f"control `{line}` is not clean either: {signature} {allocs[:1]} {stores[:1]}"
    return None


def probe(run_gpu=False):
    bug = "host_scalar"
    gone = common.missing()
    if gone:
        why = f"this TIRx lacks {', '.join(gone)}"
        return [finding(bug, layer, "untestable", why) for layer in ("codegen", "host IR")]
    rows = []

    def parse():
        kind, line = _parsed_c(host_scalar_function("annotated"))
        if kind == "cell":
            evidence = f"`c: T.float32 = ...` parses into `{line}` (a local cell: the premise)"
            return finding(bug, "parse", "untestable", evidence)
        if kind == "binding":
            return finding(bug, "parse", "fixed", f"`c: T.float32 = ...` parses into `{line}`")
        return finding(bug, "parse", "untestable", f"`c: T.float32 = ...` parses into `{line}`")

    rows.append(common.run_layer(bug, "parse", parse))
    try:
        control = _host_scalar_control()
    except Exception as err:
        control = f"control `c = T.float32(...)` does not compile: {first_line(err)}"
    if control:
        rows += [finding(bug, layer, "untestable", control) for layer in ("codegen", "host IR")]
    else:
        compiled = {}

        def codegen():
            compiled["lib"] = common.compile_cuda(host_scalar_function("annotated"))
            signature = common.cuda_kernel_signature(compiled["lib"])
            present = _c_pointer(signature)
            return finding(bug, "codegen", "present" if present else "fixed", signature)

        def host_ir():
            if "lib" not in compiled:
                return finding(bug, "host IR", "untestable", "the function does not compile")
            allocs, stores = _host_device_writes(compiled["lib"])
            if allocs and stores:
                return finding(bug, "host IR", "present", f"{allocs[0]} | {stores[0]}")
            evidence = "no device workspace stored from the host"
            return finding(
                bug, "host IR", "fixed", evidence + (f" ({allocs[0]})" if allocs else "")
            )

        rows.append(common.run_layer(bug, "codegen", codegen))
        rows.append(common.run_layer(bug, "host IR", host_ir))
    rows.append(common.gpu_layer(bug, __file__, "host_scalar", run_gpu, **GPU_SHOWS))
    return rows


def child(case):
    """The gpu run's child (``--child host_scalar``): the annotated function on cuda(0)."""
    del case
    expected = (np.arange(N, dtype="float32") + np.float32(VALUE)).tolist()
    lib = common.compile_cuda(host_scalar_function("annotated"))
    common.call_on_cuda(lib, "float32", (), expected)


if __name__ == "__main__":
    common.script("host_scalar", probe, child)

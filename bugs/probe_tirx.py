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
"""Reproducer: the three TIRx reports on the extracted TIRx package (apache-tvm-tirx,
module ``tvm_tirx``), written in its own API (``@T.function``, ``T.Tensor``,
``T.launch_thread``, ``tvm_tirx.tirx.compile``).

    python bugs/probe_tirx.py            # evidence, no GPU needed
    python bugs/probe_tirx.py --check    # exit 1 when a bug reproduces
    python bugs/probe_tirx.py --run-gpu  # also run the GPU layers (child processes)
    python bugs/probe_tirx.py --json     # the findings as JSON

Per report, one function returning the findings per layer, in the shape of the other
reproducers' ``probe()`` (rows ``bug``, ``layer``, ``status`` present / fixed / untestable,
``evidence``), for scripts/check_tvm.py:

* ``probe_host_scalar``   ``c: T.float32 = T.float32(1.5)`` at host level of a cuda function,
                          read by its kernel. parse (the one-element local cell: the premise,
                          never a verdict), codegen (kernel gets ``float* c_ptr``), host IR (the
                          cell allocated with a non-CPU device type and stored from the host),
                          gpu run (--run-gpu). Control: ``c = T.float32(1.5)`` (a ``T.let``)
                          must compile clean, else those layers are untestable.
* ``probe_verify_memory`` analysis (``verify_memory`` on the pipeline's shape: the parameters
                          re-declared by ``T.decl_tensor(C.data, ...)``) and compile (a host
                          store into an argument before a launch, and a loop bound to no
                          thread, through ``tvm_tirx.tirx.compile`` for cuda: silent = present,
                          VerifyMemory's "is directly accessed by host memory" = fixed).
* ``probe_narrow_scalar`` codegen (float16 / int8 ``T.let`` values computed on the host and
                          read by a kernel: a kernel scalar parameter narrower than 32 bits =
                          present), gpu run (--run-gpu, a CUDA device: the runtime's "Cannot
                          handle ... as device function argument" = present).

The other reports' functions (printer, in-place passes, uint64, bfloat16, and the reports
written as texts only) say what each checks in their docstrings.

Without a GPU, the cuda target carries an explicit arch (``sm_80``). A TIRx whose API lacks a
probe's pieces gives untestable rows naming what is missing. AllocateWorkspace (relax) is not
part of this package. Exit codes: 0 after printing; 1 with --check when a bug reproduces; 2
with a one-line reason when it cannot run (no tvm_tirx).
"""

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from probe_common import (
    bad_arguments,
    finding,
    first_line,
    host_device_writes,
    input_change,
    judge,
    kernel_signature,
    print_findings,
    run_main,
    script_definitions,
)

try:
    import numpy as np
    import tvm_tirx
    from tvm_tirx.script import tirx as T
except Exception as _err:  # no usable TIRx package: one line, exit 2
    print(f"probe_tirx: cannot import tvm_tirx: {_err}", file=sys.stderr)
    raise SystemExit(2) from None

BUGS = Path(__file__).resolve().parent  # bugs/: each report's folder
N = 8
VALUE = 1.5
NARROW = ("float16", "int8")
NARROW_VALUES = {"float16": 1.5, "int8": -100}
# C types of the kernel scalar parameters the runtime passes (int32, uint32, int64, float32,
# float64), as the CUDA code generator prints them
LAUNCHABLE = ("int", "uint", "int64_t", "float", "double")
VERIFIER_TEXT = "is directly accessed by host memory"
REFUSED = "as device function argument"  # the runtime's "Cannot handle <dtype> as ..."

# what each probe needs of the package: (object, attribute path)
_SCRIPT_API = ("function", "Tensor", "launch_thread", "float32", "let")
_PACKAGE_API = ("IRModule", "tirx.compile", "target.Target")


def _missing(script=(), package=()):
    """The API pieces this TIRx lacks, as ``T.x`` / ``tvm_tirx.x`` names."""
    gone = [f"T.{name}" for name in _SCRIPT_API + tuple(script) if not hasattr(T, name)]
    for path in _PACKAGE_API + tuple(package):
        obj = tvm_tirx
        for part in path.split("."):
            obj = getattr(obj, part, None)
        if obj is None:
            gone.append(f"tvm_tirx.{path}")
    return gone


def _needs(script=(), package=()):
    """Mark a layer's function with the API pieces it needs beyond the base ones (``_missing``'s
    arguments): ``_layer`` gives an untestable row naming those this TIRx lacks instead of
    running it."""

    def mark(func):
        func.needs = {"script": script, "package": package}
        return func

    return mark


def _layer(bug, layer, func, *args):
    """Run one layer; a crash gives an untestable row with its first line (a function marked
    with ``_needs``: an untestable row where this TIRx lacks what it needs)."""
    needs = getattr(func, "needs", None)
    if needs is not None:
        gone = _missing(**needs)
        if gone:
            return finding(bug, layer, "untestable", f"this TIRx lacks {', '.join(gone)}")
    try:
        return func(*args)
    except Exception as err:
        return finding(bug, layer, "untestable", f"cannot tell: probe raised {first_line(err)}")


def cuda_target():
    """The cuda target: the device's own arch where there is one, else sm_80 (without a
    GPU a cuda target needs an explicit arch)."""
    if tvm_tirx.cuda(0).exist:
        return tvm_tirx.target.Target("cuda")
    return tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})


def _compile(func):
    return tvm_tirx.tirx.compile(tvm_tirx.IRModule({"main": func}), target=cuda_target())


def _kernel_signature(lib):
    return "main_kernel" + kernel_signature(lib).split("main_kernel", 1)[-1]


def _host_device_writes(lib):
    """Host LLVM IR: workspace allocations with a non-CPU device type, and host stores into
    them: ([allocation lines], [store lines])."""
    return host_device_writes(lib.mod.inspect_source("ll"))


# --------------------------------------------------------------------------------------------
# host_scalar


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
    lib = _compile(func)
    signature = _kernel_signature(lib)
    allocs, stores = _host_device_writes(lib)
    if _c_pointer(signature) or allocs or stores:
        return f"control `{line}` is not clean either: {signature} {allocs[:1]} {stores[:1]}"
    return None


def probe_host_scalar(run_gpu=False):
    bug = "host_scalar"
    gone = _missing()
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

    rows.append(_layer(bug, "parse", parse))
    try:
        control = _host_scalar_control()
    except Exception as err:
        control = f"control `c = T.float32(...)` does not compile: {first_line(err)}"
    if control:
        rows += [finding(bug, layer, "untestable", control) for layer in ("codegen", "host IR")]
    else:
        compiled = {}

        def codegen():
            compiled["lib"] = _compile(host_scalar_function("annotated"))
            signature = _kernel_signature(compiled["lib"])
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

        rows.append(_layer(bug, "codegen", codegen))
        rows.append(_layer(bug, "host IR", host_ir))
    rows.append(_gpu_layer(bug, "host_scalar", run_gpu))
    return rows


# --------------------------------------------------------------------------------------------
# verify_memory


def verify_memory_functions():
    """(host store before a launch, a loop bound to no thread): both must be rejected."""

    @T.function
    def main(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        C[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as i:
            C[i] = B[i]

    host_store = main

    @T.function
    def main(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        for i in range(N):
            C[i] = B[i]

    return host_store, main


def _pipeline_shaped_functions():
    """The host store as the verifier sees it in the pipeline (through ``decl_tensor``
    aliases of the parameters), and on the parameter itself; both with a cuda target."""

    @T.function
    def through_alias(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        B_1 = T.decl_tensor(B.data, ty_args=[T.Tensor((N,), "float32")])
        C_1 = T.decl_tensor(C.data, ty_args=[T.Tensor((N,), "float32")])
        C_1[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as i:
            C_1[i] = B_1[i]

    @T.function
    def on_parameter(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        C[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as i:
            C[i] = B[i]

    target = cuda_target()
    return through_alias.with_attr("target", target), on_parameter.with_attr("target", target)


def _compile_outcome(func):
    """'silent', 'rejected' (with the verifier's line) or 'error' (with the first line)."""
    try:
        _compile(func)
    except Exception as err:
        lines = [x.strip() for x in str(err).splitlines()]
        hit = next((x for x in lines if VERIFIER_TEXT in x), None)
        return ("rejected", hit) if hit else ("error", first_line(err))
    return "silent", ""


def probe_verify_memory(run_gpu=False):
    bug = "verify_memory"
    rows = []

    @_needs(script=("decl_tensor",), package=("tirx.analysis.verify_memory",))
    def analysis():
        alias, param = _pipeline_shaped_functions()
        verify = tvm_tirx.tirx.analysis.verify_memory
        if verify(param):
            evidence = "verify_memory accepts a host store on the parameter itself: cannot tell"
            return finding(bug, "analysis", "untestable", evidence)
        if verify(alias):
            evidence = (
                "verify_memory(host store through `C_1 = T.decl_tensor(C.data, ...)`) is True; "
                "on `C` itself it is False"
            )
            return finding(bug, "analysis", "present", evidence)
        return finding(
            bug, "analysis", "fixed", "verify_memory rejects the store through the alias"
        )

    @_needs()
    def compile_layer():
        host_store, unbound = verify_memory_functions()
        outcomes = {
            "host store before launch": _compile_outcome(host_store),
            "unbound loop": _compile_outcome(unbound),
        }
        errors = [f"{k}: {v}" for k, (s, v) in outcomes.items() if s == "error"]
        if errors:
            return finding(bug, "compile", "untestable", "cannot tell: " + "; ".join(errors))
        silent = [k for k, (s, _) in outcomes.items() if s == "silent"]
        if silent:
            evidence = f"tvm_tirx.tirx.compile(cuda) accepts: {', '.join(silent)} (no error)"
            return finding(bug, "compile", "present", evidence)
        return finding(bug, "compile", "fixed", f"both rejected: {outcomes['unbound loop'][1]}")

    rows.append(_layer(bug, "analysis", analysis))
    rows.append(_layer(bug, "compile", compile_layer))
    return rows


# --------------------------------------------------------------------------------------------
# narrow_scalar


def narrow_function(dtype):
    """``C[i] = B[i] + c`` on cuda threads, ``c: T.let[dtype] = x + 1`` computed on the host."""
    ty = getattr(T, dtype)

    @T.function
    def main(B: T.Tensor((N,), dtype), C: T.Tensor((N,), dtype), x: ty):
        c: T.let[ty] = x + ty(1)
        with T.launch_thread("threadIdx.x", N) as i:
            C[i] = B[i] + c

    return main


def _scalar_ctype(signature):
    params = signature.split("main_kernel(", 1)[-1].rstrip(")").split(",")
    scalars = [p.split()[:-1] for p in params if "*" not in p]
    return " ".join(scalars[0]) if scalars else None


def probe_narrow_scalar(run_gpu=False):
    bug = "narrow_scalar"
    rows = []

    @_needs(script=NARROW)
    def codegen():
        signatures = {d: _kernel_signature(_compile(narrow_function(d))) for d in NARROW}
        ctypes = {d: _scalar_ctype(s) for d, s in signatures.items()}
        if any(c is None for c in ctypes.values()):
            evidence = f"cannot tell: no kernel scalar parameter in {signatures}"
            return finding(bug, "codegen", "untestable", evidence)
        refused = [f"{d} -> {c}" for d, c in ctypes.items() if c not in LAUNCHABLE]
        evidence = "float16 T.let: " + signatures["float16"]
        if refused:
            evidence += f" | kernel scalars the runtime cannot pass: {', '.join(refused)}"
            return finding(bug, "codegen", "present", evidence)
        return finding(
            bug, "codegen", "fixed", evidence + " | every kernel scalar is 32 or 64 bits"
        )

    rows.append(_layer(bug, "codegen", codegen))
    rows.append(_gpu_layer(bug, "float16", run_gpu))
    return rows


# --------------------------------------------------------------------------------------------
# printer_cell: does a one-element cell keep its annotations and scope through print -> parse?


def printer_cell_functions():
    """(annotated local cell, shared cell), each written as that package's parser reads it."""

    @T.function
    def annotated(x: T.float32):
        c = T.alloc_tensor(
            ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
        )
        c[0] = x
        T.evaluate(c[0])

    @T.function
    def shared(x: T.float32):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="shared")])
        c[0] = x
        T.evaluate(c[0])

    return annotated, shared


def _round_trip_difference(func):
    parse = tvm_tirx.script.from_source
    try:
        tvm_tirx.ir.assert_structural_equal(func, parse(func.script(), extra_vars={"T": T}))
    except ValueError as err:
        lines = [ln for ln in str(err).splitlines() if "caused by" in ln] or [str(err)]
        return lines[0].strip()
    return None


def probe_printer_cell(run_gpu=False):
    del run_gpu
    bug = "printer_cell"

    @_needs(script=("alloc_tensor",), package=("script.from_source",))
    def round_trip():
        annotated, shared = printer_cell_functions()
        lost = {"annotated": _round_trip_difference(annotated), "shared": None}
        lost["shared"] = _round_trip_difference(shared)
        if any(lost.values()):
            evidence = "; ".join(f"{k}: {v}" for k, v in lost.items() if v)
            return finding(bug, "round trip", "present", evidence)
        line = next(ln.strip() for ln in annotated.script().splitlines() if "alloc_tensor" in ln)
        return finding(bug, "round trip", "fixed", f"no scalar sugar here: `{line}` round-trips")

    return [_layer(bug, "round trip", round_trip)]


def probe_printer_param_data(run_gpu=False):
    """Not affected on 0.1.0a4 (its printer writes ``A.data``): the probe pins the round trip."""
    del run_gpu
    bug = "printer_param_data"

    @_needs(script=("decl_tensor",), package=("script.from_source",))
    def round_trip():
        @T.function
        def main(A: T.Tensor((1,), T.float32), x: T.float32):
            A[0] = x

        after = tvm_tirx.tirx.transform.FlattenTensor()(tvm_tirx.IRModule({"main": main}))
        line = next(ln.strip() for ln in after.script().splitlines() if "decl_tensor" in ln)
        try:
            difference = _round_trip_difference(after)
        except Exception as err:  # the parser refusing the printed text
            return finding(bug, "round trip", "present", f"`{line}`: {first_line(err)}")
        if difference:
            return finding(bug, "round trip", "present", f"`{line}`: {difference}")
        return finding(bug, "round trip", "fixed", f"FlattenTensor's `{line}` round-trips")

    return [_layer(bug, "round trip", round_trip)]


# --------------------------------------------------------------------------------------------
# split_host_device_inplace, annotate_entry_func_inplace: does the pass change the module it
# is given?


def _in_place_row(bug, make_pass, module, control):
    """The ``pass`` row: ``control`` (a module the pass does not change) must stay equal."""
    name = make_pass.__name__
    return judge(
        bug,
        "pass",
        control=lambda: input_change(make_pass, control, tvm_tirx.ir),
        case=lambda: input_change(make_pass, module, tvm_tirx.ir),
        fixed=f"{name}()(mod) leaves mod unchanged",
        untestable="even the control changes: ",
        present=f"after {name}()(mod): ",
    )


def probe_split_host_device_inplace(run_gpu=False):
    del run_gpu
    bug = "split_host_device_inplace"

    def row():
        @T.ir_module
        class WithKernel:
            @T.function
            def main(A: T.Tensor((N,), "float32")):
                T.func_attr({"target": cuda_target().with_host("llvm")})
                with T.launch_thread("threadIdx.x", N) as i:
                    A[i] = A[i] + T.float32(1)

        @T.ir_module
        class WithoutKernel:
            @T.function
            def main(A: T.Tensor((N,), "float32")):
                T.func_attr({"target": tvm_tirx.target.Target("llvm")})
                for i in range(N):
                    A[i] = A[i] + T.float32(1)

        split = tvm_tirx.tirx.transform.SplitHostDevice
        return _in_place_row(bug, split, WithKernel, WithoutKernel)

    return [_layer(bug, "pass", row)]


def probe_annotate_entry_func_inplace(run_gpu=False):
    del run_gpu
    bug = "annotate_entry_func_inplace"

    def row():
        @T.ir_module
        class One:
            @T.function
            def main(A: T.Tensor((N,), "float32")):
                for i in range(N):
                    A[i] = T.float32(0)

        @T.ir_module
        class TwoPublic:
            @T.function
            def main(A: T.Tensor((N,), "float32")):
                for i in range(N):
                    A[i] = T.float32(0)

            @T.function
            def other(A: T.Tensor((N,), "float32")):
                for i in range(N):
                    A[i] = T.float32(1)

        annotate = tvm_tirx.tirx.transform.AnnotateEntryFunc
        return _in_place_row(bug, annotate, One, TwoPublic)

    return [_layer(bug, "pass", row)]


def probe_lower_iket_inplace(run_gpu=False):
    del run_gpu
    bug = "lower_iket_inplace"
    sm90 = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_90a"})

    @T.function
    def marked(A: T.Tensor((N,), "int32")):
        T.func_attr({"target": sm90.with_host("llvm")})
        with T.launch_thread("threadIdx.x", N) as i:
            T.cuda.iket_mark("first")
            A[i] = 1
        with T.launch_thread("threadIdx.x", N) as i:
            T.cuda.iket_mark("second")
            A[i] = A[i] + 2
        with T.launch_thread("threadIdx.x", N) as i:
            T.cuda.iket_mark("third")
            A[i] = A[i] + 3

    @T.function
    def unmarked(A: T.Tensor((N,), "int32")):
        T.func_attr({"target": sm90.with_host("llvm")})
        with T.launch_thread("threadIdx.x", N) as i:
            A[i] = 1
        with T.launch_thread("threadIdx.x", N) as i:
            A[i] = A[i] + 2
        with T.launch_thread("threadIdx.x", N) as i:
            A[i] = A[i] + 3

    def split(func):
        return tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": func}))

    def pass_row():
        from tvm_tirx.backend.cuda.transform import LowerIket

        return _in_place_row(bug, LowerIket, split(marked), split(unmarked))

    def compile_row():
        try:
            tvm_tirx.tirx.compile(unmarked, target=sm90)
        except Exception as err:  # the control must compile
            return finding(bug, "compile", "untestable", f"control: {first_line(err)}")
        try:
            tvm_tirx.tirx.compile(marked, target=sm90)
        except RuntimeError as err:  # the code generator meets a mark left in a kernel
            return finding(bug, "compile", "present", f"three marked kernels: {first_line(err)}")
        return finding(bug, "compile", "fixed", "three marked kernels compile")

    return [_layer(bug, "pass", pass_row), _layer(bug, "compile", compile_row)]


def probe_uint64_scalar(run_gpu=False):
    del run_gpu
    bug = "uint64_scalar"

    def scalars(dtype):
        scalar = getattr(T, dtype)

        @T.function
        def main(A: T.Tensor((N,), dtype), x: scalar):
            T.func_attr({"target": cuda_target().with_host("llvm")})
            with T.launch_thread("threadIdx.x", N) as i:
                A[i] = x

        after = tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))
        params = after["main_kernel"].params
        return [f"{p.name}: {p.ty.dtype}" for p in params if isinstance(p.ty, tvm_tirx.ir.PrimType)]

    def row():
        if scalars("int64") != ["x: int64"]:
            return finding(bug, "pass", "untestable", "control: an int64 scalar is not `x: int64`")
        try:
            found = scalars("uint64")
        except ValueError as err:
            if "uint64" not in str(err):
                raise
            return finding(bug, "pass", "fixed", f"SplitHostDevice rejects it: {first_line(err)}")
        if "x: uint64" in found:
            evidence = f"main_kernel takes {', '.join(found)}, which no GPU runtime passes"
            return finding(bug, "pass", "present", evidence)
        return finding(bug, "pass", "fixed", f"main_kernel takes {', '.join(found)}")

    return [_layer(bug, "pass", row)]


def probe_bfloat16_scalar(run_gpu=False):
    del run_gpu
    bug = "bfloat16_scalar"

    def error(dtype):
        @T.function
        def main(A: T.Tensor((N,), T.float32), x: getattr(T, dtype)):
            for i in range(N):
                A[i] = T.Cast("float32", x)

        try:
            tvm_tirx.tirx.compile(main, target="llvm")
        except Exception as err:  # the code generator's error, or a fixed TIRx's diagnostic
            return first_line(err)
        return None

    def row():
        control = error("float16")
        if control:
            return finding(bug, "compile", "untestable", f"control: float16 fails: {control}")
        found = error("bfloat16")
        if found:
            return finding(bug, "compile", "present", f"a bfloat16 argument on llvm: {found}")
        return finding(bug, "compile", "fixed", "a bfloat16 argument compiles on llvm")

    return [_layer(bug, "compile", row)]


# --------------------------------------------------------------------------------------------
# the reports written as texts only (no reference fix) that this package can show: a function
# each (storage_rewrite_address_of_view's pins that this package is not affected)


def probe_bfloat16_address_of_view(run_gpu=False):
    """A bfloat16 tensor read through a bfloat16 view at ``T.address_of(v[0])``, on llvm."""
    del run_gpu
    bug = "bfloat16_address_of_view"
    views = {"data": lambda v: v.data, "address_of": lambda v: T.address_of(v[0])}

    def read_back(view):
        at = views[view]

        @T.function
        def main(o: T.Tensor((1,), "bfloat16")):
            v = T.alloc_tensor(ty_args=[T.Tensor((1,), "bfloat16")])
            v[0] = T.bfloat16(2.0)
            w = T.decl_tensor(at(v), ty_args=[T.Tensor((1,), "bfloat16")])
            o[0] = w[0]

        o = tvm_tirx.runtime.empty((1,), "bfloat16")
        tvm_tirx.tirx.compile(main, target="llvm")["main"](o)
        return float(o.numpy()[0])

    @_needs(script=("alloc_tensor", "decl_tensor", "address_of"))
    def row():
        control = read_back("data")
        if control != 2.0:
            return finding(bug, "run", "untestable", f"control: the view at v.data reads {control}")
        got = read_back("address_of")
        if got != 2.0:
            evidence = f"llvm: the view at T.address_of(v[0]) reads {got} where v[0] = 2.0"
            return finding(bug, "run", "present", evidence)
        return finding(bug, "run", "fixed", "llvm: both views read 2.0")

    return [_layer(bug, "run", row)]


def probe_bfloat16_store_nan(run_gpu=False):
    """float32 NaNs (by their bits) stored into a bfloat16 tensor, on llvm: each must stay NaN."""
    del run_gpu
    bug = "bfloat16_store_nan"

    @T.function
    def store(x: T.int32, B: T.Tensor((1,), "bfloat16")):
        B[0] = T.Cast("bfloat16", T.reinterpret(x, ty=T.float32))

    def row():
        lib = tvm_tirx.tirx.compile(store, target="llvm")["main"]
        b = tvm_tirx.runtime.empty((1,), "bfloat16")

        def stored(bits):  # the value stored for the float32 of ``bits`` (as an int32)
            lib(bits - (1 << 32) if bits >= 1 << 31 else bits, b)
            return float(b.numpy()[0])

        quiet, tie = stored(0x7FC00000), stored(0x3F808000)
        if quiet == quiet or tie != 1.0:
            evidence = f"control: the quiet NaN gives {quiet}, 1 + 2**-8 gives {tie} (want 1.0)"
            return finding(bug, "run", "untestable", evidence)
        lost = {bits: stored(bits) for bits in (0x7FFFFFFF, 0xFFFFFFFF, 0x7F800001)}
        lost = {bits: value for bits, value in lost.items() if value == value}
        if lost:
            evidence = ", ".join(f"NaN {bits:#010x} -> {value}" for bits, value in lost.items())
            return finding(bug, "run", "present", f"llvm, stored into bfloat16: {evidence}")
        return finding(bug, "run", "fixed", "llvm: every NaN stored into bfloat16 stays a NaN")

    return [_layer(bug, "run", row)]


def probe_reinterpret_of_constant(run_gpu=False):
    """A kernel's ``T.reinterpret(T.float32(2.0), ty=T.uint32)`` in OpenCL and CUDA source: the
    address of a literal (``&(2.0...)``) is no valid C."""
    del run_gpu
    bug = "reinterpret_of_constant"

    @T.function
    def main(A: T.Tensor((1,), "uint32")):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.reinterpret(T.float32(2.0), ty=T.uint32)

    def row():
        found = []
        for target in ("opencl", {"kind": "cuda", "arch": "sm_80"}):
            target = tvm_tirx.target.Target(target)
            lib = tvm_tirx.tirx.compile(main, target=target)
            source = lib.mod.imports[0].inspect_source()
            line = next((x.strip() for x in source.splitlines() if "A_ptr[0] =" in x), None)
            if line is None:
                evidence = f"{target.kind.name}: no store to A_ptr[0] in the kernel source"
                return finding(bug, "codegen", "untestable", evidence)
            if re.search(r"&\(\s*[-+.0-9]", line):
                found.append(f"{target.kind.name}: `{line}`")
        if found:
            evidence = f"the address of a literal: {'; '.join(found)}"
            return finding(bug, "codegen", "present", evidence)
        return finding(bug, "codegen", "fixed", "opencl, cuda: no kernel takes a literal's address")

    return [_layer(bug, "codegen", row)]


def probe_throw_last_error_type(run_gpu=False):
    """MakePackedAPI's ``throw_last_error`` (int32) against the same call after print -> parse."""
    del run_gpu
    bug = "throw_last_error_type"

    @_needs(script=("throw_last_error",), package=("script.from_source",))
    def round_trip():
        target = {"kind": "cuda", "arch": "sm_80", "host": "llvm"}

        @T.function
        def main(A: T.Tensor((1,), T.float32), x: T.float32):
            T.func_attr({"target": T.target(target)})
            with T.launch_thread("threadIdx.x", 1):
                A[0] = x

        passes = tvm_tirx.tirx.transform
        mod = tvm_tirx.IRModule({"main": main})
        after = passes.MakePackedAPI()(passes.SplitHostDevice()(mod))
        if "throw_last_error" not in after.script():
            return finding(bug, "round trip", "untestable", "MakePackedAPI wrote no throw here")
        difference = _round_trip_difference(after)
        if difference:
            return finding(bug, "round trip", "present", f"MakePackedAPI's output: {difference}")
        return finding(bug, "round trip", "fixed", "MakePackedAPI's throw_last_error round-trips")

    return [_layer(bug, "round trip", round_trip)]


def _codegen_refusal(func, target):
    """None when ``func`` compiles for ``target``, else (internal, the error's first line):
    internal when the message is a failed check or a fatal type conversion, not a diagnostic."""
    try:
        tvm_tirx.tirx.compile(func, target=target)
    except Exception as err:  # what kind of refusal is the finding
        first = first_line(err)
        internal = any(s in first for s in ("Check failed", "Cannot convert type"))
        return internal, first
    return None


def probe_codegen_missing_dtype(run_gpu=False):
    """WebGPU (int64, uint64, float64) and Metal (float64) kernels: a dtype the target lacks
    must be refused with a diagnostic, not a failed check."""
    del run_gpu
    bug = "codegen_missing_dtype"
    kernel = script_definitions(BUGS / bug / "repro_tirx.py").kernel  # the reproducer's kernel

    def row():
        for target in ("webgpu", "metal"):
            if _codegen_refusal(kernel("int32"), target) is not None:
                evidence = f"control: an int32 kernel does not compile for {target}"
                return finding(bug, "codegen", "untestable", evidence)
        internal = []
        for target, dtype in (("webgpu", "int64"), ("webgpu", "uint64"), ("webgpu", "float64"),
                              ("metal", "float64")):  # fmt: skip
            result = _codegen_refusal(kernel(dtype), target)
            if result is not None and result[0]:
                internal.append(f"{target} {dtype}: {result[1]}")
        if internal:
            return finding(bug, "codegen", "present", "; ".join(internal))
        evidence = "each missing dtype is refused with a diagnostic (or compiles)"
        return finding(bug, "codegen", "fixed", evidence)

    return [_layer(bug, "codegen", row)]


def probe_webgpu_view_at_address(run_gpu=False):
    """A view a kernel declares at ``T.address_of(A[0])``: compiles for cuda (the control); for
    webgpu it must compile or be refused with a diagnostic, not a failed check."""
    del run_gpu
    bug = "webgpu_view_at_address"

    @T.function
    def main(A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            A_k = T.decl_tensor(T.address_of(A[0]), ty_args=[T.Tensor((1,), "float32")])
            B[0] = A_k[0]

    def row():
        control = _codegen_refusal(main, tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"}))
        if control is not None:
            return finding(bug, "codegen", "untestable", f"control: cuda refuses it: {control[1]}")
        result = _codegen_refusal(main, "webgpu")
        if result is None:
            return finding(bug, "codegen", "fixed", "the view compiles for webgpu")
        if result[0]:
            return finding(bug, "codegen", "present", f"webgpu: {result[1]}")
        return finding(bug, "codegen", "fixed", f"webgpu refuses the view: {result[1]}")

    return [_layer(bug, "codegen", row)]


def probe_storage_rewrite_address_of_view(run_gpu=False):
    """Not affected on 0.1.0a4: a CPU tensor used only through a ``T.address_of`` view keeps its
    allocation through StorageRewrite, and the compiled function stores through the view."""
    del run_gpu
    bug = "storage_rewrite_address_of_view"

    @T.function
    def main(o: T.Tensor((1,), "float32")):
        v = T.alloc_tensor(ty_args=[T.Tensor((4,), "float32")])
        v_2 = T.decl_tensor(T.address_of(v[2]), ty_args=[T.Tensor((1,), "float32")])
        v_2[0] = T.float32(1.0)
        o[0] = v_2[0]

    def row():
        try:
            lib = tvm_tirx.tirx.compile(main, target="llvm")
        except Exception as err:  # StorageRewrite's failed check, or another error
            return finding(bug, "compile", "present", f"llvm: {first_line(err)}")
        o = tvm_tirx.runtime.empty((1,), "float32")
        lib["main"](o)
        if float(o.numpy()[0]) != 1.0:
            evidence = f"llvm: compiles, but o[0] = {float(o.numpy()[0])}, not 1.0"
            return finding(bug, "compile", "untestable", evidence)
        return finding(
            bug, "compile", "fixed", "llvm: compiles, and the view's store reads back 1.0"
        )

    return [_layer(bug, "compile", row)]


def probe_workspace_device_id(run_gpu=False):
    """A host workspace (``T.alloc_tensor`` of dynamic size) in a function whose only parameter
    is a scalar: must compile, as it does beside a tensor parameter (the control); a refusal
    (LowerTVMBuiltin's "Unknown device id" check) is the bug."""
    del run_gpu
    bug = "workspace_device_id"

    @T.function
    def scalar_only(n: T.int32) -> T.float32:
        B = T.alloc_tensor(ty_args=[T.Tensor((n,), "float32")])
        for i in range(n):
            B[i] = T.float32(1)
        return B[n - 1]

    @T.function
    def with_tensor(n: T.int32, A: T.Tensor((1,), "float32")) -> T.float32:
        B = T.alloc_tensor(ty_args=[T.Tensor((n,), "float32")])
        for i in range(n):
            B[i] = T.float32(1)
        return B[n - 1]

    def row():
        try:
            tvm_tirx.tirx.compile(with_tensor, target="llvm")
        except Exception as err:
            evidence = f"control: even with a tensor parameter: {first_line(err)}"
            return finding(bug, "compile", "untestable", evidence)
        try:
            result = tvm_tirx.tirx.compile(scalar_only, target="llvm")["main"](5)
        except Exception as err:
            return finding(bug, "compile", "present", f"no tensor parameter: {first_line(err)}")
        if result != 1.0:
            return finding(bug, "compile", "present", f"compiles, but main(5) returned {result}")
        return finding(
            bug, "compile", "fixed", "compiles without a tensor parameter; main(5) = 1.0"
        )

    return [_layer(bug, "compile", row)]


def probe_c_target_intrinsics(run_gpu=False):
    """``A[0] = op(x)`` for the "c" target, built by the system C compiler and called with
    ``x = -2.5``: ``T.abs``, ``T.exp2`` and ``T.exp10`` must compile and store math's value
    (``T.exp``, which has a rule, is the control); the Op left unlowered ("Unresolved call") is
    the finding. ``T.isinf`` / ``T.isfinite`` (built on fabs) are compiled to source only."""
    del run_gpu
    bug = "c_target_intrinsics"
    x = -2.5
    ops = {"abs": (T.abs, 2.5), "exp2": (T.exp2, 2.0**x), "exp10": (T.exp10, 10.0**x)}

    def stores(dtype, op, run=True):
        ty = getattr(T, dtype)

        @T.function
        def main(A: T.Tensor((1,), dtype), x: ty):
            A[0] = T.Cast(dtype, op(x))

        a = tvm_tirx.runtime.empty((1,), dtype)
        try:
            lib = tvm_tirx.tirx.compile(main, target="c")
            if not run:
                return None
            lib(a, x)  # the system C compiler builds the source here
        except Exception as err:  # the finding (for the control: no C compiler)
            return re.sub(r'ir\.Op\(.*?name="([\w.]+)".*', r"\1", first_line(err))
        return float(a.numpy()[0])

    def close(got, want):
        return isinstance(got, float) and abs(got - want) <= 1e-6 * abs(want)

    def row():
        for dtype in ("float32", "float64"):
            got = stores(dtype, T.exp)
            if not close(got, 0.0820849986):
                return finding(bug, "run", "untestable", f"control: {dtype} T.exp: {got}")
        found = []
        for dtype in ("float32", "float64"):
            for name, (op, want) in ops.items():
                got = stores(dtype, op)
                if not close(got, want):
                    found.append(f"{dtype} T.{name}: {got}")
            for name in ("isinf", "isfinite"):
                got = stores(dtype, getattr(T, name), run=False)
                if got is not None:
                    found.append(f"{dtype} T.{name}: {got}")
        if found:
            return finding(bug, "run", "present", "c: " + "; ".join(found))
        evidence = "c: abs, exp2, exp10 store math's values; isinf, isfinite compile to source"
        return finding(bug, "run", "fixed", evidence)

    return [_layer(bug, "run", row)]


def probe_webgpu_float_literal(run_gpu=False):
    """``A[0] = c`` in a kernel for a float32 / float16 constant +inf, -inf or NaN, and a
    kernel of ``T.isinf``, compiled to WGSL: a name WGSL does not define (``inff``, ``nanh``)
    or a constant division by zero is the finding; ``A[0] = 0.5`` is the control."""
    del run_gpu
    bug = "webgpu_float_literal"
    no_wgsl = re.compile(r"\b(inf|nan)[fh]?\b|/\s*0")

    def store(dtype, value):
        @T.function
        def main(A: T.Tensor((1,), dtype)):
            with T.launch_thread("threadIdx.x", 1):
                A[0] = T.Cast(dtype, tvm_tirx.tirx.const(value, dtype))

        return main

    @T.function
    def isinf_kernel(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "int32")):
        with T.launch_thread("threadIdx.x", 4) as tx:
            B[tx] = T.Cast("int32", T.isinf(A[tx]))

    def line_of(func, start):
        try:
            lib = tvm_tirx.tirx.compile(func, target="webgpu")
        except (ValueError, TypeError):  # a user-facing refusal: not the finding
            return ""
        source = lib.mod.imports[0].inspect_source()
        return next((x.strip() for x in source.splitlines() if x.strip().startswith(start)), "")

    def row():
        control = line_of(store("float32", 0.5), "A_ptr[0i] =")
        if "5.000000e-01f" not in control:
            return finding(bug, "codegen", "untestable", f"control: A[0] = 0.5 prints {control!r}")
        found = []
        for dtype in ("float32", "float16"):
            for text in ("inf", "-inf", "nan"):
                line = line_of(store(dtype, float(text)), "A_ptr[0i] =")
                if no_wgsl.search(line):
                    found.append(f"{dtype} {text}: `{line}`")
        line = line_of(isinf_kernel, "B_ptr[")
        if no_wgsl.search(line):
            found.append(f"T.isinf: `{line}`")
        if found:
            return finding(bug, "codegen", "present", "webgpu: " + "; ".join(found))
        evidence = "webgpu: every infinity and NaN constant prints as WGSL that defines it"
        return finding(bug, "codegen", "fixed", evidence)

    return [_layer(bug, "codegen", row)]


# --------------------------------------------------------------------------------------------
# GPU runs, each in a child process (a crash there is evidence, not the end of the probe)


def _child(case):
    dev = tvm_tirx.cuda(0)
    if case == "host_scalar":
        lib, dtype, extra = _compile(host_scalar_function("annotated")), "float32", ()
        expected = (np.arange(N, dtype="float32") + np.float32(VALUE)).tolist()
    else:
        dtype = case
        lib, extra = _compile(narrow_function(dtype)), (NARROW_VALUES[dtype],)
        b = np.arange(N).astype(dtype)
        expected = (b + (np.array(NARROW_VALUES[dtype], dtype) + np.array(1, dtype))).tolist()
    b = tvm_tirx.runtime.tensor(np.arange(N).astype(dtype), dev)
    c = tvm_tirx.runtime.empty((N,), dtype, dev)
    lib["main"](b, c, *extra)
    dev.sync()
    print(json.dumps({"result": c.numpy().tolist(), "expected": expected}), flush=True)


def _gpu_row(bug, case):
    if not tvm_tirx.cuda(0).exist:
        return finding(bug, "gpu run", "untestable", "no CUDA device here")
    try:
        proc = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--child", case],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return finding(bug, "gpu run", "untestable", f"{case}: the child hung (killed after 300 s)")
    if proc.returncode < 0:
        name = signal.Signals(-proc.returncode).name
        status = "present" if bug == "host_scalar" and name == "SIGSEGV" else "untestable"
        return finding(bug, "gpu run", status, f"{case}: killed by {name} at the call")
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        refused = bug == "narrow_scalar" and REFUSED in proc.stderr
        status = "present" if refused else "untestable"
        return finding(bug, "gpu run", status, f"{case}: child exited {proc.returncode}: {tail}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if out["result"] != out["expected"]:
        evidence = f"{case}: returned {out['result']}, expected {out['expected']}"
        return finding(
            bug, "gpu run", "present" if bug == "host_scalar" else "untestable", evidence
        )
    return finding(bug, "gpu run", "fixed", f"{case}: returned {out['result']} as numpy does")


def _gpu_layer(bug, case, run_gpu):
    if not run_gpu:
        evidence = "not requested (--run-gpu runs it on cuda(0), in a child process)"
        return finding(bug, "gpu run", "untestable", evidence)
    return _layer(bug, "gpu run", _gpu_row, bug, case)


PROBES = {
    "host_scalar": probe_host_scalar,
    "verify_memory": probe_verify_memory,
    "narrow_scalar": probe_narrow_scalar,
    "split_host_device_inplace": probe_split_host_device_inplace,
    "annotate_entry_func_inplace": probe_annotate_entry_func_inplace,
    "uint64_scalar": probe_uint64_scalar,
    "bfloat16_scalar": probe_bfloat16_scalar,
    "lower_iket_inplace": probe_lower_iket_inplace,
    "bfloat16_address_of_view": probe_bfloat16_address_of_view,
    "bfloat16_store_nan": probe_bfloat16_store_nan,
    "reinterpret_of_constant": probe_reinterpret_of_constant,
    "throw_last_error_type": probe_throw_last_error_type,
    "codegen_missing_dtype": probe_codegen_missing_dtype,
    "webgpu_view_at_address": probe_webgpu_view_at_address,
    "storage_rewrite_address_of_view": probe_storage_rewrite_address_of_view,
    "workspace_device_id": probe_workspace_device_id,
    "c_target_intrinsics": probe_c_target_intrinsics,
    "webgpu_float_literal": probe_webgpu_float_literal,
}


def probe(run_gpu: bool = False) -> list[dict]:
    """Every TIRx report's findings."""
    return [row for func in PROBES.values() for row in func(run_gpu=run_gpu)]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        _child(argv[1])
        return 0
    status = bad_arguments(argv, "probe_tirx.py", ("--check", "--run-gpu", "--json"))
    if status is not None:
        return status
    rows = probe(run_gpu="--run-gpu" in argv)
    row = "  {bug:<14} {layer:<9} {STATUS:<10} {evidence}"
    return print_findings(argv, rows, f"tvm_tirx {tvm_tirx.__version__}", row)


if __name__ == "__main__":
    run_main("probe_tirx.py", main)

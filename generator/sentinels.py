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
"""Fixed programs every campaign judges before its random ones (this repository only).

One or more per report with a reference fix: under the reference fixes each gives only the
classes known.py accepts, and with a wrong fix of its report installed instead (``campaign.py
--wrong-fix REPORT:NAME``) at least one class known.py does not accept (the tools test
tests/tools/test_campaign.py shows it for one wrong fix per report). A random campaign of a
dozen programs would not reach every report; these make the CI campaign fail on a regression
of any reference fix, whatever its seed.

``SENTINELS``: {name: (report, lines, case)}; ``case`` is a ``program.Program``, a
``relax_cases.RelaxCase``, a ``Text`` (TVMScript per line, for a module the generator's
description cannot spell, e.g. one with a private helper), or a ``PassCase`` (one pass alone).
"""

from dataclasses import dataclass

from bug_reports import present
from generator import program as P
from generator import relax_cases as RC

BOTH = ("tvm", "tirx")


@dataclass(frozen=True)
class Text:
    """A module written out per line ({line: text}), compiled for ``target``; on apache/tvm
    with ``tvm.compile(..., tir_pipeline=tir_pipeline)`` (apache/tvm-tirx compiles with its one
    pipeline, the tirx one, whatever this says). Valid, unless ``invalid``: then it must be
    refused with a ValueError. With ``export`` the compiled library is exported too, which
    hands a C host's source to the system's C compiler (a target whose source the campaign
    otherwise never compiles)."""

    texts: tuple  # ((line, text), ...)
    target: str = "cuda"
    tir_pipeline: str = "default"
    invalid: bool = False
    export: bool = False

    def text(self, line):
        return dict(self.texts)[line]


_HELPER_TVM = """@I.ir_module
class Module:
    @T.prim_func(private=True)
    def helper(x: T.float32) -> T.float32:
        return x + T.float32(1.0)

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: T.float32):
        T.func_attr({"tirx.noalias": True})
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = x
"""

_HELPER_TIRX = """@T.ir_module
class Module:
    @T.function(private=True)
    def helper(x: T.float32) -> T.float32:
        return x + T.float32(1.0)

    @T.function
    def main(A: T.Tensor((1,), "float32"), x: T.float32):
        with T.launch_thread("threadIdx.x", 1) as t:
            A[0] = x
"""


# three kernels, each with an IKET mark, for a pipeline that runs LowerIket after
# SplitHostDevice (apache/tvm's tirx one): the pass must strip every mark, which the CUDA code
# generator cannot print. A loop that writes the function map it iterates stops after the
# first kernel it strips, and copy-on-write alone does not help where the compile holds the
# only reference to the module
_IKET_TVM = """@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((1,), "int32")):
        T.func_attr({"tirx.noalias": True})
        for t in T.thread_binding(1, thread="threadIdx.x"):
            T.cuda.iket.mark("first")
            A[0] = 1
        for t in T.thread_binding(1, thread="threadIdx.x"):
            T.cuda.iket.mark("second")
            A[0] = 2
        for t in T.thread_binding(1, thread="threadIdx.x"):
            T.cuda.iket.mark("third")
            A[0] = 3
"""

_IKET_TIRX = """@T.ir_module
class Module:
    @T.function
    def main(A: T.Tensor((1,), "int32")):
        with T.launch_thread("threadIdx.x", 1) as t:
            T.cuda.iket_mark("first")
            A[0] = 1
        with T.launch_thread("threadIdx.x", 1) as t:
            T.cuda.iket_mark("second")
            A[0] = 2
        with T.launch_thread("threadIdx.x", 1) as t:
            T.cuda.iket_mark("third")
            A[0] = 3
"""


# reinterprets of constants in C host code (target "c"): a float32, an int32 and a float64
# constant, each of whose bits the C compiler must get through an lvalue (the address of a
# literal does not compile)
_REINTERPRET_TVM = """@I.ir_module
class Module:
    @T.prim_func
    def main(
        A: T.Buffer((1,), "uint32"), B: T.Buffer((1,), "float32"), C: T.Buffer((1,), "int64")
    ):
        A[0] = T.reinterpret("uint32", T.float32(-0.0))
        B[0] = T.reinterpret("float32", T.int32(1069547520))
        C[0] = T.reinterpret("int64", T.float64(-2.0))
"""

# a virtual thread whose extent is a parameter: invalid, s_tir's InjectVirtualThread needs a
# constant (released, the pass dies by SIGSEGV)
_VTHREAD = """@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), n: T.int32):
        T.func_attr({"tirx.noalias": True})
        for v in T.thread_binding(n, thread="vthread"):
            for i in T.thread_binding(8, thread="threadIdx.x"):
                A[i] = T.float32(1.0)
"""


@dataclass(frozen=True)
class PassCase:
    """One pass of the line's ``_ffi_api`` (``pass_name``) alone, on ``program`` bound to its
    target: what the pass's own callers see, whatever wraps it in the pipeline."""

    pass_name: str
    program: P.Program


def _one(value, *steps):
    return P.Program("cuda", (value,), (P.Kernel((0,)),), steps or (P.Launch(0),))


def _opencl(value):
    return P.Program("opencl", (value,), (P.Kernel((0,)),), (P.Launch(0),))


SENTINELS = {
    # a host cell reassigned between two launches: each launch must get the value of the time
    "host-cell-reassigned": (
        "host_scalar",
        BOTH,
        _one(P.Value("float32", "cell", 1), P.Launch(0), P.Write(0, 3), P.Launch(0)),
    ),
    "host-int-cell-in-loop": (
        "host_scalar",
        BOTH,
        _one(P.Value("int32", "cell", 2), P.Loop(2, (P.Launch(0), P.Write(0, 1)))),
    ),
    # the host stores into a device buffer: an argument's and a host-allocated global one
    "host-stores-argument": ("verify_memory", BOTH, _one(P.Value("float32", "param", 1))),
    "host-stores-global": ("verify_memory", BOTH, _one(P.Value("float32", "global", 1))),
    # narrow kernel scalars: an integer argument, a float16 T.let, a bool cell
    "int8-argument": ("narrow_scalar", BOTH, _one(P.Value("int8", "arg", 1))),
    "float16-let": ("narrow_scalar", BOTH, _one(P.Value("float16", "let", 1))),
    "bool-cell": ("narrow_scalar", BOTH, _one(P.Value("bool", "cell", 1))),
    # an annotated cell (the host-scalar fix annotates the cells it keeps on the host)
    "annotated-cell-roundtrip": (
        "printer_cell",
        ("tvm",),
        _one(P.Value("float32", "cell", 1)),
    ),
    # a one-element buffer parameter that a kernel writes (FlattenBuffer's data= view)
    "one-element-parameter": (
        "printer_param_data",
        ("tvm",),
        _one(P.Value("float32", "param", 1, by_kernel=True)),
    ),
    # a one-element global buffer that kernels share (0.27 prints it with the scalar sugar)
    "global-cell-roundtrip": (
        "printer_cell",
        ("tvm",),
        _one(P.Value("float32", "global", 1, by_kernel=True)),
    ),
    # SplitHostDevice alone: in the pipeline the host-scalar fix's first pass hands it a
    # module of its own, which hides from the caller whether it writes its input
    "split-alone": (
        "split_host_device_inplace",
        BOTH,
        PassCase("SplitHostDevice", _one(P.Value("float32", "arg", 1))),
    ),
    # an entry function beside a private helper (AnnotateEntryFunc's several-functions branch)
    "entry-beside-helper": (
        "annotate_entry_func_inplace",
        BOTH,
        Text((("tvm", _HELPER_TVM), ("tirx", _HELPER_TIRX))),
    ),
    # three IKET-marked kernels through apache/tvm's tirx pipeline (tvm-tirx's only one)
    "three-marked-kernels": (
        "lower_iket_inplace",
        BOTH,
        Text((("tvm", _IKET_TVM), ("tirx", _IKET_TIRX)), tir_pipeline="tirx"),
    ),
    "uint64-argument": ("uint64_scalar", BOTH, _one(P.Value("uint64", "arg", 1))),
    # bfloat16 host scalars that a kernel reads: for cuda (sm_80 computes in bfloat16, so
    # that BF16ComputeLegalize leaves the function alone, host code included) and for a
    # target that computes bfloat16 in float32
    "bfloat16-let": ("bfloat16_scalar", ("tvm",), _one(P.Value("bfloat16", "let", 3))),
    "bfloat16-argument": ("bfloat16_scalar", ("tvm",), _opencl(P.Value("bfloat16", "arg", 3))),
    "bfloat16-let-opencl": ("bfloat16_scalar", ("tvm",), _opencl(P.Value("bfloat16", "let", 3))),
    "allocate-workspace": ("allocate_workspace", ("tvm",), RC.RelaxCase()),
    # a one-element global buffer that a kernel stores into at its thread variable (0.27
    # prints it with the scalar sugar, which drops the index)
    "scalar-name-at-thread-index": (
        "printer_scalar_index",
        ("tvm",),
        P.Program(
            "cuda",
            (P.Value("float32", "global", 1, by_kernel=True),),
            (P.Kernel((0,)),),
            (P.Launch(0),),
            index_var=True,
        ),
    ),
    "reinterpret-of-constants": (
        "reinterpret_of_constant",
        ("tvm",),
        Text((("tvm", _REINTERPRET_TVM),), target="c", export=True),
    ),
    "vthread-extent-from-argument": (
        "vthread_dynamic_extent",
        ("tvm",),
        Text((("tvm", _VTHREAD),), invalid=True),
    ),
    # types the target lacks: a 64-bit integer kernel argument (WGSL) and a float64 (Metal)
    "webgpu-int64-argument": (
        "codegen_missing_dtype",
        BOTH,
        P.Program("webgpu", (P.Value("int64", "arg", 1),), (P.Kernel((0,)),), (P.Launch(0),)),
    ),
    "metal-float64-argument": (
        "codegen_missing_dtype",
        BOTH,
        P.Program("metal", (P.Value("float64", "arg", 1),), (P.Kernel((0,)),), (P.Launch(0),)),
    ),
    # a WebGPU kernel's own view at the element's address of a buffer a kernel wrote
    "webgpu-kernel-view-at-address": (
        "webgpu_view_at_address",
        BOTH,
        P.Program(
            "webgpu",
            (P.Value("float32", "global", 1, by_kernel=True, alias="kernel_address_of"),),
            (P.Kernel((0,)),),
            (P.Launch(0),),
        ),
    ),
}
# a retired report (its folder bugs/<report>/ gone) has no sentinel
SENTINELS = present(SENTINELS, report=lambda name: SENTINELS[name][0])


# one wrong fix per report with a reference fix on the apache/tvm line: with it installed
# instead of its reference fix, the sentinels above give a class known.py does not accept
# (tests/tools/test_campaign.py holds them to it)
CAUGHT = {
    "host_scalar": "pass-first-value",
    "allocate_workspace": "every-caller-allocates",
    "verify_memory": "global-allocations-unchecked",
    "narrow_scalar": "floats-only",
    "printer_cell": "annotations-only",
    "split_host_device_inplace": "host-functions-written-back",
    "annotate_entry_func_inplace": "one-function-branch-only",
    "uint64_scalar": "int32-slot",
    "printer_param_data": "data-only",
    "bfloat16_scalar": "no-host-pass",
    "lower_iket_inplace": "copy-on-write-only",
    "printer_scalar_index": "store-only",
    "reinterpret_of_constant": "ints-only",
    "vthread_dynamic_extent": "internal-error",
    "codegen_missing_dtype": "metal-only",
    "webgpu_view_at_address": "type-error",
}
# a retired report (its folder bugs/<report>/ gone) has none
CAUGHT = present(CAUGHT)


# the reports whose regressions show in clause (f) (print -> parse): the only ones whose
# sentinels need the round trips, half of a judgement's time (generator/wrong_fix_sweep.py)
ROUNDTRIP_REPORTS = ("printer_cell", "printer_param_data", "printer_scalar_index")


def for_line(line, reports=None):
    """[(name, report, case)] of ``line``, those of ``reports`` only when given."""
    return [
        (name, report, case)
        for name, (report, lines, case) in SENTINELS.items()
        if line in lines and (reports is None or report in reports)
    ]

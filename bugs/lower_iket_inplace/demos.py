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
"""Programs on which LowerIket's reference fix and each blind wrong fix differ, on apache/tvm
(harness/blind_demo.py; run with scripts/blind_demos.py --bug lower_iket_inplace), every
round's; demos_tirx.py has apache/tvm-tirx's.

Every program is a module of marked CUDA kernels (sm_90a, as SplitHostDevice leaves them, one
IKET mark each), IKET enabled by the module attribute (tirx.iket.enabled here) or by a verified
run-iket child's environment, or not; some hold a host function or a Relax function beside them.
``kernels_of`` builds them of ``marked_kernel``, whose text is parsed on the line that runs it
(harness.blind_demo.from_script), so that demos_tirx.py takes these entries as they are. The
observers, which both lines share, look through harness.blind_inplace: whether the caller's
module changed, the kernels still marked and the IKET events each kernel emits (numbered over
the module when IKET is enabled), and the output's module attributes and global infos."""

import os
import sys

from harness.blind_demo import Demo, from_script
from harness.blind_inplace import (
    IMMUTABLE,
    iket_calls,
    iket_lowered,
    input_after,
    lower_iket,
    module_of,
    output_of,
    vdevice,
)
from harness.tvm_line import LINE

if LINE == "tvm":
    # the module attribute that enables IKET on this line
    ENABLED = "tirx.iket.enabled"
    # the environment of a verified run-iket child, which enables IKET as the module attribute
    # does
    RUN_IKET_CHILD = {
        "TVM_IKET_INJECTED_CHILD_ENABLE": "1",
        "TVM_IKET_OFFICIAL_PROFILE": "cutlass-4.6.0",
        "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
        "SMODEL_INJECTION_CONFIG": "/nonexistent/config.json",
    }
    # a marked kernel's thread launch, in this line's script
    LAUNCH = [
        'tx = T.launch_thread("threadIdx.x", 32)',
        "T.cuda.iket.mark(mark)",
        "A[tx] = A[tx] + 1",
    ]
else:
    ENABLED = "cuda.iket.enabled"
    RUN_IKET_CHILD = {
        "TVM_TIRX_IKET_INJECTED_CHILD_ENABLE": "1",
        "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
        "IKET_INJECTION_CONFIG": "/nonexistent/config.json",
    }
    LAUNCH = [
        'with T.launch_thread("threadIdx.x", 32) as tx:',
        "    T.cuda.iket_mark(mark)",
        "    A[tx] = A[tx] + 1",
    ]
# kernels by name, each with its IKET mark
ONE = {"main_kernel": "first"}
TWO = {"main_kernel": "first", "main_kernel_1": "second"}
FIVE = {f"kernel_{k}": "store" for k in range(5)}


def marked_kernel(mark):
    """A private cuda kernel of 32 threads with the IKET mark ``mark``."""
    return from_script(
        "@T.prim_func(private=True)\n"
        'def kernel(A: T.Buffer((32,), "int32")):\n'
        '    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), '
        '"calling_conv": 2})\n' + "".join(f"    {line}\n" for line in LAUNCH),
        mark=mark,
    )


def host_function():
    """An unmarked llvm host function."""
    return from_script(
        "@T.prim_func\n"
        'def host(A: T.Buffer((32,), "int32")):\n'
        '    T.func_attr({"target": T.target("llvm")})\n'
        "    for i in range(32):\n"
        "        A[i] = 0\n"
    )


def relax_function():
    """A Relax function, the identity of a tensor (apache/tvm only: tvm-tirx has no function
    type but the TIR one)."""
    from tvm import relax

    x = relax.Var("x", relax.TensorType([32], "int32"))
    return relax.Function([x], x)


def kernels_of(line):
    """The program builder of ``line`` (a demos module: its marked_kernel, ENABLED and
    RUN_IKET_CHILD)."""

    def kernels(marks, enabled=None, attrs=None, infos=None, symbol=None, child=False, **others):
        """A program: the module of one kernel per name and mark of ``marks`` (each given the
        global symbol ``symbol`` where set) and the functions ``others`` build, with the module
        attributes ``attrs`` and ``enabled`` as the line's IKET attribute, the global infos
        ``infos``; with ``child``, run in a process made a run-iket child."""

        def kernel(mark):
            func = line.marked_kernel(mark)
            return func.with_attr("global_symbol", symbol) if symbol else func

        all_attrs = dict(attrs or {})
        if enabled is not None:
            all_attrs[line.ENABLED] = enabled
        builders = {name: lambda mark=mark: kernel(mark) for name, mark in marks.items()}
        program = module_of(all_attrs or None, infos, **builders, **others)
        if not child:
            return program

        def in_child():
            os.environ.update(line.RUN_IKET_CHILD)
            return program()

        return in_child

    return kernels


def calls_and_info(mod):
    """A view: the IKET calls of each function (harness.blind_inplace.iket_calls), the module
    attributes and the global infos."""
    attrs = {k: str(v) for k, v in mod.attrs.items()} if mod.attrs is not None else {}
    infos = sorted(mod.global_infos.keys()) if mod.global_infos is not None else []
    return {"calls": iket_calls(mod), "attrs": attrs, "global_infos": infos}


LOWERED = iket_lowered()
CHECKED = iket_lowered(IMMUTABLE)
INPUT = input_after(lower_iket, iket_calls)
OUTPUT = output_of(lower_iket, calls_and_info)
kernels = kernels_of(sys.modules[__name__])

DEMOS = {
    # round 2
    # enabled: the events are numbered over the module (the second kernel's is 2); the wrong fix
    # lowers each kernel alone in a module of its own, numbering from 1 in each
    "blind2-enabled-per-function": Demo(kernels(TWO, 1), LOWERED),
    # a run-iket child's environment enables IKET: the wrong fix reads the attribute only, so
    # strips kernel by kernel and numbers each kernel's event 1
    "blind2-enabled-attr-only": Demo(kernels(TWO, child=True), LOWERED),
    # tirx.iket.enabled = 2 enables IKET (any nonzero value): the wrong fix takes only 1
    "blind2-attr-equals-one": Demo(kernels(TWO, 2), LOWERED),
    # not enabled: the input keeps its marks; the wrong fix writes the stripped kernels into it
    "blind2-result-not-cloned": Demo(kernels(TWO), LOWERED),
    # enabled: the input stays uninstrumented; the wrong fix instruments the caller's module
    "blind2-enabled-no-copy": Demo(kernels(TWO, 1), LOWERED),
    # enabled, under testing.immutable_module: the wrong fix's pass trips on the copy it writes
    "blind2-enabled-unguarded": Demo(kernels(TWO, 1), CHECKED),
    # not enabled, under testing.immutable_module: the wrong fix's pass trips on the
    # one-kernel module it writes
    "blind2-alone-unguarded": Demo(kernels(TWO), CHECKED),
    # round 3
    # five kernels in a map only the pass holds (as inside a compile): every mark is stripped;
    # the wrong fix iterates the map it writes, which moves the rewritten entry to its end
    "blind3-cow-without-map-handle": Demo(kernels(FIVE), LOWERED),
    # not enabled: the input keeps its marks; the wrong fix strips the caller's module too
    "blind3-handle-without-cow": Demo(kernels(TWO), LOWERED),
    # enabled: the input keeps its marks; the wrong fix instruments the caller's module
    "blind3-instrument-in-place": Demo(kernels(TWO, 1), LOWERED),
    # enabled: the second kernel's event is 2; the wrong fix instruments each kernel alone
    "blind3-instrument-per-kernel": Demo(kernels(TWO, 1), LOWERED),
    # tirx.iket.enabled = 2: the second kernel's event is 2; the wrong fix takes only 1
    "blind3-enabled-only-when-one": Demo(kernels(TWO, 2), LOWERED),
    # a run-iket child's environment, no attribute: the second kernel's event is 2; the wrong
    # fix reads the attribute only
    "blind3-enabled-ignores-child-env": Demo(kernels(TWO, child=True), LOWERED),
    # a marked kernel and a Relax function: the output keeps the Relax function; the wrong fix
    # builds its result from the PrimFuncs only
    "blind3-result-prim-funcs-only": Demo(kernels(ONE, entry=relax_function), LOWERED),
    # round 4
    "blind4-cow-without-map-handle": Demo(kernels(FIVE), OUTPUT),
    "blind4-strip-writes-input": Demo(kernels(ONE), INPUT),
    "blind4-instrument-writes-input": Demo(kernels(ONE, 1), INPUT),
    "blind4-enabled-only-one": Demo(kernels(TWO, 2), OUTPUT),
    "blind4-enabled-ignores-child-env": Demo(kernels(TWO, child=True), OUTPUT),
    "blind4-instrument-per-kernel": Demo(kernels(TWO, 1), OUTPUT),
    "blind4-result-drops-non-primfuncs": Demo(kernels(ONE, main=relax_function), OUTPUT),
    # round 5
    "blind5-cow-no-snapshot": Demo(kernels(FIVE), OUTPUT),
    "blind5-snapshot-no-cow": Demo(kernels(TWO), INPUT),
    "blind5-instrument-in-place": Demo(kernels(TWO, 1), INPUT),
    "blind5-enabled-exact-one": Demo(kernels(TWO, 2), OUTPUT),
    # two kernels of one global symbol in a run-iket child: the module-wide checks refuse them;
    # the wrong fix instruments each kernel alone
    "blind5-child-env-ignored": Demo(kernels(TWO, symbol="same_kernel", child=True), OUTPUT),
    "blind5-new-module-of-stripped": Demo(kernels(ONE, host=host_function), OUTPUT),
    # round 6
    "blind6-iket-enabled-inplace": Demo(kernels(TWO, 1), INPUT),
    "blind6-iket-copy-without-handle": Demo(kernels(FIVE), OUTPUT),
    "blind6-iket-handle-without-copy": Demo(kernels(ONE), INPUT),
    "blind6-iket-enabled-attr-present": Demo(kernels(TWO, 0), OUTPUT),
    "blind6-iket-enabled-equals-one": Demo(kernels(TWO, 2), OUTPUT),
    "blind6-iket-result-drops-attrs": Demo(kernels(TWO, attrs={"device": "gpu"}), OUTPUT),
    # round 7
    "blind7-cow-strip-branch-only": Demo(kernels(TWO, 1), INPUT),
    "blind7-cow-instrument-branch-only": Demo(kernels(ONE), INPUT),
    "blind7-no-map-handle": Demo(kernels(FIVE), OUTPUT),
    "blind7-copy-drops-attrs": Demo(kernels(ONE, attrs={"demo.flag": 7}), OUTPUT),
    "blind7-copy-drops-global-infos": Demo(kernels(TWO, infos=vdevice), OUTPUT),
    "blind7-local-copy-strip": Demo(kernels(TWO), OUTPUT),
}

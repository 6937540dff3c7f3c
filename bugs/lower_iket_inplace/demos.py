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
(harness/blind_demo.py; run with scripts/blind_demos.py --bug lower_iket_inplace).

Every program is a module of marked CUDA kernels (sm_90a, as SplitHostDevice leaves them), and
every demo looks at it through harness.blind_inplace.iket_lowered: whether the caller's module
changed, the kernels still marked, and the IKET events each kernel emits (numbered over the
module when IKET is enabled)."""

import functools
import os

from harness.blind_demo import Demo
from harness.blind_inplace import IMMUTABLE, iket_lowered, module_of
from tvm.script import relax as R
from tvm.script import tirx as T

TWO = {"main_kernel": "first", "main_kernel_1": "second"}
FIVE = {f"kernel_{k}": "store" for k in range(5)}
# the environment of a verified run-iket child, which enables IKET as the module attribute does
RUN_IKET_CHILD = {
    "TVM_IKET_INJECTED_CHILD_ENABLE": "1",
    "TVM_IKET_OFFICIAL_PROFILE": "cutlass-4.6.0",
    "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
    "SMODEL_INJECTION_CONFIG": "/nonexistent/config.json",
}


def marked_kernel(mark):
    """A private cuda kernel of 32 threads with the IKET mark ``mark``."""

    @T.prim_func(private=True)
    def kernel(A: T.Buffer((32,), "int32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
        tx = T.launch_thread("threadIdx.x", 32)
        T.cuda.iket.mark(mark)
        A[tx] = A[tx] + 1

    return kernel


@R.function
def identity(x: R.Tensor((32,), "int32")) -> R.Tensor((32,), "int32"):
    return x


def kernels(marks, enabled=None, **others):
    """A program: the module of one kernel per name and mark of ``marks`` and the functions
    ``others`` build; with ``enabled``, its attribute tirx.iket.enabled set to it."""
    attrs = None if enabled is None else {"tirx.iket.enabled": enabled}
    marked = {name: functools.partial(marked_kernel, mark) for name, mark in marks.items()}
    return module_of(attrs, **marked, **others)


def in_run_iket_child(program):
    """``program`` run in a process whose environment is made that of a run-iket child."""

    def child_program():
        os.environ.update(RUN_IKET_CHILD)
        return program()

    return child_program


DEMOS = {
    # enabled: the events are numbered over the module (the second kernel's is 2); the wrong fix
    # lowers each kernel alone in a module of its own, numbering from 1 in each
    "blind2-enabled-per-function": Demo(kernels(TWO, 1), iket_lowered()),
    # a run-iket child's environment enables IKET: the wrong fix reads the attribute only, so
    # strips kernel by kernel and numbers each kernel's event 1
    "blind2-enabled-attr-only": Demo(in_run_iket_child(kernels(TWO)), iket_lowered()),
    # tirx.iket.enabled = 2 enables IKET (any nonzero value): the wrong fix takes only 1
    "blind2-attr-equals-one": Demo(kernels(TWO, 2), iket_lowered()),
    # not enabled: the input keeps its marks; the wrong fix writes the stripped kernels into it
    "blind2-result-not-cloned": Demo(kernels(TWO), iket_lowered()),
    # enabled: the input stays uninstrumented; the wrong fix instruments the caller's module
    "blind2-enabled-no-copy": Demo(kernels(TWO, 1), iket_lowered()),
    # enabled, under testing.immutable_module: the wrong fix's pass trips on the copy it writes
    "blind2-enabled-unguarded": Demo(kernels(TWO, 1), iket_lowered(IMMUTABLE)),
    # not enabled, under testing.immutable_module: the wrong fix's pass trips on the
    # one-kernel module it writes
    "blind2-alone-unguarded": Demo(kernels(TWO), iket_lowered(IMMUTABLE)),
    # five kernels in a map only the pass holds (as inside a compile): every mark is stripped;
    # the wrong fix iterates the map it writes, which moves the rewritten entry to its end
    "blind3-cow-without-map-handle": Demo(kernels(FIVE), iket_lowered()),
    # not enabled: the input keeps its marks; the wrong fix strips the caller's module too
    "blind3-handle-without-cow": Demo(kernels(TWO), iket_lowered()),
    # enabled: the input keeps its marks; the wrong fix instruments the caller's module
    "blind3-instrument-in-place": Demo(kernels(TWO, 1), iket_lowered()),
    # enabled: the second kernel's event is 2; the wrong fix instruments each kernel alone
    "blind3-instrument-per-kernel": Demo(kernels(TWO, 1), iket_lowered()),
    # tirx.iket.enabled = 2: the second kernel's event is 2; the wrong fix takes only 1
    "blind3-enabled-only-when-one": Demo(kernels(TWO, 2), iket_lowered()),
    # a run-iket child's environment, no attribute: the second kernel's event is 2; the wrong
    # fix reads the attribute only
    "blind3-enabled-ignores-child-env": Demo(in_run_iket_child(kernels(TWO)), iket_lowered()),
    # a marked kernel and a Relax function: the output keeps the Relax function; the wrong fix
    # builds its result from the PrimFuncs only
    "blind3-result-prim-funcs-only": Demo(
        kernels({"main_kernel": "first"}, entry=lambda: identity), iket_lowered()
    ),
}

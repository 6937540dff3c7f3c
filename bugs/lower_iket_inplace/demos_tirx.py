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
"""Programs on which LowerIket's reference fix and blind wrong fixes differ, on apache/tvm-tirx
(harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py --bug
lower_iket_inplace).

demos.py's programs and observer in this line's TVMScript; each entry's comment is there.
IKET is enabled here by the module attribute cuda.iket.enabled (tirx.iket.enabled on
apache/tvm), any nonzero value, or a verified run-iket child's environment (this line's
variables). The wrong fixes that wrong_fixes_round*.NOT_ON_TVM_TIRX names have no demo here."""

import functools
import os

from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo
from harness.blind_inplace import IMMUTABLE, iket_lowered, module_of

TWO = {"main_kernel": "first", "main_kernel_1": "second"}
FIVE = {f"kernel_{k}": "store" for k in range(5)}
# the environment of a verified run-iket child on this line, which enables IKET as the module
# attribute does
RUN_IKET_CHILD = {
    "TVM_TIRX_IKET_INJECTED_CHILD_ENABLE": "1",
    "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
    "IKET_INJECTION_CONFIG": "/nonexistent/config.json",
}


def marked_kernel(mark):
    """A private cuda kernel of 32 threads with the IKET mark ``mark``."""

    @T.function(private=True)
    def kernel(A: T.Tensor((32,), "int32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
        with T.launch_thread("threadIdx.x", 32) as tx:
            T.cuda.iket_mark(mark)
            A[tx] = A[tx] + 1

    return kernel


def kernels(marks, enabled=None, **others):
    """A program: the module of one kernel per name and mark of ``marks`` and the functions
    ``others`` build; with ``enabled``, its attribute cuda.iket.enabled set to it."""
    attrs = None if enabled is None else {"cuda.iket.enabled": enabled}
    marked = {name: functools.partial(marked_kernel, mark) for name, mark in marks.items()}
    return module_of(attrs, **marked, **others)


def in_run_iket_child(program):
    """``program`` run in a process whose environment is made that of a run-iket child."""

    def child_program():
        os.environ.update(RUN_IKET_CHILD)
        return program()

    return child_program


DEMOS = {
    "blind-enabled-by-attribute-only": Demo(in_run_iket_child(kernels(TWO)), iket_lowered()),
    "blind2-enabled-per-function": Demo(kernels(TWO, 1), iket_lowered()),
    "blind2-enabled-attr-only": Demo(in_run_iket_child(kernels(TWO)), iket_lowered()),
    "blind2-attr-equals-one": Demo(kernels(TWO, 2), iket_lowered()),
    "blind2-result-not-cloned": Demo(kernels(TWO), iket_lowered()),
    "blind2-enabled-no-copy": Demo(kernels(TWO, 1), iket_lowered()),
    "blind2-enabled-unguarded": Demo(kernels(TWO, 1), iket_lowered(IMMUTABLE)),
    "blind2-alone-unguarded": Demo(kernels(TWO), iket_lowered(IMMUTABLE)),
    "blind3-cow-without-map-handle": Demo(kernels(FIVE), iket_lowered()),
    "blind3-handle-without-cow": Demo(kernels(TWO), iket_lowered()),
    "blind3-instrument-in-place": Demo(kernels(TWO, 1), iket_lowered()),
    "blind3-instrument-per-kernel": Demo(kernels(TWO, 1), iket_lowered()),
    "blind3-enabled-only-when-one": Demo(kernels(TWO, 2), iket_lowered()),
    "blind3-enabled-ignores-child-env": Demo(in_run_iket_child(kernels(TWO)), iket_lowered()),
}

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
"""Blind round 4 demos of lower_iket_inplace (apache/tvm-tirx): the programs of
demos_round4.py written for tvm_tirx (its observers are shared). The line has no function
but PrimFuncs, so blind4-result-drops-non-primfuncs has no demo here. IKET is enabled by the
module attribute ``cuda.iket.enabled`` (any nonzero value) or a verified run-iket child's
environment, as tvm-tirx 0.1.0a4's IketEnabled reads them."""

import os

from bugs.lower_iket_inplace import demos_round4 as tvm_demos
from harness.blind_demo import Demo

# a verified run-iket child's environment on tvm-tirx (IketEnabled)
CHILD_ENV = {
    "TVM_TIRX_IKET_INJECTED_CHILD_ENABLE": "1",
    "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
    "IKET_INJECTION_CONFIG": "/nonexistent/config.json",
}


def kernel(event):
    """A private CUDA kernel (sm_90a, calling_conv 2) marking ``event`` once."""
    from tvm_tirx.script import tirx as T

    @T.function(private=True)
    def func(A: T.Tensor((32,), "int32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
        with T.launch_thread("threadIdx.x", 32) as tx:
            T.cuda.iket_mark(event)
            A[tx] = A[tx] + 1

    return func


def kernels(count, enabled=None):
    """A module of ``count`` kernels ``k0`` .. (each marking its own event ``e<k>``), with the
    module attribute ``cuda.iket.enabled`` = ``enabled`` where given."""
    import tvm_tirx

    attrs = None if enabled is None else {"cuda.iket.enabled": enabled}
    return tvm_tirx.IRModule({f"k{k}": kernel(f"e{k}") for k in range(count)}, attrs=attrs)


def lower(mod):
    from tvm_tirx.backend.cuda.transform import LowerIket

    return LowerIket()(mod)


def output(mod):
    return tvm_demos.iket_calls(lower(mod))


def input_after(mod):
    lower(mod)
    return tvm_demos.iket_calls(mod)


def output_in_child_env(mod):
    """The IKET calls of LowerIket's output in a run-iket child's environment."""
    os.environ.update(CHILD_ENV)
    return output(mod)


DEMOS = {
    "blind4-cow-without-map-handle": Demo(lambda: kernels(5), output),
    "blind4-strip-writes-input": Demo(lambda: kernels(1), input_after),
    "blind4-instrument-writes-input": Demo(lambda: kernels(1, enabled=1), input_after),
    # cuda.iket.enabled = 2: the second kernel's event is 2; the wrong fix takes only 1
    "blind4-enabled-only-one": Demo(lambda: kernels(2, enabled=2), output),
    # a run-iket child's environment, no attribute: the second kernel's event is 2; the wrong
    # fix reads the attribute only and instruments each kernel alone
    "blind4-enabled-ignores-child-env": Demo(lambda: kernels(2), output_in_child_env),
    # enabled: the second kernel's event is 2; the wrong fix instruments each kernel alone
    "blind4-instrument-per-kernel": Demo(lambda: kernels(2, enabled=1), output),
}

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
"""Blind round 4 demos of lower_iket_inplace (apache/tvm): modules of marked CUDA kernels as
SplitHostDevice leaves them, and what LowerIket makes of them and of its input."""

import os
import re

from harness.blind_demo import Demo

# a verified run-iket child's environment (IketEnabled)
CHILD_ENV = {
    "TVM_IKET_INJECTED_CHILD_ENABLE": "1",
    "TVM_IKET_OFFICIAL_PROFILE": "cutlass-4.6.0",
    "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
    "SMODEL_INJECTION_CONFIG": "/nonexistent/config.json",
}


def kernel(event):
    """A private CUDA kernel (sm_90a, calling_conv 2) marking ``event`` once."""
    from tvm.script import tirx as T

    @T.prim_func(private=True)
    def func(A: T.Buffer((32,), "int32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
        tx = T.launch_thread("threadIdx.x", 32)
        T.cuda.iket.mark(event)
        A[tx] = A[tx] + 1

    return func


def kernels(count, enabled=None):
    """A module of ``count`` kernels ``k0`` .. (each marking its own event ``e<k>``), with the
    module attribute ``tirx.iket.enabled`` = ``enabled`` where given."""
    import tvm

    attrs = None if enabled is None else {"tirx.iket.enabled": enabled}
    return tvm.IRModule({f"k{k}": kernel(f"e{k}") for k in range(count)}, attrs=attrs)


def with_relax_main():
    """One marked kernel beside a Relax function ``main``."""
    import tvm
    from tvm import relax

    x = relax.Var("x", relax.TensorType([4], "float32"))
    main = relax.Function([x], x)
    return tvm.IRModule({"k0": kernel("e0"), "main": main})


def lower(mod):
    from tvm.backend.cuda.transforms import LowerIket

    return LowerIket()(mod)


def iket_calls(mod):
    """Per PrimFunc of ``mod``: the IKET calls left in it (marks, and events with their id)."""
    found = {}
    for gvar, func in sorted(mod.functions.items(), key=lambda kv: kv[0].name_hint):
        text = func.script()
        calls = re.findall(r"iket[._]mark|official_event\(T\.uint32\(\d+", text)
        calls = [c.replace("official_event(T.uint32(", "event ") for c in calls]
        found[gvar.name_hint] = [c.replace("_", ".") for c in calls]
    return found


def output(mod):
    """The IKET calls of LowerIket's output."""
    return iket_calls(lower(mod))


def input_after(mod):
    """The IKET calls of LowerIket's input after the pass."""
    lower(mod)
    return iket_calls(mod)


def output_in_child_env(mod):
    """The IKET calls of LowerIket's output in a run-iket child's environment."""
    os.environ.update(CHILD_ENV)
    return output(mod)


def names(mod):
    """The functions of LowerIket's output."""
    return sorted(gvar.name_hint for gvar in lower(mod).get_global_vars())


DEMOS = {
    "blind4-cow-without-map-handle": Demo(lambda: kernels(5), output),
    "blind4-strip-writes-input": Demo(lambda: kernels(1), input_after),
    "blind4-instrument-writes-input": Demo(lambda: kernels(1, enabled=1), input_after),
    "blind4-enabled-only-one": Demo(lambda: kernels(2, enabled=2), output),
    "blind4-enabled-ignores-child-env": Demo(lambda: kernels(2), output_in_child_env),
    "blind4-instrument-per-kernel": Demo(lambda: kernels(2, enabled=1), output),
    "blind4-result-drops-non-primfuncs": Demo(with_relax_main, names),
}

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
"""Blind round 5 demos of LowerIket's wrong fixes (apache/tvm)."""

import os

import tvm
from harness.blind_demo import Demo
from tvm.backend.cuda.transforms import LowerIket
from tvm.script import tirx as T

SM90 = {"kind": "cuda", "arch": "sm_90a"}
# a verified run-iket child's environment (IketEnabled)
CHILD_ENV = {
    "TVM_IKET_INJECTED_CHILD_ENABLE": "1",
    "TVM_IKET_OFFICIAL_PROFILE": "cutlass-4.6.0",
    "CUDA_INJECTION64_PATH": "/nonexistent/injection.so",
    "SMODEL_INJECTION_CONFIG": "/nonexistent/config",
}


def kernel(label, symbol=None):
    """A CUDA kernel as SplitHostDevice leaves it, with one IKET mark ``label``."""
    text = (
        '@T.prim_func(private=True)\ndef k(A: T.Buffer((32,), "int32")):\n'
        f'    T.func_attr({{"target": T.target({SM90!r}), "calling_conv": 2}})\n'
        '    tx = T.launch_thread("threadIdx.x", 32)\n'
        f'    T.cuda.iket.mark("{label}")\n'
        "    A[tx] = A[tx] + 1\n"
    )
    func = tvm.script.from_source(text, {"T": T})
    return func.with_attr("global_symbol", symbol) if symbol else func


def module(labels, attrs=None, symbol=None):
    """A module of one kernel per label, kernel_0, kernel_1, ... (built from a dict)."""
    mod = tvm.IRModule({f"kernel_{k}": kernel(x, symbol) for k, x in enumerate(labels)})
    return mod.with_attrs(attrs) if attrs else mod


def host_and_kernel():
    """An unmarked llvm host function beside one marked kernel."""

    @T.prim_func
    def host(A: T.Buffer((32,), "int32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(32):
            A[i] = 0

    return tvm.IRModule({"host": host, "kernel_0": kernel("only")})


def in_child_env(labels, symbol):
    """``module(labels, symbol=symbol)``, this process made a run-iket child."""
    os.environ.update(CHILD_ENV)
    return module(labels, symbol=symbol)


def marked(mod):
    return sorted(gv.name_hint for gv, f in mod.functions.items() if "iket.mark" in f.script())


def output_marked(mod):
    """Observer: which kernels of LowerIket's output keep a mark."""
    return f"output still marked: {marked(LowerIket()(mod))}"


def input_after(mod):
    """Observer: the input's kernels after the pass: still marked / instrumented."""
    LowerIket()(mod)
    events = sorted(
        gv.name_hint for gv, f in mod.functions.items() if "official_event" in f.script()
    )
    return f"input marked: {marked(mod)}, instrumented: {events}"


def events(mod):
    """Observer: the IKET event of each kernel of the output (or the pass's error)."""
    out = LowerIket()(mod)
    return {
        gv.name_hint: [
            x.strip().split(", ")[0] for x in f.script().splitlines() if "official_event" in x
        ]
        for gv, f in sorted(out.functions.items(), key=lambda kv: kv[0].name_hint)
    }


def output_names(mod):
    """Observer: the functions of LowerIket's output."""
    return f"output holds {sorted(gv.name_hint for gv in LowerIket()(mod).get_global_vars())}"


DEMOS = {
    "blind5-cow-no-snapshot": Demo(lambda: module(["store"] * 5), output_marked),
    "blind5-snapshot-no-cow": Demo(lambda: module(["first", "second"]), input_after),
    "blind5-instrument-in-place": Demo(
        lambda: module(["first", "second"], {"tirx.iket.enabled": 1}), input_after
    ),
    "blind5-enabled-exact-one": Demo(
        lambda: module(["first", "second"], {"tirx.iket.enabled": 2}), events
    ),
    "blind5-child-env-ignored": Demo(lambda: in_child_env(["a", "b"], "same_kernel"), events),
    "blind5-new-module-of-stripped": Demo(host_and_kernel, output_names),
}

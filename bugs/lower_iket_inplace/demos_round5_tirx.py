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
"""Blind round 5 demos of LowerIket's wrong fixes (apache/tvm-tirx): the kernels are those
SplitHostDevice makes of a function of marked launches; the observers are demos_round5.py's,
written for that line."""

import os

import tvm_tirx
from tvm_tirx.backend.cuda.transform import LowerIket
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo

SM90 = {"kind": "cuda", "arch": "sm_90a", "host": "llvm"}
CHILD_ENV = {
    "TVM_TIRX_IKET_INJECTED_CHILD_ENABLE": "1",
    "CUDA_INJECTION64_PATH": "/nonexistent/injection.so",
    "IKET_INJECTION_CONFIG": "/nonexistent/config",
}


def module(labels, attrs=None, symbol=None):
    """SplitHostDevice's module of a host ``main`` launching one kernel per label, each with
    an IKET mark of that label (kernels given the global symbol ``symbol`` when set)."""
    launches = "".join(
        f'    with T.launch_thread("threadIdx.x", 32) as t{k}:\n'
        f'        T.cuda.iket_mark("{x}")\n'
        f"        A[t{k}] = A[t{k}] + {k}\n"
        for k, x in enumerate(labels)
    )
    text = (
        '@T.function\ndef main(A: T.Tensor((32,), "int32")):\n'
        f"    T.func_attr({{'target': T.target({SM90!r})}})\n" + launches
    )
    main = tvm_tirx.script.from_source(text, {"T": T})
    mod = tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))
    if symbol:
        for gv, f in list(mod.functions.items()):
            if gv.name_hint != "main":
                mod.update_func(gv, f.with_attr("global_symbol", symbol))
    return mod.with_attrs(attrs) if attrs else mod


def in_child_env(labels, symbol):
    os.environ.update(CHILD_ENV)
    return module(labels, symbol=symbol)


def marked(mod):
    return sorted(gv.name_hint for gv, f in mod.functions.items() if "iket_mark" in f.script())


def output_marked(mod):
    return f"output still marked: {marked(LowerIket()(mod))}"


def input_after(mod):
    LowerIket()(mod)
    events = sorted(
        gv.name_hint for gv, f in mod.functions.items() if "official_event" in f.script()
    )
    return f"input marked: {marked(mod)}, instrumented: {events}"


def events(mod):
    out = LowerIket()(mod)
    return {
        gv.name_hint: [
            x.strip().split(", ")[0] for x in f.script().splitlines() if "official_event" in x
        ]
        for gv, f in sorted(out.functions.items(), key=lambda kv: kv[0].name_hint)
    }


def output_names(mod):
    return f"output holds {sorted(gv.name_hint for gv in LowerIket()(mod).get_global_vars())}"


DEMOS = {
    "blind5-cow-no-snapshot": Demo(lambda: module(["store"] * 5), output_marked),
    "blind5-snapshot-no-cow": Demo(lambda: module(["first", "second"]), input_after),
    "blind5-instrument-in-place": Demo(
        lambda: module(["first", "second"], {"cuda.iket.enabled": 1}), input_after
    ),
    "blind5-enabled-exact-one": Demo(
        lambda: module(["first", "second"], {"cuda.iket.enabled": 2}), events
    ),
    "blind5-child-env-ignored": Demo(lambda: in_child_env(["a", "b"], "same_kernel"), events),
    "blind5-new-module-of-stripped": Demo(lambda: module(["only"]), output_names),
}

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
"""Blind round 6 demos of lower_iket_inplace (apache/tvm)."""

from harness.blind_demo import Demo


def marked(n, enabled=None, attrs=None):
    """A module of ``n`` CUDA kernels as SplitHostDevice leaves them, kernel k marking
    "event_k" (one IKET mark each); ``enabled`` sets tirx.iket.enabled, ``attrs`` more module
    attributes."""
    import tvm
    from tvm.script import tirx as T

    def kernel(label):
        @T.prim_func(private=True)
        def k(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark(label)
            A[tx] = A[tx] + 1

        return k

    mod_attrs = dict(attrs or {})
    if enabled is not None:
        mod_attrs["tirx.iket.enabled"] = enabled
    return tvm.IRModule(
        {f"kernel_{k}": kernel(f"event_{k}") for k in range(n)}, attrs=mod_attrs or None
    )


def _lower(mod):
    from tvm.backend.cuda.transforms import LowerIket

    return LowerIket()(mod)


def _marks(mod):
    return sorted(g.name_hint for g, f in mod.functions.items() if "iket.mark" in f.script())


def input_marks(mod):
    """The input's kernels that still carry their mark after the pass, and whether any was
    instrumented in place."""
    _lower(mod)
    inst = sorted(g.name_hint for g, f in mod.functions.items() if "official_event" in f.script())
    return f"input marked: {_marks(mod)}, input instrumented: {inst}"


def output_marks(mod):
    """The output's kernels that still carry a mark."""
    return f"output marked: {_marks(_lower(mod))}"


def event_numbers(mod):
    """Each output kernel's official_event numbers."""
    import re

    out = _lower(mod)
    events = {
        g.name_hint: re.findall(r"official_event\((T\.uint32\(\d+\))", f.script())
        for g, f in sorted(out.functions.items(), key=lambda x: x[0].name_hint)
    }
    return f"events: {events}, marked: {_marks(out)}"


def output_attrs(mod):
    """The output's module attributes and marked kernels."""
    out = _lower(mod)
    return f"attrs: {dict(out.attrs or {})}, marked: {_marks(out)}"


DEMOS = {
    "blind6-iket-enabled-inplace": Demo(lambda: marked(2, enabled=1), input_marks),
    "blind6-iket-copy-without-handle": Demo(lambda: marked(5), output_marks),
    "blind6-iket-handle-without-copy": Demo(lambda: marked(1), input_marks),
    "blind6-iket-enabled-attr-present": Demo(lambda: marked(2, enabled=0), event_numbers),
    "blind6-iket-enabled-equals-one": Demo(lambda: marked(2, enabled=2), event_numbers),
    "blind6-iket-result-drops-attrs": Demo(
        lambda: marked(2, attrs={"device": "gpu"}), output_attrs
    ),
}

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
"""Blind round 7 demos of the lower_iket_inplace wrong fixes (apache/tvm-tirx)."""

from harness.blind_demo import Demo


def kernels(n, enabled=False, attrs=False):
    """SplitHostDevice's output for a host function of ``n`` kernel launches, each with an IKET
    mark; IKET ``enabled`` or not, with a module attribute."""

    def build():
        import tvm_tirx
        from tvm_tirx.script import tirx as T

        marks = "\n".join(
            f'    with T.launch_thread("threadIdx.x", 32):\n        T.cuda.iket_mark("m{k}")'
            for k in range(n)
        )
        main = tvm_tirx.script.from_source(
            "@T.function\n"
            'def main(A: T.Tensor((32,), "int32")):\n'
            '    T.func_attr({"target": T.target('
            '{"kind": "cuda", "arch": "sm_90a", "host": "llvm"})})\n' + marks + "\n",
            extra_vars={"T": T},
        )
        mod = tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))
        extra = {}
        if enabled:
            extra["cuda.iket.enabled"] = 1
        if attrs:
            extra["demo.flag"] = 7
        if extra:
            mod = (
                mod.with_attrs(extra)
                if hasattr(mod, "with_attrs")
                else tvm_tirx.IRModule(dict(mod.functions.items()), attrs=extra)
            )
        return mod

    return build


def _state(mod):
    def kind(f):
        text = f.script()
        return (
            "event"
            if "official_event" in text
            else "mark"
            if "iket_mark" in text or "iket.mark" in text
            else "plain"
        )

    return sorted((gv.name_hint, kind(f)) for gv, f in mod.functions.items())


def _run(mod):
    from tvm_tirx.backend.cuda.transform import LowerIket

    return LowerIket()(mod)


def caller(mod):
    _run(mod)
    return f"caller: {_state(mod)}"


def output(mod):
    out = _run(mod)
    return f"output: {_state(out)} attrs={out.attrs}"


DEMOS = {
    "blind7-cow-strip-branch-only": Demo(kernels(2, enabled=True), caller),
    "blind7-cow-instrument-branch-only": Demo(kernels(1), caller),
    "blind7-no-map-handle": Demo(kernels(5), output),
    "blind7-copy-drops-attrs": Demo(kernels(1, attrs=True), output),
    "blind7-local-copy-strip": Demo(kernels(2), output),
}

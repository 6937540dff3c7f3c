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
"""Blind round 7 demos of the lower_iket_inplace wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo


def kernels(n, enabled=False, attrs=False, infos=False):
    """A module of ``n`` marked CUDA kernels (as SplitHostDevice leaves them), IKET
    ``enabled`` or not, with module attributes / global infos."""

    def build():
        import tvm
        from tvm.script import ir as I
        from tvm.script import tirx as T

        @T.prim_func(private=True)
        def kernel(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark("store")
            A[tx] = A[tx] + 1

        mod_attrs = {}
        if enabled:
            mod_attrs["tirx.iket.enabled"] = 1
        if attrs:
            mod_attrs["demo.flag"] = 7
        kw = {"attrs": mod_attrs} if mod_attrs else {}
        if infos:
            kw["global_infos"] = {"vdevice": [I.vdevice("llvm", 0, "global")]}
        return tvm.IRModule({f"kernel_{k}": kernel for k in range(n)}, **kw)

    return build


def _state(mod):
    return sorted(
        (
            gv.name_hint,
            "event"
            if "official_event" in f.script()
            else "mark"
            if "iket.mark" in f.script()
            else "plain",
        )
        for gv, f in mod.functions.items()
    )


def _run(mod):
    from tvm.backend.cuda.transforms import LowerIket

    return LowerIket()(mod)


def caller(mod):
    """The caller's kernels after the pass: still marked, instrumented or stripped."""
    _run(mod)
    return f"caller: {_state(mod)}"


def output(mod):
    """The output's kernels, attributes and global infos."""
    out = _run(mod)
    infos = dict(out.global_infos.items()) if out.global_infos else {}
    return f"output: {_state(out)} attrs={out.attrs} global_infos={infos}"


DEMOS = {
    "blind7-cow-strip-branch-only": Demo(kernels(2, enabled=True), caller),
    "blind7-cow-instrument-branch-only": Demo(kernels(1), caller),
    "blind7-no-map-handle": Demo(kernels(5), output),
    "blind7-copy-drops-attrs": Demo(kernels(1, attrs=True), output),
    "blind7-copy-drops-global-infos": Demo(kernels(2, infos=True), output),
    "blind7-local-copy-strip": Demo(kernels(2), output),
}

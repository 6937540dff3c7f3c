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
"""Blind round 7 demos of the annotate_entry_func_inplace wrong fixes (apache/tvm-tirx)."""

from harness.blind_demo import Demo


def module(private_second=False, attrs=False):
    """A module of one public function ``main`` (and a private ``helper``), with attributes."""

    def build():
        import tvm_tirx
        from tvm_tirx.script import tirx as T

        @T.function
        def main(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = A[i] + T.float32(1)

        @T.function(private=True)
        def helper(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(0)

        funcs = {"main": main}
        if private_second:
            funcs["helper"] = helper
        kw = {"attrs": {"demo.flag": 7}} if attrs else {}
        return tvm_tirx.IRModule(funcs, **kw)

    return build


def _marks(mod):
    return sorted(
        (gv.name_hint, bool(f.attrs and f.attrs.get("tirx.is_entry_func")))
        for gv, f in mod.functions.items()
    )


def _run(mod):
    from tvm_tirx.tirx import transform as tr

    return tr.AnnotateEntryFunc()(mod)


def caller(mod):
    _run(mod)
    return f"caller: {_marks(mod)}"


def output(mod):
    out = _run(mod)
    return f"output: {_marks(out)} attrs={out.attrs}"


DEMOS = {
    "blind7-cow-single-branch-only": Demo(module(private_second=True), caller),
    "blind7-cow-multi-branch-only": Demo(module(), caller),
    "blind7-copy-drops-attrs": Demo(module(attrs=True), output),
    "blind7-local-copy-single": Demo(module(), output),
    "blind7-local-copy-multi": Demo(module(private_second=True), output),
}

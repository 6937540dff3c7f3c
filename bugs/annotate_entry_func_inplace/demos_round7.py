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
"""Blind round 7 demos of the annotate_entry_func_inplace wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo


def module(private_second=False, attrs=False, infos=False):
    """A module of one public PrimFunc ``main`` (and a private ``helper`` when
    ``private_second``), with module attributes / global infos."""

    def build():
        import tvm
        from tvm.script import ir as I
        from tvm.script import tirx as T

        @T.prim_func
        def main(A: T.Buffer((4,), "float32")):
            for i in range(4):
                A[i] = A[i] + T.float32(1)

        @T.prim_func(private=True)
        def helper(A: T.Buffer((4,), "float32")):
            for i in range(4):
                A[i] = T.float32(0)

        funcs = {"main": main}
        if private_second:
            funcs["helper"] = helper
        kw = {}
        if attrs:
            kw["attrs"] = {"demo.flag": 7}
        if infos:
            kw["global_infos"] = {"vdevice": [I.vdevice("llvm", 0, "global")]}
        return tvm.IRModule(funcs, **kw)

    return build


def _marks(mod):
    return {
        gv.name_hint: bool(f.attrs and f.attrs.get("tirx.is_entry_func"))
        for gv, f in mod.functions.items()
    }


def _run(mod):
    import tvm

    return tvm.tirx.transform.AnnotateEntryFunc()(mod)


def caller(mod):
    """Which functions of the caller's module carry tirx.is_entry_func after the pass."""
    _run(mod)
    return f"caller: {sorted(_marks(mod).items())}"


def output(mod):
    """Which functions of the output carry the mark; its attributes and global infos."""
    out = _run(mod)
    infos = dict(out.global_infos.items()) if out.global_infos else {}
    return f"output: {sorted(_marks(out).items())} attrs={out.attrs} global_infos={infos}"


DEMOS = {
    "blind7-cow-single-branch-only": Demo(module(private_second=True), caller),
    "blind7-cow-multi-branch-only": Demo(module(), caller),
    "blind7-copy-drops-attrs": Demo(module(attrs=True), output),
    "blind7-copy-drops-global-infos": Demo(module(private_second=True, infos=True), output),
    "blind7-local-copy-single": Demo(module(), output),
    "blind7-local-copy-multi": Demo(module(private_second=True), output),
}

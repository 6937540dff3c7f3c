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
"""Blind round 4 demos of annotate_entry_func_inplace (apache/tvm): modules of one function,
or of a public ``main`` and a private helper, and what AnnotateEntryFunc makes of them and of
its input (an ordinary run: no testing.immutable_module)."""

from harness.blind_demo import Demo


def module(helper=False, attrs=None, infos=False):
    """``main`` adding 1 to A (llvm), beside a private ``helper`` where ``helper``; ``attrs``
    as module attributes; a ``vdevice`` global info where ``infos``."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = A[i] + T.float32(1)

    @T.prim_func(private=True)
    def helper_func(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)

    funcs = {"main": main, "helper": helper_func} if helper else {"main": main}
    vdevice = [tvm.relax.VDevice(tvm.target.Target("llvm"), 0, "global")] if infos else None
    infos = {"vdevice": vdevice} if infos else None
    return tvm.IRModule(funcs, attrs=attrs, global_infos=infos)


def annotate(mod):
    import tvm

    return tvm.tirx.transform.AnnotateEntryFunc()(mod)


def entries(mod):
    """The functions of ``mod`` marked tirx.is_entry_func."""
    return sorted(
        gvar.name_hint
        for gvar, func in mod.functions.items()
        if func.attrs is not None and "tirx.is_entry_func" in func.attrs
    )


def input_after(mod):
    """The entries of the input after the pass."""
    annotate(mod)
    return {"input entries": entries(mod)}


def output(mod):
    return {"output entries": entries(annotate(mod))}


def output_module_info(mod):
    out = annotate(mod)
    attrs = {k: str(v) for k, v in out.attrs.items()} if out.attrs is not None else {}
    infos = sorted(out.global_infos.keys()) if out.global_infos is not None else []
    return {"attrs": attrs, "global_infos": infos}


DEMOS = {
    "blind4-several-functions-writes-input": Demo(lambda: module(helper=True), input_after),
    "blind4-single-function-writes-input": Demo(module, input_after),
    "blind4-several-functions-returns-input": Demo(lambda: module(helper=True), output),
    "blind4-copy-drops-attrs": Demo(
        lambda: module(attrs={"system_lib_prefix": "lib_"}), output_module_info
    ),
    "blind4-copy-drops-global-infos": Demo(lambda: module(infos=True), output_module_info),
    "blind4-copy-only-under-immutable-option": Demo(lambda: module(helper=True), input_after),
}

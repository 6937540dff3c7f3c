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
"""Blind round 4 demos of split_host_device_inplace (apache/tvm): modules as the pipeline
hands them to SplitHostDevice, and what the pass makes of them and of its input."""

from harness.blind_demo import Demo


def one_kernel(attrs=None, infos=False):
    """The report's module: ``main`` (cuda, llvm host) with one thread launch; ``attrs`` as its
    module attributes, and a ``vdevice`` global info where ``infos``."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] + T.float32(1)

    vdevice = tvm.relax.VDevice(tvm.target.Target("llvm"), 0, "global")
    infos = {"vdevice": [vdevice]} if infos else None
    return tvm.IRModule({"main": main}, attrs=attrs, global_infos=infos)


def already_split():
    """A module already split: ``main`` calls its kernel ``main_kernel`` (nothing to split)."""
    from tvm.script import ir as I
    from tvm.script import tirx as T

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            Module.main_kernel(A.data)

        @T.prim_func(private=True, s_tir=True)
        def main_kernel(A_data: T.handle("float32")):
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer((8,), "float32", data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    return Module


def rebinds():
    """A host-only function (nothing to split) that binds ``x`` twice: ``x = 1; x = 2``."""
    import tvm
    from tvm import tirx

    x = tirx.Var("x", "int32")
    stmts = []
    for value in (1, 2):
        stmts += [tirx.Bind(x, tirx.const(value, "int32")), tirx.Evaluate(x)]
    func = tirx.PrimFunc([], tirx.SeqStmt(stmts))
    return tvm.IRModule({"main": func.with_attr("target", tvm.target.Target("cuda", host="llvm"))})


def split(mod):
    import tvm

    return tvm.tirx.transform.SplitHostDevice()(mod)


def body_lines(func):
    """The statements of ``func``'s script (no attributes, no header)."""
    lines = func.script().splitlines()
    start = next(k for k, x in enumerate(lines) if x.startswith("def "))
    return [x.strip() for x in lines[start + 1 :] if "func_attr" not in x and x.strip()]


def summary(mod):
    """Per function of ``mod``: the statements of its body, and its calling_conv."""
    out = {}
    for gvar, func in sorted(mod.functions.items(), key=lambda kv: kv[0].name_hint):
        conv = func.attrs.get("calling_conv") if func.attrs is not None else None
        out[gvar.name_hint] = (body_lines(func), None if conv is None else int(conv))
    return out


def input_after(mod):
    """The input module after SplitHostDevice."""
    split(mod)
    return summary(mod)


def output(mod):
    return summary(split(mod))


def output_module_info(mod):
    """The output's module attributes and global infos."""
    out = split(mod)
    attrs = {k: str(v) for k, v in out.attrs.items()} if out.attrs is not None else {}
    infos = sorted(out.global_infos.keys()) if out.global_infos is not None else []
    return {"attrs": attrs, "global_infos": infos}


DEMOS = {
    "blind4-copy-after-first-write": Demo(one_kernel, input_after),
    "blind4-guard-skips-launch-lowering": Demo(already_split, output),
    "blind4-guard-returns-early": Demo(rebinds, output),
    "blind4-copy-drops-attrs": Demo(
        lambda: one_kernel(attrs={"system_lib_prefix": "lib_"}), output_module_info
    ),
    "blind4-copy-drops-global-infos": Demo(lambda: one_kernel(infos=True), output_module_info),
    "blind4-copy-only-under-immutable-option": Demo(one_kernel, input_after),
}

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
"""Blind round 7 demos of the split_host_device_inplace wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo


def kernel_module(attrs=False, infos=False):
    """A host function with one device region (and module attributes / global infos)."""

    def build():
        import tvm
        from tvm.script import ir as I
        from tvm.script import tirx as T

        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

        kw = {}
        if attrs:
            kw["attrs"] = {"demo.flag": 7}
        if infos:
            kw["global_infos"] = {"vdevice": [I.vdevice("llvm", 0, "global")]}
        return tvm.IRModule({"main": main}, **kw)

    return build


def non_ssa():
    """A host-only function (no device region) with two loops over the same variable."""
    import tvm
    from tvm import tirx

    ptr = tirx.Var("A", tvm.ir.PointerType(tvm.ir.PrimType("int32")))
    A = tirx.decl_buffer((2,), "int32", name="A", data=ptr)
    x = tirx.Var("x", "int32")
    s0 = tirx.For(x, 0, 2, tirx.ForKind.SERIAL, tirx.BufferStore(A, x, [x]))
    s1 = tirx.For(x, 0, 2, tirx.ForKind.SERIAL, tirx.BufferStore(A, x + 1, [x]))
    func = tirx.PrimFunc([ptr], tirx.SeqStmt([s0, s1]))
    func = func.with_attr("target", tvm.target.Target("llvm")).with_attr("global_symbol", "main")
    return tvm.IRModule({"main": func})


def _split(mod):
    import tvm

    return tvm.tirx.transform.SplitHostDevice()(mod)


def caller(mod):
    """The caller's module after the pass."""
    _split(mod)
    return mod.script()


def output(mod):
    """The pass's output."""
    return _split(mod).script()


def loops_share_var(mod):
    """Whether the output's two loops bind the very same variable (not SSA)."""
    import tvm_ffi

    from tvm import tirx

    loops = []
    tvm_ffi.structural_walk(_split(mod)["main"].body, [(tirx.For, loops.append)], order="pre")
    return f"{len(loops)} loops; same loop variable: {loops[0].loop_var.same_as(loops[1].loop_var)}"


def attrs_of(mod):
    out = _split(mod)
    infos = dict(out.global_infos.items()) if out.global_infos else {}
    return f"attrs={out.attrs} global_infos={infos}"


DEMOS = {
    "blind7-cow-second-write-only": Demo(kernel_module(), caller),
    "blind7-guard-returns-early": Demo(non_ssa, loops_share_var),
    "blind7-copy-drops-attrs": Demo(kernel_module(attrs=True), attrs_of),
    "blind7-copy-drops-global-infos": Demo(kernel_module(infos=True), attrs_of),
    "blind7-copy-in-local": Demo(kernel_module(), output),
}

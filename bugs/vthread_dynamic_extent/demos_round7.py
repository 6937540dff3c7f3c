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
"""Blind round 7 demos of the vthread_dynamic_extent wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo


def _script(text):
    import tvm
    from tvm.script import tirx as T

    return tvm.script.from_source(text, extra_vars={"T": T})


def one(tag, extent, dtype="int32"):
    """A kernel of one virtual thread ``tag`` of extent ``extent`` (a parameter n in scope)."""
    return lambda: _script(f'''
@T.prim_func
def main(B: T.Buffer((64,), "float32"), n: T.{dtype}):
    for v in T.thread_binding({extent}, thread="{tag}"):
        for i in T.thread_binding(8, thread="threadIdx.x"):
            B[i] = T.float32(1.0)
''')


def nested():
    return _script("""
@T.prim_func
def main(B: T.Buffer((64,), "float32"), n: T.int32, m: T.int32):
    for v in T.thread_binding(n, thread="vthread.x"):
        for w in T.thread_binding(m, thread="vthread.y"):
            for i in T.thread_binding(8, thread="threadIdx.x"):
                B[i] = T.float32(1.0)
""")


def raw(tag, dom, value):
    """A virtual_thread attribute written directly: its IterVar ``tag`` of domain [0, dom),
    its value ``value`` (the parameter n where it is "n")."""

    def build():
        import tvm
        from tvm import tirx

        n = tirx.Var("n", "int32")
        ptr = tirx.Var("B", tvm.ir.PointerType(tvm.ir.PrimType("float32")))
        B = tirx.decl_buffer((64,), "float32", name="B", data=ptr)
        v = tirx.Var("v", "int32")
        iv = tirx.IterVar(tvm.ir.Range(0, dom), v, tirx.IterVar.ThreadIndex, tag)
        body = tirx.BufferStore(B, tirx.const(1.0, "float32"), [v])
        stmt = tirx.AttrStmt(iv, "virtual_thread", n if value == "n" else value, body)
        return tirx.PrimFunc([ptr, n], stmt).with_attr("global_symbol", "main")

    return build


def inject(func):
    """InjectVirtualThread alone (after the lowering it needs): the body or the error."""
    import tvm

    mod = tvm.IRModule({"main": func})
    mod = tvm.s_tir.transform.LowerOpaqueBlock()(mod)
    mod = tvm.s_tir.transform.InjectVirtualThread()(mod)
    return mod["main"].script()


DEMOS = {
    "blind7-check-before-body": Demo(nested, inject),
    "blind7-vthread-tag-only": Demo(raw("cthread", 4, "n"), inject),
    "blind7-var-only": Demo(one("vthread", "n * 2"), inject),
    "blind7-int32-only": Demo(one("vthread", "T.int64(2)", "int64"), inject),
    "blind7-dom-extent": Demo(raw("vthread", 4, "n"), inject),
    "blind7-nonzero-extent": Demo(one("vthread", "1"), inject),
}

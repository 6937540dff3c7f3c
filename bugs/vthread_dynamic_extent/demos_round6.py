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
"""Blind round 6 demos of vthread_dynamic_extent (apache/tvm)."""

from harness.blind_demo import Demo, script_of


def vthread_func(extent="param", tag="vthread", nest=None):
    """A PrimFunc(n, L, B) whose body is a virtual thread ``tag`` (B[vt] = 1): its extent is
    the parameter n ("param"), L[0] ("load"), n - n + 2 ("folds") or the constant 2 of type
    ``extent`` ("int32", "int64"); ``nest`` puts it inside a serial loop ("for") or an if
    ("if")."""
    from tvm import tirx

    n = tirx.Var("n", "int32")
    L = tirx.decl_buffer((1,), "int32", "L")
    B = tirx.decl_buffer((8,), "float32", "B")
    value = {
        "param": lambda: n,
        "load": lambda: tirx.BufferLoad(L, [0]),
        "folds": lambda: tirx.Add(tirx.Sub(n, n), tirx.const(2, "int32")),
        "int32": lambda: tirx.const(2, "int32"),
        "int64": lambda: tirx.const(2, "int64"),
    }[extent]()
    vt = tirx.Var("vt", str(value.ty))
    iv = tirx.IterVar(None, vt, tirx.IterVar.ThreadIndex, tag)
    body = tirx.BufferStore(B, tirx.const(1.0, "float32"), [tirx.Cast("int32", vt)])
    body = tirx.AttrStmt(iv, "virtual_thread", value, body)
    if nest == "for":
        j = tirx.Var("j", "int32")
        body = tirx.For(j, 0, 2, tirx.ForKind.SERIAL, body)
    elif nest == "if":
        body = tirx.IfThenElse(n > 0, body, None)
    return tirx.PrimFunc([n, L, B], body)


def module(*funcs):
    """A module of the PrimFuncs ``funcs`` (f0, f1, ...)."""
    import tvm

    return tvm.IRModule(
        {f"f{k}": f.with_attr("global_symbol", f"f{k}") for k, f in enumerate(funcs)}
    )


def injected(mod):
    """The module after InjectVirtualThread, or its error (a crash kills the child)."""
    import tvm.s_tir.transform
    from harness.blind_demo import message

    try:
        return script_of(tvm.s_tir.transform.InjectVirtualThread()(mod))
    except Exception as err:  # the result
        return f"{type(err).__name__}: {message(err)}"


DEMOS = {
    "blind6-vt-vthread-tag-only": Demo(
        lambda: module(vthread_func("load", tag="cthread")), injected
    ),
    "blind6-vt-load-extent-only": Demo(lambda: module(vthread_func("param")), injected),
    "blind6-vt-first-function-only": Demo(
        lambda: module(vthread_func("int32"), vthread_func("load")), injected
    ),
    "blind6-vt-top-level-only": Demo(lambda: module(vthread_func("load", nest="for")), injected),
    "blind6-vt-int32-only": Demo(lambda: module(vthread_func("int64", nest="if")), injected),
    "blind6-vt-simplified-extent": Demo(lambda: module(vthread_func("folds")), injected),
}

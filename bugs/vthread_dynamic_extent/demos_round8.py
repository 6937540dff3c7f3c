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
"""Round 8 blind demos of the InjectVirtualThread fix: per wrong fix, a small
function whose tvm.compile for CUDA (no GPU needed) compiles under one fix and is refused
under the other, or is refused with another error or text."""

from harness.blind_demo import Demo, from_script, message


def program(loops):
    """A builder of ``main`` whose kernel is nested in ``loops`` (TVMScript lines)."""
    lines = "".join(" " * 4 * (i + 1) + loop + "\n" for i, loop in enumerate(loops))
    pad = " " * 4 * (len(loops) + 1)
    return lambda: from_script(
        f"""
@T.prim_func
def main(L: T.Buffer((2,), "int32"), n: T.int32, B: T.Buffer((64,), "float32")):
{lines}{pad}for i in T.thread_binding(8, thread="threadIdx.x"):
{pad}    B[i] = T.float32(1.0)
"""
    )


def compile_cuda(func):
    """Observer: tvm.compile for CUDA: "compiled", or the error's type and first line."""
    import tvm

    try:
        tvm.compile(func, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    return "compiled"


def attr_program(launches):
    """A builder of ``main`` whose store is nested in virtual threads, one per ``(tag,
    extent)`` of ``launches``, outermost first: AttrStmts ``virtual_thread`` as the lowering
    of a ``T.thread_binding`` makes them (the loop variables are named ``vt0``, ``vt1``, ...)."""

    def build():
        import tvm

        lines = "".join(
            " " * 4 * (i + 1) + f'with T.launch_thread("{tag}", {extent}) as vt{i}:\n'
            for i, (tag, extent) in enumerate(launches)
        )
        pad = " " * 4 * (len(launches) + 1)
        func = from_script(
            f"""
@T.prim_func
def main(L: T.Buffer((2,), "int32"), n: T.int32, B: T.Buffer((64,), "float32")):
{lines}{pad}B[vt0] = T.float32(1.0)
"""
        )

        def virtual(stmt):
            if isinstance(stmt, tvm.tirx.AttrStmt):
                body = virtual(stmt.body)
                return tvm.tirx.AttrStmt(stmt.node, "virtual_thread", stmt.value, body)
            return stmt

        return func.with_body(virtual(func.body))

    return build


def inject(func):
    """Observer: InjectVirtualThread alone on ``main``: "injected" and the number of stores, or
    the error's type and first line."""
    import tvm

    try:
        mod = tvm.s_tir.transform.InjectVirtualThread()(tvm.IRModule({"main": func}))
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    return f"injected: {mod.script().count('T.float32(1.0)')} stores"


DEMOS = {
    # a cthread (a virtual thread that shares no memory) whose extent is read from a buffer
    "blind8-vthread-tags-only": Demo(attr_program([("cthread", "L[0]")]), inject),
    # a vthread.x whose extent is read from a buffer
    "blind8-exact-vthread-tag": Demo(
        program(['for v in T.thread_binding(L[0], thread="vthread.x"):']), compile_cuda
    ),
    # the report's extent, read from a buffer
    "blind8-var-extent-only": Demo(
        program(['for v in T.thread_binding(L[0], thread="vthread"):']), compile_cuda
    ),
    # a constant extent of type int64
    "blind8-int32-extent-only": Demo(
        program(['for v in T.thread_binding(T.int64(2), thread="vthread"):']), compile_cuda
    ),
    # two nested virtual threads, each with an extent read from the buffer
    "blind8-outermost-named": Demo(
        program(
            [
                'for v in T.thread_binding(L[0], thread="vthread.x"):',
                'for w in T.thread_binding(L[1], thread="vthread.y"):',
            ]
        ),
        compile_cuda,
    ),
    # the extent is the scalar parameter n; the variable vt0 is not named like the tag
    "blind8-var-name-in-message": Demo(attr_program([("vthread", "n")]), inject),
    "blind8-icheck-internal-error": Demo(
        program(['for v in T.thread_binding(n + 1, thread="vthread"):']), compile_cuda
    ),
}

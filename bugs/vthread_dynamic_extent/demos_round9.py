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
"""Round 9 blind demos of the vthread_dynamic_extent report: one program per wrong
fix, compiled for CUDA (no GPU needed), whose result differs under the reference fix and the
wrong fix."""

from harness.blind_demo import Demo, from_script, message


def _compiled(func):
    """Observer: ``func`` compiled for CUDA: the kernel's lines, or the error's line."""
    import tvm

    try:
        lib = tvm.compile(func, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    source = lib.mod.imports[0].inspect_source()
    start = source.index('extern "C" __global__')
    return "compiled:\n" + source[start:]


def _injected(func):
    """Observer: InjectVirtualThread alone on ``func``: the script, or the error's line."""
    import tvm
    from harness.blind_demo import script_or_error

    mod = tvm.IRModule({"main": func})
    return script_or_error(lambda: tvm.s_tir.transform.InjectVirtualThread()(mod))


def _launched(extent):
    """A virtual thread of ``extent`` (TVMScript text) as the pass receives it: the
    ``virtual_thread`` attribute that s_tir's lowering makes of a ``thread_binding`` loop."""

    def program():
        import tvm_ffi

        from tvm import tirx

        func = from_script(
            f"""
@T.prim_func
def main(L: T.Buffer((2,), "int32"), B: T.Buffer((64,), "float32")):
    vx = T.env_thread("vthread.x")
    T.launch_thread(vx, {extent})
    B[vx] = T.float32(1.0)
"""
        )

        def on_stmt(stmt, mutator):
            stmt = mutator.default_mutate(stmt)
            if isinstance(stmt, tirx.AttrStmt) and stmt.attr_key == "thread_extent":
                return tirx.AttrStmt(stmt.node, "virtual_thread", stmt.value, stmt.body)
            return stmt

        return func.with_body(tvm_ffi.structural_mutate(func.body, (tirx.Stmt, on_stmt)))

    return program


def _program(extents, tags=("vthread.x", "vthread.y"), names=("vx", "vy"), params=""):
    """Two nested virtual threads of the given extents (TVMScript text) around a kernel."""
    return lambda: from_script(
        f"""
@T.prim_func
def main(L: T.Buffer((2,), "int32"), B: T.Buffer((64,), "float32"){params}):
    for {names[0]} in T.thread_binding({extents[0]}, thread="{tags[0]}"):
        for {names[1]} in T.thread_binding({extents[1]}, thread="{tags[1]}"):
            for i in T.thread_binding(8, thread="threadIdx.x"):
                B[i * 4 + {names[0]} * 2 + {names[1]}] = T.float32(1.0)
"""
    )


DEMOS = {
    # both extents read from L: the pass reaches the inner one first
    "blind9-vt-outermost": Demo(_program(("L[0]", "L[1]")), _compiled),
    # the loop variable `vy` and the tag `vthread.y` differ
    "blind9-vt-var-name": Demo(_program((2, "L[1]")), _compiled),
    # an int64 constant extent is a constant
    "blind9-vt-int32-only": Demo(_launched("T.int64(2)"), _injected),
    # `L[0] - L[0] + 2` is an expression, no IntImm, though it simplifies to 2
    "blind9-vt-simplify": Demo(_launched("L[0] - L[0] + 2"), _injected),
    "blind9-vt-fallback-one": Demo(_program((2, "L[1]")), _compiled),
    "blind9-vt-internal-error": Demo(_program(("L[0]", 2)), _compiled),
}

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
"""Blind round 6 demos of split_host_device_inplace (apache/tvm)."""

from harness.blind_demo import Demo, script_of


def kernels(n, global_infos=False):
    """A module of ``n`` host functions, each launching one OpenCL kernel (llvm host); with
    ``global_infos``, a module global info (a vdevice) too."""
    import tvm
    import tvm.relax
    from tvm import tirx

    funcs = {}
    for k in range(n):
        A = tirx.decl_buffer((8,), "float32", "A")
        tx = tirx.Var("tx", "int32")
        iv = tirx.IterVar(tvm.ir.Range(0, 8), tx, tirx.IterVar.ThreadIndex, "threadIdx.x")
        store = tirx.BufferStore(A, tirx.BufferLoad(A, [tx]) + tirx.const(k + 1.0, "float32"), [tx])
        body = tirx.AttrStmt(iv, "thread_extent", 8, store)
        name = f"f{k}"
        target = tvm.target.Target("opencl", host="llvm")
        funcs[name] = tirx.PrimFunc([A], body).with_attrs({"target": target, "global_symbol": name})
    infos = {"dummy": [tvm.relax.DummyGlobalInfo()]} if global_infos else None
    return tvm.IRModule(funcs, global_infos=infos)


def reused_loop_var():
    """A host-only function (no device region) whose two loops bind the same variable: the
    pass's ConvertSSA must rename the second."""
    import tvm
    from tvm import tirx

    i = tirx.Var("i", "int32")
    A = tirx.decl_buffer((4,), "float32", "A")
    loop = tirx.For(
        i, 0, 4, tirx.ForKind.SERIAL, tirx.BufferStore(A, tirx.const(0.0, "float32"), [i])
    )
    func = tirx.PrimFunc([A], tirx.SeqStmt([loop, loop]))
    target = tvm.target.Target("opencl", host="llvm")
    return tvm.IRModule({"main": func.with_attrs({"target": target, "global_symbol": "main"})})


def _split(mod):
    import tvm

    return tvm.tirx.transform.SplitHostDevice()(mod)


def input_after(mod):
    """The input module's functions and main's script after the pass."""
    _split(mod)
    names = sorted(g.name_hint for g in mod.get_global_vars())
    return f"input after: {names}\n" + script_of(mod)


def immutable_output(mod):
    """The pass's output under testing.immutable_module, or its error."""
    import tvm
    from harness.blind_demo import message

    try:
        with tvm.transform.PassContext(config={"testing.immutable_module": True}):
            out = _split(mod)
        return sorted(g.name_hint for g in out.get_global_vars())
    except Exception as err:  # the result
        return f"{type(err).__name__}: {message(err)}"


def instrumented_passes(mod):
    """The passes an instrument sees run, under testing.immutable_module."""
    import tvm

    seen = []

    @tvm.instrument.pass_instrument
    class Record:
        def run_before_pass(self, _mod, info):
            seen.append(info.name)

    with tvm.transform.PassContext(
        config={"testing.immutable_module": True}, instruments=[Record()]
    ):
        _split(mod)
    return seen


def global_infos_out(mod):
    """The output's global infos."""
    out = _split(mod)
    return sorted(out.global_infos.keys()) if out.global_infos is not None else []


def loop_vars(mod):
    """Whether the output's two loops still bind one variable (not SSA)."""
    out = _split(mod)
    seq = out["main"].body
    while not hasattr(seq, "seq"):
        seq = seq.body
    first, second = seq.seq[0], seq.seq[1]
    return f"loops share their variable: {first.loop_var.same_as(second.loop_var)}"


DEMOS = {
    "blind6-shd-immutable-kept": Demo(lambda: kernels(2), immutable_output),
    "blind6-shd-inner-ctx-no-instruments": Demo(lambda: kernels(1), instrumented_passes),
    "blind6-shd-copy-drops-global-infos": Demo(lambda: kernels(1, True), global_infos_out),
    "blind6-shd-first-write-inplace": Demo(lambda: kernels(2), input_after),
    "blind6-shd-no-ssa-when-nothing-to-split": Demo(reused_loop_var, loop_vars),
    "blind6-shd-single-function-inplace": Demo(lambda: kernels(1), input_after),
}

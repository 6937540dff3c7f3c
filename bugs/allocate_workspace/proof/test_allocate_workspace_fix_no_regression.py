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
"""No regression from the AllocateWorkspace reference fix (this repository only).

Where the released C++ pass is right, the reference fix gives the very same module: Codegen
functions whose Composite functions are local (what partitioning produces, and what TVM's
own test_transform_allocate_workspace.py checks), a Composite function called straight
from the entry function, and modules without WorkspaceSize (the identity); the one
intended difference is where the entry allocates, at the start of its first dataflow block
(released) or in an ordinary block in front of it (the fix), which ``hoisted`` applies to
the released pass's output. The released
pass is always called through its FFI constructor, so these checks hold whatever the
session installed.
"""

import sys
from pathlib import Path

import pytest

import tvm
import tvm.relax.transform.transform as released_transform
import tvm.testing
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T

if str(Path(__file__).resolve().parents[3]) not in sys.path:  # `python FILE` from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bugs.allocate_workspace import reference_fix as fix

SHAPE = (2, 4, 2, 8)


@pytest.fixture
def installed():
    """The reference fix installed for one test, the previous pass restored after it."""
    uninstall = fix.install()
    try:
        yield fix.AllocateWorkspace
    finally:
        uninstall()


def released(mod):
    return released_transform._ffi_api.AllocateWorkspace()(mod)


@relax.expr_functor.mutator
class _Substitute(relax.PyExprMutator):
    def __init__(self, old, new):
        super().__init__()
        self.old, self.new = old, new

    def visit_dataflow_var_(self, op):
        return self.new if op.same_as(self.old) else op


def hoisted(mod):
    """``mod`` with each ``workspace_main`` binding that starts a dataflow block of a function
    body moved to an ordinary block in front of that dataflow block."""
    result = tvm.IRModule(dict(mod.functions_items()), attrs=mod.attrs)
    for gvar, func in mod.functions_items():
        if not isinstance(func, relax.Function):
            continue
        blocks = list(func.body.blocks)
        for i, block in enumerate(blocks):
            if not (isinstance(block, relax.DataflowBlock) and block.bindings):
                continue
            first = block.bindings[0]
            if not first.var.name.startswith("workspace_main"):
                continue
            var = relax.Var(first.var.name, first.var.ty)
            blocks[i : i + 1] = [
                relax.BindingBlock([relax.VarBinding(var, first.value)]),
                relax.DataflowBlock(list(block.bindings[1:])),
            ]
            body = relax.SeqExpr(blocks, func.body.body)
            func = relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs)
            result[gvar] = _Substitute(first.var, var).visit_expr(func)
            break
    return result


@I.ir_module
class AttentionLocalComposite:
    @R.function
    def fused_attention_ext(
        q: R.Tensor(SHAPE, "float16"), k: R.Tensor(SHAPE, "float16"), v: R.Tensor(SHAPE, "float16")
    ) -> R.Tensor(SHAPE, "float16"):
        R.func_attr({"Codegen": "ext", "WorkspaceSize": 8192})

        @R.function
        def attention(
            q1: R.Tensor(SHAPE, "float16"),
            k1: R.Tensor(SHAPE, "float16"),
            v1: R.Tensor(SHAPE, "float16"),
        ) -> R.Tensor(SHAPE, "float16"):
            R.func_attr({"Composite": "ext.attention", "Primitive": True, "WorkspaceSize": 8192})
            with R.dataflow():
                o = R.nn.attention(q1, k1, v1)
                R.output(o)
            return o

        out = attention(q, k, v)
        return out

    @R.function
    def first(
        q: R.Tensor(SHAPE, "float16"), k: R.Tensor(SHAPE, "float16"), v: R.Tensor(SHAPE, "float16")
    ) -> R.Tensor(SHAPE, "float16"):
        cls = AttentionLocalComposite
        with R.dataflow():
            o = cls.fused_attention_ext(q, k, v)
            R.output(o)
        return o

    @R.function
    def second(
        q: R.Tensor(SHAPE, "float16"), k: R.Tensor(SHAPE, "float16"), v: R.Tensor(SHAPE, "float16")
    ) -> R.Tensor(SHAPE, "float16"):
        cls = AttentionLocalComposite
        with R.dataflow():
            o = R.multiply(cls.fused_attention_ext(q, k, v), R.const(2, "float16"))
            R.output(o)
        return o


@I.ir_module
class TwoLocalComposites:
    @R.function
    def fused_pair_ext(a: R.Tensor((8, 8), "float32"), b: R.Tensor((8, 8), "float32")) -> R.Tensor(
        (8, 8), "float32"
    ):
        R.func_attr({"Codegen": "ext", "WorkspaceSize": 4096})

        @R.function
        def matmul(a1: R.Tensor((8, 8), "float32"), b1: R.Tensor((8, 8), "float32")) -> R.Tensor(
            (8, 8), "float32"
        ):
            R.func_attr({"Composite": "ext.matmul", "Primitive": True, "WorkspaceSize": 4096})
            with R.dataflow():
                c = R.matmul(a1, b1)
                R.output(c)
            return c

        @R.function
        def relu(a1: R.Tensor((8, 8), "float32")) -> R.Tensor((8, 8), "float32"):
            R.func_attr({"Composite": "ext.relu", "Primitive": True, "WorkspaceSize": 128})
            with R.dataflow():
                c = R.nn.relu(a1)
                R.output(c)
            return c

        c = matmul(a, b)
        d = relu(c)
        return d

    @R.function
    def main(a: R.Tensor((8, 8), "float32"), b: R.Tensor((8, 8), "float32")) -> R.Tensor(
        (8, 8), "float32"
    ):
        cls = TwoLocalComposites
        with R.dataflow():
            c = cls.fused_pair_ext(a, b)
            R.output(c)
        return c


@I.ir_module
class DirectCall:
    """A module-level Composite function called by the entry function itself."""

    @T.prim_func
    def add_one(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            y[i] = x[i] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = DirectCall
        with R.dataflow():
            y = cls.inner(x)
            z = cls.inner(y)
            R.output(z)
        return z

    @R.function
    def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"Composite": "ext.add_one", "Primitive": True, "WorkspaceSize": 64})
        cls = DirectCall
        with R.dataflow():
            y = R.call_tir(cls.add_one, (x,), out_ty=R.Tensor((4,), "float32"))
            R.output(y)
        return y


@I.ir_module
class NoWorkspaceCodegen:
    @R.function
    def fused_ext(a: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        R.func_attr({"Codegen": "ext"})

        @R.function
        def composite(a1: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
            R.func_attr({"Composite": "ext.exp", "Primitive": True})
            with R.dataflow():
                b = R.exp(a1)
                R.output(b)
            return b

        b = composite(a)
        return b

    @R.function
    def main(a: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        cls = NoWorkspaceCodegen
        with R.dataflow():
            b = cls.fused_ext(a)
            R.output(b)
        return b


@I.ir_module
class NoWorkspacePlain:
    @T.prim_func
    def scale(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            y[i] = x[i] * T.float32(3)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = NoWorkspacePlain
        with R.dataflow():
            y = R.call_tir(cls.scale, (x,), out_ty=R.Tensor((4,), "float32"))
            z = R.add(y, x)
            R.output(z)
        return z


def test_install_replaces_and_restores_the_pass():
    before = relax.transform.AllocateWorkspace
    uninstall = fix.install()
    try:
        assert relax.transform.AllocateWorkspace is fix.AllocateWorkspace
        assert released_transform.AllocateWorkspace is fix.AllocateWorkspace
        # the CUTLASS and cuDNN partitioners look the pass up here when they run
        from tvm.relax.backend.cuda import cudnn, cutlass

        assert cutlass.transform.AllocateWorkspace is fix.AllocateWorkspace
        assert cudnn.transform.AllocateWorkspace is fix.AllocateWorkspace
    finally:
        uninstall()
    assert relax.transform.AllocateWorkspace is before


def test_replacement_is_a_module_pass_of_the_same_name(installed):
    pass_ = relax.transform.AllocateWorkspace()
    assert isinstance(pass_, tvm.ir.transform.ModulePass)
    assert pass_.info.name == "AllocateWorkspace"


@pytest.mark.parametrize(
    "mod",
    [AttentionLocalComposite, TwoLocalComposites, DirectCall],
    ids=["attention_local_composite", "two_local_composites", "direct_call"],
)
def test_same_module_as_released_pass_but_allocation_at_entry(installed, mod):
    after = relax.transform.AllocateWorkspace()(mod)
    tvm.ir.assert_structural_equal(after, hoisted(released(mod)))
    relax.analysis.well_formed(after)


@pytest.mark.parametrize("mod", [NoWorkspaceCodegen, NoWorkspacePlain], ids=["codegen", "plain"])
def test_module_without_workspace_is_unchanged(installed, mod):
    after = relax.transform.AllocateWorkspace()(mod)
    tvm.ir.assert_structural_equal(after, mod)
    tvm.ir.assert_structural_equal(after, released(mod))


def test_input_module_is_not_modified(installed):
    # (tvm.ir.save_json of a Relax module segfaults in 0.27.0.post1: compare identities)
    funcs = dict(AttentionLocalComposite.functions_items())
    relax.transform.AllocateWorkspace()(AttentionLocalComposite)
    assert len(AttentionLocalComposite.functions_items()) == len(funcs)
    for gvar, func in AttentionLocalComposite.functions_items():
        assert any(gvar.same_as(g) and func.same_as(f) for g, f in funcs.items())


if __name__ == "__main__":
    tvm.testing.main()

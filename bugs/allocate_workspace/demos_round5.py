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
"""Blind round 5 demos of the AllocateWorkspace report (apache/tvm only: Relax): the pass's
output on small modules, as a summary (per function: parameters, calls, allocations) or its
error."""

from harness.blind_demo import Demo, message


def after_pass(mod):
    """Observer: relax.transform.AllocateWorkspace's output, per function its parameters' types,
    its calls and its bindings of a workspace allocation, in order; or its error, and whether
    the output is well formed."""
    import tvm
    from tvm import relax

    try:
        out = relax.transform.AllocateWorkspace()(mod)
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    rows = []
    for gvar, func in sorted(out.functions_items(), key=lambda x: x[0].name_hint):
        if not isinstance(func, relax.Function):
            continue
        params = ", ".join(f"{p.name}: {p.ty}" for p in func.params)
        symbol = func.attrs.get("global_symbol") if func.attrs is not None else None
        events = []

        def visit(node, events=events):
            if isinstance(node, relax.Call):
                op = node.op
                name = (
                    op.name_hint
                    if isinstance(op, tvm.ir.GlobalVar)
                    else getattr(op, "name", None) or getattr(op, "name_hint", "?")
                )
                events.append(f"{name}/{len(node.args)}")

        relax.analysis.post_order_visit(func.body, visit)
        blocks = (
            [
                ("df" if isinstance(b, relax.DataflowBlock) else "bb")
                + "["
                + ",".join(x.var.name for x in b.bindings)
                + "]"
                for b in func.body.blocks
            ]
            if isinstance(func.body, relax.SeqExpr)
            else []
        )
        rows.append(
            f"{gvar.name_hint}(sym={symbol})({params}) blocks {' '.join(blocks)} "
            f"calls {' '.join(events)}"
        )
    try:
        relax.analysis.well_formed(out)
        ok = "well formed"
    except Exception as err:  # a violation
        ok = f"ill formed: {message(err)}"
    return " | ".join(rows) + f" || {ok}"


def local_size_only():
    """A Codegen function ``outer`` whose only sized function is a local Composite one (size
    1024) it calls; ``main`` calls ``outer`` in a dataflow block."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            cls = Module
            with R.dataflow():
                y = cls.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def local(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 1024})
                return R.add(a, a)

            y = local(x)
            return y

    return Module


def chain(through_variables=False):
    """``main`` -> ``a`` (Codegen) -> ``b`` (Composite) -> ``c`` (Composite) -> ``d``
    (Composite, WorkspaceSize 64); ``main`` calls ``a`` directly or through a variable bound
    to a variable bound to ``cls.a``."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    if through_variables:

        @I.ir_module
        class Module:
            @R.function
            def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                cls = Module
                f = cls.a
                g = f
                y = g(x)
                return y

            @R.function
            def a(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Codegen": "my_backend"})
                return Module.d(x)

            @R.function
            def d(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 64})
                return R.add(x, x)

        return Module

    @I.ir_module
    class Chain:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Chain.a(x)

        @R.function
        def a(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Chain.b(x)

        @R.function
        def b(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.b"})
            return Chain.c(x)

        @R.function
        def c(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.c"})
            return Chain.d(x)

        @R.function
        def d(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.d", "WorkspaceSize": 64})
            return R.add(x, x)

    return Chain


def report(private_callees=False):
    """The report's module: ``main`` calls the Codegen ``outer`` in a dataflow block, which
    calls the public sized Composite ``inner``; or, with ``private_callees``, two structurally
    equal private sized Composite functions ``inner_a`` and ``inner_b``."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    if private_callees:

        @I.ir_module
        class Twins:
            @R.function
            def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                cls = Twins
                with R.dataflow():
                    y = cls.outer(x)
                    R.output(y)
                return y

            @R.function
            def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Codegen": "my_backend"})
                cls = Twins
                with R.dataflow():
                    y = cls.inner_a(x)
                    z = cls.inner_b(y)
                    R.output(z)
                return z

            @R.function(private=True)
            def inner_a(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 256})
                return R.add(x, x)

            @R.function(private=True)
            def inner_b(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 256})
                return R.add(x, x)

        return Twins

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            cls = Module
            with R.dataflow():
                y = cls.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            cls = Module
            with R.dataflow():
                y = cls.inner(x)
                R.output(y)
            return y

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def local_helper_in_codegen():
    """A Codegen function ``outer`` holding a local plain function ``helper`` (no Codegen, no
    Composite) that calls the sized Composite ``inner``: the workspace cannot be allocated
    there (the fix's ValueError)."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def helper(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                return Module.inner(a)

            y = helper(x)
            return y

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 32})
            return R.add(x, x)

    return Module


DEMOS = {
    "blind5-local-sizes-ignored": Demo(local_size_only, after_pass),
    "blind5-one-sweep": Demo(chain, after_pass),
    "blind5-alias-one-hop": Demo(lambda: chain(through_variables=True), after_pass),
    "blind5-alloc-in-dataflow": Demo(report, after_pass),
    "blind5-equal-callees-merged": Demo(lambda: report(private_callees=True), after_pass),
    "blind5-global-symbol-stale": Demo(report, after_pass),
    "blind5-external-scope-reset": Demo(local_helper_in_codegen, after_pass),
}

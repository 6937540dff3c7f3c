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
"""Blind round 4 demos of allocate_workspace (apache/tvm): variants of the #20479 module
(``main`` -> Codegen ``outer`` -> Composite functions asking for a workspace), and what
AllocateWorkspace makes of them."""

from harness.blind_demo import Demo
from tvm.script import ir as I
from tvm.script import relax as R


def with_local(local_size=4096):
    """``outer`` (Codegen) calls the module-level ``inner`` (1024 bytes) and a local Composite
    function asking for ``local_size`` bytes."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function(private=True)
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def local(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Composite": "my_backend.mul", "WorkspaceSize": local_size})
                return R.multiply(y, y)

            z = local(x)
            return Module.inner(z)

        @R.function(private=True)
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def local_only():
    """``outer`` (Codegen) whose only sized function is a local Composite one."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function(private=True)
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def local(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 1024})
                return R.add(y, y)

            return local(x)

    return Module


def chain():
    """``main`` -> ``a_outer`` (Codegen) -> ``b_mid`` (Composite) -> ``c_inner`` (Composite,
    1024 bytes): the caller comes before its callee in the module."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.a_outer(x)

        @R.function(private=True)
        def a_outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Module.b_mid(x)

        @R.function(private=True)
        def b_mid(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.mid", "Primitive": True})
            return Module.c_inner(x)

        @R.function(private=True)
        def c_inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def call_before_dataflow():
    """``main`` calls ``outer`` in an ordinary block, then uses the result in a dataflow
    block."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            y = Module.outer(x)
            with R.dataflow():
                z = R.add(y, y)
                R.output(z)
            return z

        @R.function(private=True)
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Module.inner(x)

        @R.function(private=True)
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def through_variable():
    """``main`` calls ``outer`` through a variable bound to it: ``f = Module.outer; f(x)``."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            f = Module.outer
            y = f(x)
            return y

        @R.function(private=True)
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Module.inner(x)

        @R.function(private=True)
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def equal_callees():
    """``outer`` (Codegen) calls two structurally equal private Composite functions."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function(private=True)
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            y = Module.inner_a(x)
            return Module.inner_b(y)

        @R.function(private=True)
        def inner_a(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

        @R.function(private=True)
        def inner_b(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def public_outer():
    """The report's module with ``main`` and a public ``outer`` (it has a global_symbol)."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Module.inner(x)

        @R.function(private=True)
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def well_formed(mod):
    """True, or the first line of what relax.analysis.well_formed says is wrong."""
    from tvm import relax

    try:
        relax.analysis.well_formed(mod)
    except ValueError as err:
        return str(err).strip().splitlines()[0][:200]
    return True


def after(mod):
    """AllocateWorkspace's output: per function its parameters' types (the workspace's size)
    and global_symbol, and whether the module is well formed."""
    from tvm import relax

    out = relax.transform.AllocateWorkspace()(mod)
    funcs = {}
    for gvar, func in sorted(out.functions_items(), key=lambda kv: kv[0].name_hint):
        symbol = func.attrs.get("global_symbol") if func.attrs is not None else None
        params = [str(p.ty) for p in func.params]
        funcs[gvar.name_hint] = (params, None if symbol is None else str(symbol))
    return {"functions": funcs, "well_formed": well_formed(out)}


def main_bindings(mod):
    """The bindings of AllocateWorkspace's output ``main``, block by block, and whether the
    module is well formed."""
    from tvm import relax

    out = relax.transform.AllocateWorkspace()(mod)
    blocks = [
        (type(block).__name__, [b.var.name for b in block.bindings])
        for block in out["main"].body.blocks
    ]
    return {"main": blocks, "well_formed": well_formed(out)}


def local_sizes(mod):
    """The workspace parameters' types of the output's functions, local ones included."""
    from tvm import relax

    out = relax.transform.AllocateWorkspace()(mod)
    found = []

    def visit(expr):
        if isinstance(expr, relax.Function) and expr.params:
            found.append(f"{expr.params[-1].name}: {expr.params[-1].ty}")

    for _, func in sorted(out.functions_items(), key=lambda kv: kv[0].name_hint):
        relax.analysis.post_order_visit(func, visit)
    return sorted(x for x in found if x.startswith("workspace"))


DEMOS = {
    "blind4-size-module-level-only": Demo(with_local, local_sizes),
    "blind4-takers-one-sweep": Demo(chain, after),
    "blind4-nested-sized-ignored": Demo(local_only, after),
    "blind4-alloc-in-first-dataflow-block": Demo(call_before_dataflow, main_bindings),
    "blind4-callee-through-var-missed": Demo(through_variable, after),
    "blind4-equal-takers-merged": Demo(equal_callees, after),
    "blind4-global-symbol-kept": Demo(public_outer, after),
}

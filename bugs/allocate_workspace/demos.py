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
"""Programs on which AllocateWorkspace's reference fix and each blind wrong fix differ
(harness/blind_demo.py; run with scripts/blind_demos.py --bug allocate_workspace).

Relax modules (apache/tvm only) in which a Codegen function reaches a Composite function with a
WorkspaceSize; a demo looks at the pass's output and whether it is well formed, or at main's
blocks."""

import tvm
from harness.blind_demo import Demo
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R


def sized_callee(size=1024):
    """main (in a dataflow block) -> outer (Codegen) -> inner (Composite, WorkspaceSize
    ``size``)."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                y = Module.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Module.inner(x)

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": size})
            return R.add(x, x)

    return Module


def chain():
    """main (in a dataflow block) -> a_outer (Codegen) -> b_mid (Composite) -> c_inner
    (Composite, WorkspaceSize 1024): the external caller named before its external callee."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                y = Module.a_outer(x)
                R.output(y)
            return y

        @R.function
        def a_outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Module.b_mid(x)

        @R.function
        def b_mid(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.mid", "Primitive": True})
            return Module.c_inner(x)

        @R.function
        def c_inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def called_through_two_variables():
    """main binds f = Module.outer, g = f in a dataflow block and calls g; outer (Codegen) calls
    inner (Composite, WorkspaceSize 1024)."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                f = Module.outer
                g = f
                y = g(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Module.inner(x)

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def local_calls_inner(attrs):
    """main (in a dataflow block) -> outer (Codegen), whose local function helper (attributes
    ``attrs``) calls inner (Composite, WorkspaceSize 1024)."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                y = Module.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def helper(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr(attrs)
                return Module.inner(y)

            z = helper(x)
            return z

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def local_sized_only():
    """main -> outer (Codegen, no WorkspaceSize) whose local Composite function asks for 4096
    bytes; no module-level function is sized."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def local(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr(
                    {"Composite": "my_backend.local", "Primitive": True, "WorkspaceSize": 4096}
                )
                return R.add(y, y)

            z = local(x)
            return z

    return Module


def local_larger_than_module_level():
    """main -> outer (Codegen): a local Composite function asks for 4096 bytes, the module-level
    Composite function inner, which outer calls too, for 1024."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def local(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr(
                    {"Composite": "my_backend.local", "Primitive": True, "WorkspaceSize": 4096}
                )
                return R.add(y, y)

            z = local(x)
            w = Module.inner(z)
            return w

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def sized_codegen_with_larger_local():
    """main (in a dataflow block) -> outer (Codegen, WorkspaceSize 1024, as copied from its first
    local Composite function f1), whose second local Composite function f2 asks for 4096."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                y = Module.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend", "WorkspaceSize": 1024})

            @R.function
            def f1(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr(
                    {"Composite": "my_backend.op1", "Primitive": True, "WorkspaceSize": 1024}
                )
                return R.add(a, a)

            @R.function
            def f2(b: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr(
                    {"Composite": "my_backend.op2", "Primitive": True, "WorkspaceSize": 4096}
                )
                return R.multiply(b, b)

            y = f1(x)
            z = f2(y)
            return z

    return Module


def plain(mod):
    """``mod`` with main's dataflow block made an ordinary one."""
    return relax.transform.ToNonDataflow()(mod)


def private(mod):
    """``mod`` with inner private (no global_symbol)."""
    mod = tvm.IRModule(mod.functions)
    gv = mod.get_global_var("inner")
    mod[gv] = mod[gv].without_attr("global_symbol")
    return mod


def without_main(mod):
    return tvm.IRModule({gv: f for gv, f in mod.functions.items() if gv.name_hint != "main"})


def after_pass(mod):
    """AllocateWorkspace's output (its script) and whether it is well formed."""
    out = relax.transform.AllocateWorkspace()(mod)
    try:
        relax.analysis.well_formed(out)
        formed = "well formed"
    except Exception as err:
        formed = f"ill formed: {str(err).splitlines()[0]}"
    text = "\n".join(x for x in out.script().splitlines() if not x.startswith("#"))
    return f"{formed}\n{text}"


def main_blocks(mod):
    """The kind and the bound names of each block of main after AllocateWorkspace."""
    after = relax.transform.AllocateWorkspace()(mod)
    return [
        (type(block).__name__, [b.var.name for b in block.bindings])
        for block in after["main"].body.blocks
    ]


COMPOSITE = {"Composite": "my_backend.wrap", "Primitive": True}

DEMOS = {
    # main calls outer in a dataflow block: the wrong fix binds the workspace inside that block
    "blind2-alloc-in-dataflow": Demo(sized_callee, main_blocks),
    # a plain local function inside a Codegen function calls the sized inner (no main): the wrong
    # fix allocates there instead of refusing
    "blind2-external-not-inherited": Demo(lambda: without_main(local_calls_inner({})), after_pass),
    # a_outer -> b_mid -> c_inner: the wrong fix's one sweep misses a_outer, main passes nothing
    "blind2-one-sweep": Demo(chain, after_pass),
    # a private sized callee (no main): the wrong fix makes the renamed inner1 public
    "blind2-private-gets-symbol": Demo(lambda: without_main(private(sized_callee())), after_pass),
    # a Codegen function sized 1024 with a local Composite function of 4096: the wrong fix sizes
    # the workspace from module-level functions only
    "blind2-toplevel-sizes": Demo(sized_codegen_with_larger_local, after_pass),
    # a local Composite function calls the sized inner: the wrong fix collects outer's references
    # from its own body only, and refuses
    "blind2-usage-skips-nested": Demo(lambda: local_calls_inner(COMPOSITE), after_pass),
    # main calls outer through g = f = outer (no dataflow block): the wrong fix follows one binding
    "blind2-var-chase-once": Demo(lambda: plain(called_through_two_variables()), after_pass),
    # main calls the chain in a dataflow block: the wrong fix allocates inside that block
    "blind3-alloc-in-dataflow-block": Demo(chain, after_pass),
    # main calls outer through g = f = outer: the wrong fix follows one binding
    "blind3-callee-one-alias-level": Demo(called_through_two_variables, after_pass),
    # a plain local function inside a Codegen function calls the sized inner: the wrong fix
    # allocates there instead of refusing
    "blind3-external-caller-allocates": Demo(lambda: plain(local_calls_inner({})), after_pass),
    # the only sized function is local to outer: the wrong fix ignores it, and refuses
    "blind3-nested-sized-ignored": Demo(local_sized_only, after_pass),
    # a private sized callee: the wrong fix makes the renamed inner1 public
    "blind3-private-renamed-public": Demo(lambda: plain(private(sized_callee())), after_pass),
    # a local function asks for 4096, the module-level inner for 1024: the wrong fix allocates 1024
    "blind3-sizes-module-level-only": Demo(local_larger_than_module_level, after_pass),
    # a_outer -> b_mid -> c_inner: the wrong fix's one sweep misses a_outer, main passes nothing
    "blind3-takers-one-sweep": Demo(chain, after_pass),
    # every WorkspaceSize is 0: the wrong fix rewrites the module (a 0-byte workspace)
    "blind3-zero-size-workspace": Demo(lambda: plain(sized_callee(0)), after_pass),
}

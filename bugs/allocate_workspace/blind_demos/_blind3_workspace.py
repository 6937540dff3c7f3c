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
"""Modules and observations the third round's AllocateWorkspace demos share.

The Relax modules the demos run AllocateWorkspace on (apache/tvm only), and what a demo observes:
the pass's output and whether it is well formed."""

from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R


def chain():
    """main -> a_outer (Codegen) -> b_mid (Composite) -> c_inner (Composite, WorkspaceSize
    1024); main calls a_outer in a dataflow block."""

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
    """main binds f = cls.outer, g = f in a dataflow block and calls g; outer (Codegen) calls
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


def private_callee():
    """main -> outer (Codegen) -> inner (private Composite, WorkspaceSize 1024)."""

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


def plain_local_in_codegen():
    """main -> outer (Codegen) whose local function helper (no Composite) calls inner
    (Composite, WorkspaceSize 1024): the workspace cannot reach inner (an error)."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def helper(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                return Module.inner(y)

            z = helper(x)
            return z

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def sized_zero():
    """main -> outer (Codegen) -> inner (Composite, WorkspaceSize 0)."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(x)

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Module.inner(x)

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 0})
            return R.add(x, x)

    return Module


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

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
"""Blind round 6 demos of the AllocateWorkspace wrong fixes (apache/tvm only: Relax)."""

from harness.blind_demo import Demo


def after_pass(mod):
    """Observer: the module after AllocateWorkspace, or the error."""
    from tvm import relax

    try:
        out = relax.transform.AllocateWorkspace()(mod)
        return out.script()
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {str(err).strip().splitlines()[0][:200]}"


def sized(name, *sizes):
    """A program builder: module ``name`` below with its sized functions' WorkspaceSize set,
    in the order they are listed, to ``sizes``."""

    def program():
        mod = _modules()[name]
        sized_fns = [gv for gv, f in mod.functions_items() if "WorkspaceSize" in f.attrs]
        for gv, size in zip(sized_fns, sizes):
            mod[gv] = mod[gv].with_attr("WorkspaceSize", size)
        return mod

    return program


def _modules():
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Chain:  # main -> a_outer (Codegen) -> b_mid (Composite) -> c_inner (sized)
        @R.function
        def a_outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            return Chain.b_mid(x)

        @R.function
        def b_mid(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.mid"})
            return Chain.c_inner(x)

        @R.function
        def c_inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1})
            return R.add(x, x)

        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                y = Chain.a_outer(x)
                R.output(y)
            return y

    @I.ir_module
    class TwoCallees:  # main calls two sized Composite functions, a private pair of equals
        @R.function(private=True)
        def a_first(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1})
            return R.add(x, x)

        @R.function(private=True)
        def b_second(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1})
            return R.add(x, x)

        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            y = TwoCallees.a_first(x)
            z = TwoCallees.b_second(y)
            return z

    @I.ir_module
    class ThroughVar:  # main calls the sized function through a variable bound to it
        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1})
            return R.add(x, x)

        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            f = ThroughVar.inner
            y = f(x)
            return y

    return {"chain": Chain, "two": TwoCallees, "var": ThroughVar}


DEMOS = {
    "blind6-first-size": Demo(sized("two", 64, 1024), after_pass),
    "blind6-one-sweep": Demo(sized("chain", 256), after_pass),
    "blind6-alloc-in-dataflow": Demo(sized("chain", 256), after_pass),
    "blind6-symbol-kept": Demo(sized("var", 128), after_pass),
    "blind6-var-callee": Demo(sized("var", 128), after_pass),
    "blind6-zero-size-runs": Demo(sized("chain", 0), after_pass),
    "blind6-equal-merged": Demo(sized("two", 32, 32), after_pass),
}

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
"""Blind round 8: programs on which AllocateWorkspace's reference fix (patches/0001)
and each wrong fix of round 8 (wrong_fixes.toml) differ. Each is a small Relax module; the observed
result is the module after relax.transform.AllocateWorkspace (its script), or the error."""

from harness.blind_demo import Demo, message


def after_pass(mod):
    """The module after AllocateWorkspace (the one installed), as script, or its error."""
    from tvm import relax

    try:
        after = relax.transform.AllocateWorkspace()(mod)
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    symbols = {
        gv.name_hint: None if f.attrs is None else f.attrs.get("global_symbol")
        for gv, f in after.functions_items()
    }
    symbols = {name: None if s is None else str(s) for name, s in symbols.items()}
    return after.script() + f"\nglobal symbols: {sorted(symbols.items())}"


def report(size=1024, private=False):
    """The report's module: main -> outer (Codegen) -> inner (Composite, WorkspaceSize)."""
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
            cls = Module
            with R.dataflow():
                y = cls.inner(x)
                R.output(y)
            return y

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    inner = Module["inner"].with_attr("WorkspaceSize", size)
    if private:
        inner = inner.without_attr("global_symbol")
    Module["inner"] = inner
    return Module


def local_sized(outer_size):
    """main -> outer (Codegen, WorkspaceSize outer_size or none) whose local Composite function
    asks for 4096 bytes."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    attrs = {"Codegen": "my_backend"}
    if outer_size is not None:
        attrs["WorkspaceSize"] = outer_size

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
            R.func_attr(attrs)

            @R.function
            def local(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 4096})
                return R.add(a, a)

            with R.dataflow():
                y = local(x)
                R.output(y)
            return y

    return Module


def chain():
    """main -> a_outer (Codegen) -> b_mid (Composite) -> c_inner (Composite, sized): the caller
    of each link sorts, and is seen, before its callee."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            cls = Module
            with R.dataflow():
                y = cls.a_outer(x)
                R.output(y)
            return y

        @R.function
        def a_outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            cls = Module
            with R.dataflow():
                y = cls.b_mid(x)
                R.output(y)
            return y

        @R.function
        def b_mid(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.mid"})
            cls = Module
            y = cls.c_inner(x)
            return y

        @R.function
        def c_inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 256})
            return R.add(x, x)

    return Module


def through_variables():
    """main calls outer through two variables: f = cls.outer; g = f; g(x)."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            cls = Module
            f = cls.outer
            g = f
            y = g(x)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            cls = Module
            y = cls.inner(x)
            return y

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 64})
            return R.add(x, x)

    return Module


def equal_callees():
    """main calls two structurally equal private sized functions."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            cls = Module
            with R.dataflow():
                y = cls.inner_a(x)
                z = cls.inner_b(y)
                R.output(z)
            return z

        @R.function(private=True)
        def inner_a(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 32})
            return R.add(x, x)

        @R.function(private=True)
        def inner_b(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 32})
            return R.add(x, x)

    return Module


def two_calls():
    """main calls outer twice, in two dataflow blocks."""
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
            with R.dataflow():
                z = cls.outer(y)
                R.output(z)
            return z

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend", "WorkspaceSize": 128})
            return R.add(x, x)

    return Module


def plain_local_in_external():
    """outer (Codegen) holds a local function with no Codegen/Composite that calls the sized
    inner: the call needs the workspace inside external code."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            cls = Module
            y = cls.outer(x)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})
            cls = Module

            @R.function
            def helper(a: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                b = cls.inner(a)
                return b

            y = helper(x)
            return y

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "WorkspaceSize": 512})
            return R.add(x, x)

    return Module


DEMOS = {
    "blind8-local-sizes-ignored": Demo(lambda: local_sized(16), after_pass),
    "blind8-zero-size-runs": Demo(lambda: report(size=0), after_pass),
    "blind8-one-sweep": Demo(chain, after_pass),
    "blind8-nested-sized-ignored": Demo(lambda: local_sized(None), after_pass),
    "blind8-codegen-only-external": Demo(chain, after_pass),
    "blind8-callee-one-binding": Demo(through_variables, after_pass),
    "blind8-workspace-first-arg": Demo(report, after_pass),
    "blind8-private-made-public": Demo(lambda: report(private=True), after_pass),
    "blind8-symbol-keeps-old-name": Demo(report, after_pass),
    "blind8-equal-merged": Demo(equal_callees, after_pass),
    "blind8-alloc-per-call": Demo(two_calls, after_pass),
    "blind8-nested-not-external": Demo(plain_local_in_external, after_pass),
}

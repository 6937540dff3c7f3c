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
"""Blind round 9: programs on which allocate_workspace's round-9 wrong fixes differ
from the reference fix (apache/tvm only: Relax is not part of apache/tvm-tirx)."""

from harness.blind_demo import Demo, message


def _chain():
    """main -> a_outer (Codegen) -> b_mid (Composite) -> c_inner (private, sized 16), main's
    calls in a dataflow block; each caller is met before its callee."""
    from tvm.script import ir as I
    from tvm.script import relax as R

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
            R.func_attr({"Composite": "my_backend.op2"})
            return Module.c_inner(x)

        @R.function(private=True)
        def c_inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 16})
            return R.add(x, x)

    return Module


def _two_sizes():
    """main calls a public sized function (16) and a Codegen function whose local Composite
    function is sized 64; two equal private sized functions (8) are called too."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            a = Module.small(x)
            b = Module.outer(a)
            c = Module.p1(b)
            d = Module.p2(c)
            return d

        @R.function
        def small(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.small", "WorkspaceSize": 16})
            return R.add(x, x)

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "my_backend"})

            @R.function
            def local(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                R.func_attr({"Composite": "my_backend.big", "WorkspaceSize": 64})
                return R.multiply(y, y)

            z = local(x)
            return z

        @R.function(private=True)
        def p1(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.eq", "WorkspaceSize": 8})
            return R.subtract(x, x)

        @R.function(private=True)
        def p2(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.eq", "WorkspaceSize": 8})
            return R.subtract(x, x)

    return Module


def _first_small():
    """Two module-level sized functions, the smaller (16) first, the larger (64) second."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            a = Module.a_small(x)
            b = Module.b_big(a)
            return b

        @R.function(private=True)
        def a_small(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.small", "WorkspaceSize": 16})
            return R.add(x, x)

        @R.function(private=True)
        def b_big(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.big", "WorkspaceSize": 64})
            return R.multiply(x, x)

    return Module


def allocated(mod):
    """The module after AllocateWorkspace (as its script), or the error the pass raises."""
    from tvm import relax

    try:
        return relax.transform.AllocateWorkspace()(mod).script()
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


DEMOS = {
    "blind9-single-sweep": Demo(_chain, allocated),
    "blind9-first-size": Demo(_first_small, allocated),
    "blind9-module-level-sizes": Demo(_two_sizes, allocated),
    "blind9-nested-sized-ignored": Demo(_two_sizes, allocated),
    "blind9-symbol-kept": Demo(_two_sizes, allocated),
    "blind9-private-made-public": Demo(_chain, allocated),
    "blind9-equal-merged": Demo(_two_sizes, allocated),
    "blind9-alloc-in-dataflow": Demo(_chain, allocated),
}

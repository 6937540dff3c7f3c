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
"""main calls outer (Codegen -> sized inner) through two variables, f = cls.outer; g = f;
g(x): the module after AllocateWorkspace."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
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
            return cls.inner(x)

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            return R.add(x, x)

    return Module


def observe(mod):
    from tvm import relax

    after = relax.transform.AllocateWorkspace()(mod)
    try:
        relax.analysis.well_formed(after)
        formed = "well formed"
    except ValueError as err:
        formed = f"ill-formed: {str(err).splitlines()[0]}"
    return f"{formed}\n{after.script()}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "allocate_workspace", "blind2-var-chase-once"))

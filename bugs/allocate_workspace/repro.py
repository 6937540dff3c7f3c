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
"""AllocateWorkspace leaves a call to a renamed Composite function dangling (apache/tvm#20479)."""

import sys

from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"Codegen": "my_backend"})
        return Module.inner(x)

    @R.function
    def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
        return R.add(x, x)


after = relax.transform.AllocateWorkspace()(Module)
print("after the pass:", sorted(gv.name_hint for gv in after.get_global_vars()))
try:
    relax.analysis.well_formed(after)
except ValueError as err:  # GlobalVar I.GlobalVar("inner") is not defined.
    sys.exit(f"outer still calls the removed inner: {err}")
print("OK: AllocateWorkspace's output is well formed")

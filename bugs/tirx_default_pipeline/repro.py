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
"""tvm.tirx's "default" pipeline calls tirx.transform.LowerInitBlock, which is in s_tir."""

import sys

import tvm
from tvm.script import tirx as T
from tvm.tirx import compilation_pipeline


@T.prim_func
def main(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.float32(0)


print("tirx.transform.LowerInitBlock:", hasattr(tvm.tirx.transform, "LowerInitBlock"))
print("s_tir.transform.LowerInitBlock:", hasattr(tvm.s_tir.transform, "LowerInitBlock"))
factory = compilation_pipeline.PIPELINE_MAP.get("default")
if factory is None:
    print("OK: PIPELINE_MAP has no 'default' entry any more")
    sys.exit(0)
pipeline, _, _ = factory()
bind = tvm.tirx.transform.BindTarget(tvm.target.Target("llvm", host="llvm"))
mod = bind(tvm.IRModule({"main": main}))
try:
    pipeline(mod)
except AttributeError as err:
    sys.exit(f'PIPELINE_MAP["default"] fails: AttributeError: {err}')
print('OK: PIPELINE_MAP["default"] lowers the module')

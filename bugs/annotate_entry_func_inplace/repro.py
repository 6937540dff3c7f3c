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
"""AnnotateEntryFunc marks the entry function in the module it was given."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = A[i] + T.float32(1)


mod = tvm.IRModule({"main": main})
tvm.tirx.transform.AnnotateEntryFunc()(mod)
print("the input's main after the pass:", dict(mod["main"].attrs))
if "tirx.is_entry_func" in mod["main"].attrs:
    sys.exit("AnnotateEntryFunc changed its input module")
print("OK: the input module is unchanged")

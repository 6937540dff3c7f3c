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
"""TVMScript prints an annotated or non-local one-element cell as a plain local scalar."""

import sys

import tvm
import tvm.script
from tvm.script import tirx as T


@T.prim_func
def annotated(x: T.float32):
    c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
    c[0] = x
    T.evaluate(c[0])


@T.prim_func
def shared(x: T.float32):
    c = T.alloc_buffer((1,), "float32", scope="shared")
    c[0] = x
    T.evaluate(c[0])


failed = False
for func in (annotated, shared):
    text = func.script()
    print(func.__name__, "prints", [ln.strip() for ln in text.splitlines() if "c" in ln[:6]])
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(func.script()))
    except ValueError as err:  # the parsed cell is local, without the annotation
        failed = True
        print("print -> parse is not the identity:", str(err).splitlines()[0])
if failed:
    sys.exit(1)
print("OK: both cells round-trip")

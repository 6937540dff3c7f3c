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
"""Blind round 8, apache/tvm-tirx: the demos of demos_round8.py on this line's
programs; the float64 constant's extern call is spelled with this line's ``ty=``."""

from bugs.codegen_missing_dtype.demos_round8 import demos

F64_CONSTANT = """
@T.prim_func
def main(A: T.Buffer((1,), "float32"), x: T.float32):
    with T.launch_thread("threadIdx.x", 1) as t:
        A[0] = T.call_pure_extern("g", T.float64(1.5), ty="float32")
"""

DEMOS = demos(F64_CONSTANT)

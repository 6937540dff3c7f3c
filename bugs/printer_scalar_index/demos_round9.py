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
"""Blind round 9: programs on which patch 0011's wrong fixes differ from its
reference fix (apache/tvm): a scalar name's accesses, printed."""

from harness.blind_demo import Demo, from_script, script_of

LOOP_INDEX = """
@T.prim_func
def main(a: T.handle("float32", "global"), n: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    for i in range(n):
        B[i] = B[i] + T.float32(1)
"""

INT64_ZERO_LOAD = """
@T.prim_func
def main(a: T.handle("float32", "global"), C: T.Buffer((2,), "float32")):
    B = T.decl_buffer((1,), "float32", data=a)
    C[1] = B[T.int64(0)]
"""

INT64_ZERO_MERGE = """
@T.prim_func
def main(A: T.Buffer((2,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    c[T.int64(0)] = A[1]
    A[0] = c[0] + T.float32(1)
"""

ZERO_DIFFERENCE = """
@T.prim_func
def main(a: T.handle("float32", "global"), n: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    for i in range(n):
        B[i - i] = T.float32(1)
"""

UINT32_ZERO = """
@T.prim_func
def main(a: T.handle("float32", "global"), C: T.Buffer((2,), "float32")):
    B = T.decl_buffer((1,), "float32", data=a)
    C[1] = B[T.uint32(0)]
"""


def program(text):
    return lambda: from_script(text)


DEMOS = {
    "blind9-load-site-missed": Demo(program(LOOP_INDEX), script_of),
    "blind9-store-site-missed": Demo(program(LOOP_INDEX), script_of),
    "blind9-any-int-zero": Demo(program(INT64_ZERO_LOAD), script_of),
    "blind9-merge-old-test": Demo(program(INT64_ZERO_MERGE), script_of),
    "blind9-proved-zero": Demo(program(ZERO_DIFFERENCE), script_of),
    "blind9-32-bit-zero": Demo(program(UINT32_ZERO), script_of),
}

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
"""Blind round 9: programs on which patch 0008's wrong fixes differ from its
reference fix (apache/tvm): one-element buffers and cells, printed."""

from harness.blind_demo import Demo, from_script, script_of

PARAM_DATA = """
@T.prim_func
def main(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
    A_1 = T.decl_buffer((1,), "float32", data=A.data)
    C[0] = A_1[0] + T.float32(1)
"""

PARAM_ACCESS = """
@T.prim_func
def main(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
    C[0] = A[0] + T.float32(1)
"""

CELLS = """
@T.prim_func
def main(A: T.Buffer((4,), "float32"), a: T.handle("float32", "global"), n: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = A[0]
    for i in range(n):
        B[0] = B[0] + c[0]
        c[0] = c[0] + T.float32(1)
"""


def program(text):
    return lambda: from_script(text)


DEMOS = {
    "blind9-data-site-missed": Demo(program(PARAM_DATA), script_of),
    "blind9-store-site-missed": Demo(program(PARAM_ACCESS), script_of),
    "blind9-load-site-missed": Demo(program(PARAM_ACCESS), script_of),
    "blind9-decl-scalar-not-recorded": Demo(program(CELLS), script_of),
    "blind9-sugar-not-recorded": Demo(program(CELLS), script_of),
    "blind9-innermost-frame-only": Demo(program(CELLS), script_of),
}

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
"""Round 8 blind demos of the VerifyMemory fix on apache/tvm-tirx: the functions of
demos_round8.py in that line's form (a kernel is a ``launch_thread`` region, a view a
``decl_tensor``, an allocation an ``alloc_tensor``), with the same observer."""

from bugs.verify_memory.demos_round8 import program, verify
from harness.blind_demo import Demo

KERNEL = """    with T.launch_thread("threadIdx.x", 8) as tx:
"""


def view(data, shape="(4,)", scope=""):
    """A view at ``data`` of a float32 tensor of ``shape``."""
    return f"T.decl_tensor({data}, ty_args=[T.Tensor({shape}, T.float32{scope})])"


def alloc(shape, scope="", attrs=""):
    """An allocation of a float32 tensor of ``shape``."""
    return f"T.alloc_tensor(ty_args=[T.Tensor({shape}, T.float32{scope})]{attrs})"


DEMOS = {
    "blind8-buffer-params-only": Demo(
        program(
            f"""    A = {view("a", "(8,)")}
    A[0] = T.float32(1.0)
"""
            + KERNEL
            + """        B[tx] = A[tx]
""",
            head="""
@T.prim_func
def main(a: T.Ptr(T.float32), B: T.Buffer((8,), "float32")):
""",
        ),
        verify(),
    ),
    "blind8-first-param-only": Demo(
        program(
            """    B[0] = T.float32(1.0)
"""
            + KERNEL
            + """        A[tx] = B[tx]
"""
        ),
        verify(),
    ),
    # on this line a view's data is its decl_tensor call: the address is bound first
    "blind8-address-of-not-followed": Demo(
        program(
            f"""    p = T.address_of(A[4])
    V = {view("p")}
    V[0] = T.float32(1.0)
"""
            + KERNEL
            + """        B[tx] = A[tx]
"""
        ),
        verify(),
    ),
    "blind8-address-of-is-access": Demo(
        program(
            f"""    V = {view("T.address_of(A[4])")}
"""
            + KERNEL
            + """        B[tx] = V[tx % 4]
"""
        ),
        verify(),
    ),
    "blind8-nested-extent-in-kernel": Demo(
        program("""    with T.launch_thread("blockIdx.x", 1) as bx:
        with T.launch_thread("threadIdx.x", L[0]) as tx:
            B[tx % 8] = A[tx % 8]
"""),
        verify(),
    ),
    "blind8-no-shared-dyn-size": Demo(
        program(
            KERNEL
            + f"""        S = {alloc("(L[0],)", ', scope="shared.dyn"')}
        S[tx] = A[tx]
        B[tx] = S[tx]
"""
        ),
        verify(),
    ),
    "blind8-local-alloc-is-device": Demo(
        program(
            f"""    c = {alloc("(1,)", ', scope="local"')}
    c[0] = T.float32(1.5)
"""
            + KERNEL
            + """        B[tx] = A[tx] + c[0]
"""
        ),
        verify(),
    ),
    "blind8-device-type-annotation-ignored": Demo(
        program(
            f"""    g = {alloc("(4,)", attrs=', attrs={"device_type": 1}')}
    g[0] = T.float32(1.5)
"""
            + KERNEL
            + """        B[tx] = A[tx]
"""
        ),
        verify(),
    ),
    "blind8-disable-lower-builtin-zero": Demo(
        program(
            f"""    g = {alloc("(4,)", attrs=', attrs={"disable_lower_builtin": 0}')}
    g[0] = T.float32(1.5)
"""
            + KERNEL
            + """        B[tx] = A[tx]
"""
        ),
        verify(),
    ),
    "blind8-no-webgpu": Demo(
        program(
            """    B[0] = T.float32(1.0)
"""
            + KERNEL
            + """        A[tx] = B[tx]
"""
        ),
        verify("webgpu"),
    ),
    "blind8-hostless-entry-skipped": Demo(
        program(
            """    B[0] = T.float32(1.0)
"""
            + KERNEL
            + """        A[tx] = B[tx]
"""
        ),
        verify(host=None),
    ),
}

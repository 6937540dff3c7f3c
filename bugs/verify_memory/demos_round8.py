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
"""Round 8 blind demos of the VerifyMemory fix: per wrong fix, a small valid
function whose verdict under tirx.VerifyMemory (verified, or the first line of the error and
the variable it names) differs from the reference fix's."""

import re

from harness.blind_demo import Demo, from_script, line_package, message

HEAD = """
@T.prim_func
def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32"), L: T.Buffer((1,), "int32")):
"""
KERNEL = """    with T.attr(T.target("cuda"), "target", 0):
        tx = T.launch_thread("threadIdx.x", 8)
"""


def program(body, head=HEAD):
    """A builder of ``main`` whose body is ``body`` (apache/tvm's lowered form)."""
    return lambda: from_script(head + body)


def verify(target="cuda", host="llvm"):
    """Observer: tirx.VerifyMemory on ``main`` for ``target`` (with ``host``, none when
    None), an entry point: "verified", or the error's first line and the variables it names."""

    def observe(func):
        tvm = line_package()
        tgt = tvm.target.Target(target, host=host) if host else tvm.target.Target(target)
        func = func.with_attr("target", tgt).with_attr("global_symbol", "main")
        try:
            tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))
        except Exception as err:  # the result: an error
            names = re.findall(r"Variable `(\w+)`", str(err))
            return f"{type(err).__name__}: {message(err)} {names}"
        return "verified"

    return observe


DEMOS = {
    # the host stores through a view of a T.handle pointer parameter
    "blind8-buffer-params-only": Demo(
        program(
            """    A = T.decl_buffer((8,), "float32", data=a)
    A[0] = T.float32(1.0)
"""
            + KERNEL
            + """        B[tx] = A[tx]
""",
            head="""
@T.prim_func
def main(a: T.handle("float32"), B: T.Buffer((8,), "float32")):
""",
        ),
        verify(),
    ),
    # the host stores into the second buffer parameter
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
    # the host stores through a view at the address of A[4]
    "blind8-address-of-not-followed": Demo(
        program(
            """    V = T.decl_buffer((4,), "float32", data=T.address_of(A[4]))
    V[0] = T.float32(1.0)
"""
            + KERNEL
            + """        B[tx] = A[tx]
"""
        ),
        verify(),
    ),
    # the host declares a view at the address of A[4] that only the kernel reads
    "blind8-address-of-is-access": Demo(
        program(
            """    V = T.decl_buffer((4,), "float32", data=T.address_of(A[4]))
"""
            + KERNEL
            + """        B[tx] = V[tx % 4]
"""
        ),
        verify(),
    ),
    # a thread extent nested in the kernel read from the parameter L
    "blind8-nested-extent-in-kernel": Demo(
        program("""    with T.attr(T.target("cuda"), "target", 0):
        bx = T.launch_thread("blockIdx.x", 1)
        tx = T.launch_thread("threadIdx.x", L[0])
        B[tx % 8] = A[tx % 8]
"""),
        verify(),
    ),
    # the dynamic shared memory of the kernel sized from the parameter L
    "blind8-no-shared-dyn-size": Demo(
        program(
            KERNEL
            + """        S = T.alloc_buffer((L[0],), "float32", scope="shared.dyn")
        S[tx] = A[tx]
        B[tx] = S[tx]
"""
        ),
        verify(),
    ),
    # a host cell that the host stores and the kernel reads (host memory)
    "blind8-local-alloc-is-device": Demo(
        program(
            """    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = T.float32(1.5)
"""
            + KERNEL
            + """        B[tx] = A[tx] + c[0]
"""
        ),
        verify(),
    ),
    # a "global" buffer of the host code annotated to live on the CPU
    "blind8-device-type-annotation-ignored": Demo(
        program(
            """    g = T.alloc_buffer((4,), "float32", annotations={"device_type": 1})
    g[0] = T.float32(1.5)
"""
            + KERNEL
            + """        B[tx] = A[tx]
"""
        ),
        verify(),
    ),
    # a "global" buffer of the host code whose disable_lower_builtin is 0 (device memory)
    "blind8-disable-lower-builtin-zero": Demo(
        program(
            """    g = T.alloc_buffer((4,), "float32", annotations={"disable_lower_builtin": 0})
    g[0] = T.float32(1.5)
"""
            + KERNEL
            + """        B[tx] = A[tx]
"""
        ),
        verify(),
    ),
    # the host stores into a parameter of a WebGPU function
    "blind8-no-webgpu": Demo(
        program(
            """    B[0] = T.float32(1.0)
"""
            + KERNEL.replace('"cuda"', '"webgpu"')
            + """        A[tx] = B[tx]
"""
        ),
        verify("webgpu"),
    ),
    # an entry point for cuda without a host that stores into its parameter outside a kernel
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

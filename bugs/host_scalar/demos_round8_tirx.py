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
"""Round 8 blind demos of the host-level scalar fix on apache/tvm-tirx: the programs
of demos_round8.py in that line's form (a kernel is a ``launch_thread`` region, a cell an
``alloc_tensor``), with the same observers."""

from bugs.host_scalar.demos_round8 import lower_builtin, split_allocations
from harness.blind_demo import Demo, from_script, on

HEAD = """
@T.prim_func
def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
"""


def local(ty):
    """A host-level "local" cell of the tensor type ``ty`` (shape, dtype)."""
    return f'T.alloc_tensor(ty_args=[T.Tensor({ty}, scope="local")])'


def program(body):
    """A builder of ``main`` whose body is ``body``."""
    return lambda: from_script(HEAD + body)


def lower_builtin_program(device_type, scope=""):
    """A builder of a host function (llvm) of an OpenCL device whose buffer ``g`` (of
    ``scope``, "global" when empty) is annotated ``device_type``."""
    return lambda: on(
        "llvm",
        from_script(
            f"""
@T.prim_func
def main(B: T.Buffer((8,), "float32"), dev_id: T.int32):
    with T.device_context(4, dev_id):
        g = T.alloc_tensor(ty_args=[T.Tensor((4,), T.float32{scope})],
                           attrs={{"device_type": {device_type}}})
        for j in range(4):
            g[j] = B[j]
        B[0] = g[3]
"""
        ),
    )


DEMOS = {
    "blind8-global-candidate": Demo(
        program("""    g = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32)])
    g[0] = T.float32(2.0)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx] + g[0]
"""),
        split_allocations(),
    ),
    "blind8-first-dim-cell": Demo(
        program(f"""    c = {local("(1, 1), T.float32")}
    c[0, 0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx] + c[0, 0]
"""),
        split_allocations(),
    ),
    "blind8-index-unchecked": Demo(
        program(f"""    c = {local("(1,), T.float32")}
    c[0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx] + c[tx // 8]
"""),
        split_allocations(),
    ),
    "blind8-vector-cell-by-value": Demo(
        program(f"""    c = {local("(1,), T.float32x4")}
    c[0] = T.Broadcast(T.float32(1.5), 4)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[T.Ramp(0, 1, 4)] = c[0]
"""),
        split_allocations(),
    ),
    "blind8-reject-before-device": Demo(
        program(f"""    c = {local("(1,), T.float32")}
    with T.launch_thread("threadIdx.x", 8) as tx:
        c[0] = B[tx]
    with T.launch_thread("threadIdx.x", 8) as ty:
        C[ty] = c[0]
"""),
        split_allocations(),
    ),
    "blind8-view-decl-host-use": Demo(
        program(f"""    c = {local("(1,), T.float32")}
    v = T.decl_tensor(T.tensor_data_ptr(c), ty_args=[T.Tensor((1,), T.float32, scope="local")])
    with T.launch_thread("threadIdx.x", 8) as tx:
        v[0] = B[tx]
        C[tx] = v[0]
"""),
        split_allocations(),
    ),
    "blind8-last-pointer-use-named": Demo(
        program(f"""    c = {local("(1,), T.float32")}
    c[0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        c[0] = B[tx]
    with T.launch_thread("threadIdx.x", 8) as ty:
        T.evaluate(T.address_of(c[0]))
"""),
        split_allocations(),
    ),
    "blind8-any-device-type": Demo(lower_builtin_program(2), lower_builtin),
    # a "local" cell of the host code marked host memory: its workspace on (kDLCPU, 0)
    "blind8-device-id-enclosing": Demo(lower_builtin_program(1, ', scope="local"'), lower_builtin),
    "blind8-stack-rule-enclosing": Demo(lower_builtin_program(1), lower_builtin),
    "blind8-no-webgpu": Demo(
        program("""    c: T.float32 = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx] + c
"""),
        split_allocations("webgpu"),
    ),
    "blind8-tensor-host-use": Demo(
        program(f"""    c = {local("(1,), T.float32")}
    T.call_packed("f", c)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx]
"""),
        split_allocations(),
    ),
}

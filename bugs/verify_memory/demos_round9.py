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
"""Round 9 blind demos of the verify_memory report: one function per wrong fix, with
host code that touches (or only computes an address of) memory, given to VerifyMemory; whether
it is accepted, and the variables it names, differ under the reference fix and the wrong fix."""

from harness.blind_demo import Demo, from_script, line_package, message, on

_CUDA = {"kind": "cuda", "arch": "sm_80"}


def _verified(target=_CUDA, host="llvm"):
    """Observer: VerifyMemory on the function alone for ``target`` (with ``host``, or none):
    "accepted", or the variables it reports."""

    def observe(func):
        tvm = line_package()
        tgt = tvm.target.Target(target, host=host) if host else tvm.target.Target(target)
        mod = on(tgt, func)
        try:
            tvm.tirx.transform.VerifyMemory()(mod)
        except Exception as err:  # the result: the reported accesses
            found = [x.strip() for x in str(err).splitlines() if "directly accessed" in x]
            return "\n".join(found) or f"{type(err).__name__}: {message(err)}"
        return "accepted"

    return observe


def _script(text):
    return lambda: from_script(text)


# the host reads L[0] for the extent of a thread attribute nested in the kernel
NESTED_EXTENT = """
@T.prim_func
def main(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32")):
    bx = T.launch_thread("blockIdx.x", 1)
    tx = T.launch_thread("threadIdx.x", L[0])
    B[tx] = T.float32(1.0)
"""

# the host reads L[0] for the kernel's dynamic shared memory size
SHARED_DYN = """
@T.prim_func
def main(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32")):
    tx = T.launch_thread("threadIdx.x", 8)
    S = T.alloc_buffer((L[0],), "float32", scope="shared.dyn")
    S[tx] = T.float32(1.0)
    B[tx] = S[tx]
"""

# the host computes the address of a view that only the kernel reads
VIEW_ADDRESS = """
@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((8,), "float32")):
    V = T.decl_buffer((4,), "float32", data=T.address_of(A[4]))
    tx = T.launch_thread("threadIdx.x", 4)
    B[tx] = V[tx]
"""

# ... at an index the host reads from the parameter I
VIEW_ADDRESS_INDEX = """
@T.prim_func
def main(A: T.Buffer((16,), "float32"), I: T.Buffer((1,), "int32"), B: T.Buffer((8,), "float32")):
    V = T.decl_buffer((4,), "float32", data=T.address_of(A[I[0]]))
    tx = T.launch_thread("threadIdx.x", 4)
    B[tx] = V[tx]
"""

# the host stores through a view over a pointer parameter
POINTER_PARAM = """
@T.prim_func
def main(a: T.handle("float32", "global"), B: T.Buffer((8,), "float32")):
    A = T.decl_buffer((8,), "float32", data=a)
    A[0] = T.float32(1.0)
    tx = T.launch_thread("threadIdx.x", 8)
    B[tx] = A[tx]
"""

# the host stores into the second parameter
SECOND_PARAM = """
@T.prim_func
def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    B[0] = T.float32(1.0)
    tx = T.launch_thread("threadIdx.x", 8)
    A[tx] = B[tx]
"""

# a loop bound to no thread: host code over two device buffers
UNBOUND = """
@T.prim_func
def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    for i in range(8):
        C[i] = B[i] + T.float32(1.0)
"""

# a global buffer that the host allocates, annotated to stay in host memory
HOST_GLOBAL = """
@T.prim_func
def main(B: T.Buffer((8,), "float32")):
    G = T.alloc_buffer((8,), "float32", annotations={"disable_lower_builtin": 1})
    G[0] = T.float32(1.0)
    tx = T.launch_thread("threadIdx.x", 8)
    B[tx] = T.float32(1.0)
"""

DEMOS = {
    "blind9-vm-outer-extent-only": Demo(_script(NESTED_EXTENT), _verified()),
    "blind9-vm-no-shared-dyn": Demo(_script(SHARED_DYN), _verified()),
    "blind9-vm-address-of-accesses": Demo(_script(VIEW_ADDRESS), _verified()),
    "blind9-vm-address-of-no-indices": Demo(_script(VIEW_ADDRESS_INDEX), _verified()),
    "blind9-vm-buffer-params-only": Demo(_script(POINTER_PARAM), _verified()),
    "blind9-vm-first-param-only": Demo(_script(SECOND_PARAM), _verified()),
    "blind9-vm-no-webgpu": Demo(_script(UNBOUND), _verified("webgpu")),
    "blind9-vm-entry-needs-host": Demo(_script(UNBOUND), _verified(host=None)),
    "blind9-vm-disable-lower-builtin": Demo(_script(HOST_GLOBAL), _verified()),
}

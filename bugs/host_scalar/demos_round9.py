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
"""Round 9 blind demos of the host_scalar report: one function per wrong fix with a
buffer that its host code allocates, split for OpenCL (SplitHostDevice alone: the kernels'
parameters, the host allocations' annotations, or the rejection) or compiled for OpenCL (the
host's workspace calls); the results differ under the reference fix and the wrong fix."""

from harness.blind_demo import Demo, from_script, line_package, message, script_of, split


def _annotations(mod):
    """The allocations of the host function ``main`` of ``mod`` with their annotations."""
    import tvm_ffi

    from harness.tvm_line import allocation

    found = []

    def visit(node):
        alloc = allocation(node)
        if alloc is not None:
            annotations = {k: int(v) for k, v in dict(alloc[1] or {}).items()}
            found.append(f"allocation {alloc[0].name}: {annotations}")
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(mod["main"].body, visit, order="pre")
    return found


def split_cells(func):
    """Observer: ``func`` after SplitHostDevice for OpenCL (llvm host), with the annotations
    of the host allocations (the printer leaves those of a cell out), or the error."""
    try:
        mod = split(func, "opencl")
    except Exception as err:  # the result: the rejection
        return f"{type(err).__name__}: {message(err)}"
    return "\n".join([script_of(mod), *_annotations(mod)])


def workspaces_on(target, storage_rewrite=True):
    """Observer: the host LLVM IR's workspace calls of the function compiled for ``target``
    (llvm host), or the error; without ``storage_rewrite``, StorageRewrite is disabled (it
    drops the allocations' annotations before LowerTVMBuiltin sees them)."""

    def observe(func):
        tvm = line_package()
        build = tvm.compile if hasattr(tvm, "compile") else tvm.tirx.compile  # tvm-tirx
        disabled = [] if storage_rewrite else ["tirx.StorageRewrite"]
        try:
            with tvm.transform.PassContext(disabled_pass=disabled):
                lib = build(func, target=tvm.target.Target(target, host="llvm"))
        except Exception as err:  # the result: the rejection
            return f"{type(err).__name__}: {message(err)}"
        lines = lib.mod.inspect_source("ll").splitlines()
        calls = [x.split(", !dbg")[0].strip() for x in lines if "call ptr %" in x]
        return "\n".join(calls) or "no workspace call"

    return observe


def _script(text):
    return lambda: from_script(text)


# the host stores into the cell, the kernel reads it at an index it loads
INDEX = """
@T.prim_func
def main(K: T.Buffer((8,), "int32"), C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = T.float32(1.5)
    tx = T.launch_thread("threadIdx.x", 8)
    C[tx] = c[K[tx]]
"""

# a (1, 2) local array of the host code: two elements
TWO_ELEMENTS = """
@T.prim_func
def main(C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((1, 2), "float32", scope="local")
    c[0, 0] = T.float32(1.5)
    c[0, 1] = T.float32(2.5)
    tx = T.launch_thread("threadIdx.x", 8)
    C[tx] = c[0, 0]
"""

# a one-element vector cell
VECTOR = """
@T.prim_func
def main(B: T.Buffer((8,), "float32x4"), C: T.Buffer((8,), "float32x4")):
    c = T.alloc_buffer((1,), "float32x4", scope="local")
    c[0] = T.Broadcast(T.float32(1.5), 4)
    tx = T.launch_thread("threadIdx.x", 8)
    C[tx] = B[tx] + c[0]
"""

# the host hands the cell to a packed call as a tensor only
TENSOR = """
@T.prim_func
def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    T.call_packed("f", c)
    tx = T.launch_thread("threadIdx.x", 8)
    C[tx] = B[tx]
"""

# the host declares a view that only the kernel uses
VIEW = """
@T.prim_func
def main(C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    V = T.decl_buffer((1,), "float32", data=c.data, scope="local")
    tx = T.launch_thread("threadIdx.x", 8)
    V[0] = T.float32(1.5)
    C[tx] = V[0]
"""

# the host stores through a view of a view, the kernel reads the cell
VIEW_OF_VIEW = """
@T.prim_func
def main(C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    V = T.decl_buffer((1,), "float32", data=c.data, scope="local")
    W = T.decl_buffer((1,), "float32", data=V.data, scope="local")
    W[0] = T.float32(1.5)
    tx = T.launch_thread("threadIdx.x", 8)
    C[tx] = c[0]
"""

# a "global" one-element buffer of the host code, stored by the host, read by the kernel
GLOBAL = """
@T.prim_func
def main(C: T.Buffer((8,), "float32")):
    g = T.alloc_buffer((1,), "float32")
    g[0] = T.float32(1.5)
    tx = T.launch_thread("threadIdx.x", 8)
    C[tx] = g[0]
"""

# the report's cell (host memory, read by the kernel by value)
CELL = """
@T.prim_func
def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = T.float32(1.5)
    tx = T.launch_thread("threadIdx.x", 8)
    C[tx] = B[tx] + c[0]
"""

# a kernel-only buffer of the host code annotated with another device type (kDLOpenCL)
ANNOTATED = """
@T.prim_func
def main(C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((8,), "float32", scope="local", annotations={"device_type": 4})
    tx = T.launch_thread("threadIdx.x", 8)
    c[tx] = T.float32(1.5)
    C[tx] = c[tx]
"""

# the kernel stores into the cell, then loads it at an index it loads
TWO_KERNEL_USES = """
@T.prim_func
def main(K: T.Buffer((8,), "int32"), C: T.Buffer((8,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = T.float32(1.5)
    tx = T.launch_thread("threadIdx.x", 8)
    c[0] = T.float32(2.5)
    C[tx] = c[K[tx]]
"""

DEMOS = {
    "blind9-hs-index-unchecked": Demo(_script(INDEX), split_cells),
    "blind9-hs-first-extent-only": Demo(_script(TWO_ELEMENTS), split_cells),
    "blind9-hs-vector-lanes": Demo(_script(VECTOR), split_cells),
    "blind9-hs-tensor-is-host": Demo(_script(TENSOR), split_cells),
    "blind9-hs-view-decl-is-use": Demo(_script(VIEW), split_cells),
    "blind9-hs-view-of-view": Demo(_script(VIEW_OF_VIEW), split_cells),
    "blind9-hs-global-candidate": Demo(_script(GLOBAL), split_cells),
    "blind9-hs-device-id-kept": Demo(_script(CELL), workspaces_on("opencl"), opencl=True),
    "blind9-hs-any-annotation": Demo(
        _script(ANNOTATED), workspaces_on("opencl", storage_rewrite=False), opencl=True
    ),
    "blind9-hs-last-kernel-use": Demo(_script(TWO_KERNEL_USES), split_cells),
}

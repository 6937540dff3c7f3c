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
"""Round 8 blind demos of the host-level scalar fix: per wrong fix, a small valid
program whose SplitHostDevice output (its allocations' annotations listed, or the error) or
whose compiled host code differs from the reference fix's."""

from harness.blind_demo import (
    Demo,
    from_script,
    line_package,
    message,
    on,
    script_of,
    script_or_error,
    split,
)

HEAD = """
@T.prim_func
def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
"""
KERNEL = """    with T.attr(T.target("cuda"), "target", 0):
        tx = T.launch_thread("threadIdx.x", 8)
"""


def program(body):
    """A builder of ``main`` whose body is ``body`` (apache/tvm's lowered form: a kernel is an
    ``attr target`` region)."""
    return lambda: from_script(HEAD + body)


def allocations(mod):
    """Each allocation of ``mod``'s functions: name, scope and annotations."""
    from harness.tvm_line import allocation, scope_of, walk

    found = []
    for gvar, func in sorted(mod.functions.items(), key=lambda kv: kv[0].name_hint):

        def visit(node, name=gvar.name_hint):
            alloc = allocation(node)
            if alloc is not None:
                notes = {str(k): str(v) for k, v in (alloc[1] or {}).items()}
                found.append(f"{name}: {alloc[0].name} {scope_of(alloc[0])} {notes}")

        walk(func.body, visit, order="pre")
    return found


def split_allocations(target="cuda"):
    """Observer: the module after SplitHostDevice alone and its allocations, or the error."""

    def observe(func):
        try:
            mod = split(func, target)
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"
        return script_of(mod) + "\n" + "\n".join(allocations(mod))

    return observe


def host_workspace_calls(target="opencl"):
    """Observer: the allocation lines of the host code of ``func`` compiled for ``target`` (host
    llvm) right after LowerTVMBuiltin (its workspace calls and what stays an allocation), or the
    error."""

    def observe(func):
        tvm = line_package()
        seen = []

        @tvm.ir.instrument.pass_instrument
        class Capture:
            def run_after_pass(self, mod, info):
                if "LowerTVMBuiltin" in info.name:
                    seen.append(mod)

        try:
            with tvm.transform.PassContext(instruments=[Capture()]):
                tvm.compile(func, target=tvm.target.Target(target, host="llvm"))
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"
        keep = ("Workspace", "alloc", "decl_buffer((4,)")
        text = script_of(seen[-1]).splitlines()
        return [x.strip() for x in text if any(k in x for k in keep)]

    return observe


def lower_builtin_program(device_type):
    """A builder of a host function (llvm) of an OpenCL device whose small "global" buffer is
    annotated ``device_type``."""
    return lambda: on(
        "llvm",
        from_script(
            """
@T.prim_func
def main(B: T.Buffer((8,), "float32"), dev_id: T.int32):
    T.attr("default", "device_id", dev_id)
    T.attr("default", "device_type", 4)
    g = T.alloc_buffer((4,), "float32", annotations={"device_type": %d})
    for j in range(4):
        g[j] = B[j]
    B[0] = g[3]
"""
            % device_type
        ),
    )


def lower_builtin(mod):
    """Observer: the module after LowerTVMBuiltin alone, or the error."""
    return script_or_error(lambda: line_package().tirx.transform.LowerTVMBuiltin()(mod))


# a host-level cell the host writes and a kernel reads as a scalar
SCALAR = program(
    """    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = T.float32(1.5)
"""
    + KERNEL
    + """        C[tx] = B[tx] + c[0]
"""
)

DEMOS = {
    # a "global" buffer of the host code: the host stores it, a kernel reads it
    "blind8-global-candidate": Demo(
        program(
            """    g = T.alloc_buffer((1,), "float32")
    g[0] = T.float32(2.0)
"""
            + KERNEL
            + """        C[tx] = B[tx] + g[0]
"""
        ),
        split_allocations(),
    ),
    # a one-element cell of two dimensions, read by the kernel at [0, 0]
    "blind8-first-dim-cell": Demo(
        program(
            """    c = T.alloc_buffer((1, 1), "float32", scope="local")
    c[0, 0] = T.float32(1.5)
"""
            + KERNEL
            + """        C[tx] = B[tx] + c[0, 0]
"""
        ),
        split_allocations(),
    ),
    # the kernel reads the one element at an index computed from the thread (always 0)
    "blind8-index-unchecked": Demo(
        program(
            """    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = T.float32(1.5)
"""
            + KERNEL
            + """        C[tx] = B[tx] + c[tx // 8]
"""
        ),
        split_allocations(),
    ),
    # a one-element float32x4 cell that a kernel reads whole
    "blind8-vector-cell-by-value": Demo(
        program(
            """    c = T.alloc_buffer((1,), "float32x4", scope="local")
    c[0] = T.Broadcast(T.float32(1.5), 4)
"""
            + KERNEL
            + """        C[T.Ramp(0, 1, 4)] = c[0]
"""
        ),
        split_allocations(),
    ),
    # a cell of the host code that one kernel writes and a second kernel reads; the host
    # never touches it
    "blind8-reject-before-device": Demo(
        program(
            """    c = T.alloc_buffer((1,), "float32", scope="local")
"""
            + KERNEL
            + """        c[0] = B[tx]
"""
            + KERNEL.replace("tx", "ty")
            + """        C[ty] = c[0]
"""
        ),
        split_allocations(),
    ),
    # the host declares a view of a cell that only the kernel uses
    "blind8-view-decl-host-use": Demo(
        program(
            """    c = T.alloc_buffer((1,), "float32", scope="local")
    v = T.decl_buffer((1,), "float32", data=c.data, scope="local")
"""
            + KERNEL
            + """        v[0] = B[tx]
        C[tx] = v[0]
"""
        ),
        split_allocations(),
    ),
    # the host writes the cell; the first kernel stores into it, the second takes its address
    "blind8-last-pointer-use-named": Demo(
        program(
            """    c = T.alloc_buffer((1,), "float32", scope="local")
    c[0] = T.float32(1.5)
"""
            + KERNEL
            + """        c[0] = B[tx]
"""
            + KERNEL.replace("tx", "ty")
            + """        T.evaluate(T.address_of(c[0]))
"""
        ),
        split_allocations(),
    ),
    # a buffer of the host code that a user annotated with another device type
    "blind8-any-device-type": Demo(lower_builtin_program(2), lower_builtin),
    # the report's program: the workspace of the cell on the CPU
    "blind8-device-id-enclosing": Demo(
        lambda: from_script("""
@T.prim_func
def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    c: T.float32 = T.float32(1.5)
    for i in T.thread_binding(8, thread="threadIdx.x"):
        C[i] = B[i] + c
"""),
        host_workspace_calls(),
    ),
    # a small "global" buffer of an OpenCL function's host code, marked host memory
    "blind8-stack-rule-enclosing": Demo(lower_builtin_program(1), lower_builtin),
    # the report's cell on WebGPU
    "blind8-no-webgpu": Demo(SCALAR, split_allocations("webgpu")),
    # a cell that the host hands to a packed function as a tensor, and nothing else uses
    "blind8-tensor-host-use": Demo(
        program(
            """    c = T.alloc_buffer((1,), "float32", scope="local")
    T.call_packed("f", c)
"""
            + KERNEL
            + """        C[tx] = B[tx]
"""
        ),
        split_allocations(),
    ),
}

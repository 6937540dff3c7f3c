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
"""Programs on which the host scalar's reference fix and each blind wrong fix differ, on apache/tvm
(harness/blind_demo.py; run with scripts/blind_demos.py --bug host_scalar). demos_tirx.py shows
programs of the same shapes on apache/tvm-tirx: the builders and the observers here serve both
lines (TVM is imported when a program is built or observed).

Each program has a one-element "local" cell ``c`` (or a host array) that the host code writes
and a kernel reads. What is compared: a launch's values on pocl (OpenCL, llvm host), most with
the host's workspace calls before them (on which device the cell lives); the kernels'
signatures and the host's workspace calls of a compiled module; or the module after one pass
(SplitHostDevice, LowerTVMBuiltin)."""

import ctypes
import importlib
import re

import numpy as np
import tvm_ffi

from harness.blind_demo import (
    Demo,
    compile_and_run,
    line_package,
    on,
    script_or_error,
    split_module,
    split_or_error,
    targeted,
)

# cuda sm_80, a target whose code compiles here without a GPU
SM80 = {"kind": "cuda", "arch": "sm_80"}


def source(text):
    """The function or module of the TVMScript ``text`` on this process's TVM line."""
    package = line_package().__name__
    script = importlib.import_module(f"{package}.script")
    names = {"T": script.tirx, "I": script.ir}
    return script.from_source(text, extra_vars=names)


def head(private=False):
    """The decorator of a function on this line: T.prim_func (apache/tvm) or T.function."""
    name = "prim_func" if line_package().__name__ == "tvm" else "function"
    return f"@T.{name}(private=True)" if private else f"@T.{name}"


def body(lines, depth=1):
    """TVMScript statement lines, indented by ``depth`` levels of four spaces."""
    return "".join(f"{'    ' * depth}{line}\n" for line in lines)


def program(params, *lines):
    """A demo's program: ``main(params)`` with the statement lines."""
    return lambda: source(f"{head()}\ndef main({params}):\n{body(lines)}")


def module(main_params, main_lines, kern_params, kern_lines, host, device):
    """A demo's program: a module of ``main`` (for target ``host``), which calls ``Mod.kern``,
    and the private ``kern`` (for ``device``)."""

    def build():
        text = "@I.ir_module\nclass Mod:\n"
        text += f"    {head()}\n    def main({main_params}):\n{body(main_lines, 2)}\n"
        text += f"    {head(True)}\n    def kern({kern_params}):\n{body(kern_lines, 2)}"
        return targeted(source(text), host, device)

    return build


def kernel(threads, *lines, var="i"):
    """A thread_binding loop of ``threads`` threads running ``lines`` (apache/tvm)."""
    return [f'for {var} in T.thread_binding({threads}, thread="threadIdx.x"):', *indent(lines)]


def launch(threads, *lines, var="tx"):
    """A launch_thread region of ``threads`` threads running ``lines``."""
    return [f'with T.launch_thread("threadIdx.x", {threads}) as {var}:', *indent(lines)]


def indent(lines):
    """Statement lines one level deeper."""
    return [f"    {line}" for line in lines]


def build(func, target):
    """``func`` compiled for ``target`` with an llvm host, on this process's TVM line."""
    tvm = line_package()
    compile_ = tvm.compile if hasattr(tvm, "compile") else tvm.tirx.compile
    return compile_(func, target=tvm.target.Target(target, host="llvm"))


# Ways of looking at a compiled module (each takes the module, returns a line)


def signatures(lib):
    """The kernels' signatures."""
    kernels = lib.mod.imports[0].inspect_source()
    found = re.findall(r"(?:__global__ void|kernel void)[^{;]*\)", kernels)
    return "; ".join(dict.fromkeys(" ".join(x.split()) for x in found))


def cell_calls(lib):
    """The host's TVMBackendAllocWorkspace / FreeWorkspace calls for ``c``: their (device type,
    device id) arguments."""
    host = lib.mod.inspect_source("ll")
    allocs = re.findall(r"%c\b[\w.]* = (?:tail )?call ptr %[\w.]+\((i32 \w+, i32 %?\w+)", host)
    frees = re.findall(r"call i32 %[\w.]+\((i32 \w+, i32 %?\w+), ptr [\w ]*%c\b", host)
    return str([f"alloc({x})" for x in allocs] + [f"free({x})" for x in frees])


def workspaces(lib):
    """The host's workspace allocations, each (device type, device id, bytes)."""
    pattern = r"= (?:tail )?call ptr %[\w.]+\((i32 \d+, i32 [^,]+, i64 \d+)"
    return f"workspaces {re.findall(pattern, lib.mod.inspect_source('ll'))}"


def cpu_calls(lib):
    """The host's workspace calls on kDLCPU (device type 1, any device id), whole lines."""
    lines = lib.mod.inspect_source("ll").splitlines()
    calls = [x.split(", !dbg")[0].strip() for x in lines if "(i32 1, i32 " in x and "call" in x]
    return str(calls)


def allocas(lib):
    """How many stack allocations the host code makes."""
    return f"allocas {len(re.findall(r'= alloca ', lib.mod.inspect_source('ll')))}"


# Observers


def compiled(target, *looks):
    """Observer: the function compiled for ``target`` (llvm host), seen through ``looks``."""

    def observe(func):
        lib = build(func, target)
        return "\n".join(look(lib) for look in looks)

    return observe


def launched(inputs, outputs, *looks):
    """Observer: ``looks`` at the function compiled for OpenCL, then the values of ``outputs``
    after a launch on pocl (llvm host) with ``inputs``."""

    def observe(func):
        lib = build(func, "opencl") if looks else None
        return "\n".join([*(look(lib) for look in looks), compile_and_run(func, inputs, outputs)])

    return observe


def after(transform, keep, name=None):
    """Observer: the lines of the module (its ``name`` function) after the pass
    ``tirx.transform.<transform>`` (looked up when it runs: a fix replaces it) that hold one of
    ``keep``, stripped."""

    def observe(mod):
        out = getattr(line_package().tirx.transform, transform)()(mod)
        text = (out[name] if name else out).script()
        return [x.strip() for x in text.splitlines() if any(k in x for k in keep)]

    return observe


def lowered(func):
    """Observer: ``func`` for llvm after LowerTVMBuiltin alone (tvm.compile's earlier passes drop
    a user's allocation annotations): its TVMScript, or the error."""
    transform = line_package().tirx.transform
    return script_or_error(lambda: transform.LowerTVMBuiltin()(on("llvm", func)))


@tvm_ffi.register_global_func("blind2.fill", override=True)
def _fill(ptr):
    """A host function: it writes 1.5 into the host memory at ``ptr``."""
    address = ptr.value if hasattr(ptr, "value") else int(ptr)
    ctypes.c_float.from_address(address).value = 1.5


@tvm_ffi.register_global_func("blind2.copy", override=True)
def _copy(src, dst):
    """A host function: it copies the tensor ``src`` into ``dst``."""
    src.copyto(dst)


def zeros(*shape):
    """A float32 array of zeros of ``shape``."""
    return np.zeros(shape, "float32")


ARANGE, ONES = np.arange(4, dtype="float32"), np.ones(4, "float32")


def buffers(*shapes, dtype="float32"):
    """Parameters B, C, D ... of the shapes (tuples' text), one each: a T.Buffer on apache/tvm,
    a T.Tensor on apache/tvm-tirx."""
    return ", ".join(f'{n}: T.{KIND}({s}, "{dtype}")' for n, s in zip("BCD", shapes))


def local(name, shape, dtype="float32", scope="local", data=None, extra=""):
    """The statement of a buffer (a tensor on apache/tvm-tirx) ``name`` of ``shape`` in
    ``scope`` (None: the default), allocated or declared over ``data``; ``extra`` ends the
    call."""
    if KIND == "Buffer":
        scope = f', scope="{scope}"' if scope else ""
        if data:
            return f'{name} = T.decl_buffer({shape}, "{dtype}", data={data}{scope}{extra})'
        return f'{name} = T.alloc_buffer({shape}, "{dtype}"{scope}{extra})'
    scope = f', scope="{scope}"' if scope else ""
    ty = f'ty_args=[T.Tensor({shape}, "{dtype}"{scope})]{extra}'
    return f"{name} = T.decl_tensor({data}, {ty})" if data else f"{name} = T.alloc_tensor({ty})"


# the spelling of this process's line: T.Buffer (apache/tvm) or T.Tensor (apache/tvm-tirx)
KIND = "Buffer" if line_package().__name__ == "tvm" else "Tensor"
BC4, BCD4, BC24, BC8 = (
    buffers("(4,)", "(4,)"),
    buffers("(4,)", "(4,)", "(4,)"),
    buffers("(4,)", "(2, 4)"),
    buffers("(8,)", "(8,)"),
)
A4, A8 = buffers("(4,)").replace("B:", "A:"), buffers("(8,)").replace("B:", "A:")
# the host binds c = 1.5
SCALAR = "c: T.float32 = T.float32(1.5)"
# a one-element "local" cell c, and the host's store of 1.5 into it
CELL, SET = local("c", "(1,)"), "c[0] = T.float32(1.5)"
# a one-element float32x4 cell, and the host's store of four 1.5 into it
VECTOR, SET_VECTOR = local("c", "(1,)", "float32x4"), "c[0] = T.Broadcast(T.float32(1.5), 4)"
# a "local" view v of c
VIEW = local("v", "(1,)", data="c.data")


def report(n):
    """The report's program: the host binds c = 1.5, an ``n``-thread kernel reads it."""
    return program(buffers(f"({n},)", f"({n},)"), SCALAR, *kernel(n, "C[i] = B[i] + c"))


def two_launches(step):
    """The host sets c = 1.5, launches a kernel that reads it, sets c = ``step`` and launches a
    second kernel that reads it."""
    return program(
        BCD4,
        SCALAR,
        *kernel(4, "C[i] = B[i] + c"),
        f"c = {step}",
        *kernel(4, "D[i] = B[i] + c"),
    )


def cell(*lines):
    """A demo's program: a function of A (eight elements) with the cell c, set on the host, and
    ``lines`` after."""
    return program(A8, CELL, SET, *lines)


def annotated(elements, device_type):
    """The host function of a cuda launch at LowerTVMBuiltin (inside its ``device_type`` 2
    attribute) with a "global" float32 allocation of ``elements`` elements annotated
    ``device_type``, which the host fills and hands to an extern function."""
    return program(
        'A: T.handle("float32")',
        'T.func_attr({"target": T.target("llvm"), "global_symbol": "main"})',
        'T.attr(0, "device_type", 2)',
        'T.attr(0, "device_id", 0)',
        f'h = T.alloc_buffer(({elements},), "float32", '
        f'annotations={{"device_type": {device_type}}})',
        f"for k in range({elements}):",
        "    h[k] = T.float32(1)",
        'T.evaluate(T.call_extern("int32", "consume", h.data))',
    )


# the report's program on eight threads
REPORT8 = report(8)

# Programs of both lines (demos_tirx.py shows them too)

# a float32x4 cell that the host sets and a kernel of eight threads reads
VECTOR_READ = program(
    buffers("(8,)", dtype="float32x4").replace("B:", "C:"),
    VECTOR,
    SET_VECTOR,
    *launch(8, "C[tx] = c[0]"),
)
# a local buffer of four elements that a kernel fills and a packed call gets as a tensor
FILLED_AS_TENSOR = program(
    A4, local("c", "(4,)"), *launch(4, "c[tx] = A[tx]"), 'T.evaluate(T.call_packed("consume", c))'
)
# the host sets c; a kernel stores through a view of a view of c
VIEW_OF_VIEW = program(
    A4,
    CELL,
    SET,
    local("v1", "(1,)", data="c.data"),
    local("v2", "(1,)", data="v1.data"),
    *launch(4, "v2[0] = A[tx]"),
)
# the report's program written with a cell: c = 1.5 on the host, C[tx] = B[tx] + c in a kernel
CELL_READ = program(BC8, CELL, SET, *launch(8, "C[tx] = B[tx] + c[0]"))
# a kernel reads c through a view V declared on the host
VIEW_READ = program(A8, CELL, local("V", "(1,)", data="c.data"), SET, *launch(8, "A[tx] = V[0]"))
# a kernel stores into c, a packed call receives it as a tensor
STORED_AS_TENSOR = program(
    A8,
    CELL,
    *launch(1, SET),
    'T.evaluate(T.call_packed("f", c))',
    *launch(8, "A[tx] = T.float32(0)"),
)
# the first kernel reads c, the second stores A[0] into it
SECOND_STORES = cell(*launch(8, "A[tx] = c[0]"), *launch(1, "c[0] = A[j]", var="j"))
# the host writes a four-element local array, a kernel loads its first element
ARRAY_FIRST = program(
    A8,
    local("x", "(4,)"),
    "x[0] = T.float32(1.5)",
    "x[1] = T.float32(2.5)",
    *launch(8, "A[tx] = x[0]"),
)
# the first kernel only reads the cell, the second kernel writes 3 into it
SECOND_WRITES = cell(*launch(8, "A[tx] = c[0]"), *launch(1, "c[0] = T.float32(3)", var="ty"))
# a packed call receives the cell as a tensor
CELL_AS_TENSOR = cell(
    'T.evaluate(T.call_packed("ext_fill", c))', *launch(8, "A[tx] = T.float32(0)")
)
# a 512-element host array beside a kernel
LARGE_ARRAY = program(
    f'{A8}, B: T.{KIND}((512,), "float32")',
    local("x", "(512,)"),
    "for i in range(512):",
    "    x[i] = B[i] * T.float32(2)",
    "for i in range(512):",
    "    B[i] = x[511 - i]",
    *launch(8, "A[tx] = T.float32(1)"),
)
# a "global" one-element buffer
GLOBAL_CELL = program(
    A8, local("g", "(1,)", scope="global"), "g[0] = T.float32(1.5)", *launch(8, "A[tx] = g[0]")
)


def first_read(shape, index):
    """A local array of ``shape``, its element ``index`` set on the host and read by a kernel
    adding it to B into C (eight elements each)."""
    return program(
        BC8,
        local("x", shape),
        f"x[{index}] = T.float32(1.5)",
        *launch(8, f"C[tx] = B[tx] + x[{index}]"),
    )


DEMOS = {
    # round 2
    # the host writes c only through a view of a view: the wrong fix follows views of c alone
    "blind2-views-of-views": Demo(
        program(
            BC4,
            CELL,
            'v = T.decl_buffer((1,), "float32", data=c.data)',
            "p = T.address_of(v[0])",
            'w = T.decl_buffer((1,), "float32", data=p)',
            "w[0] = T.float32(1.5)",
            *kernel(4, "C[i] = B[i] + c[0]"),
        ),
        launched([ARANGE, zeros(4)], [1], cell_calls),
        opencl=True,
    ),
    # the host hands c.data to a packed function that fills it: the wrong fix counts no bare
    # pointer as a host use, so c stays device memory
    "blind2-raw-pointer-not-host-use": Demo(
        program(
            BC4,
            CELL,
            'T.evaluate(T.call_packed("blind2.fill", c.data))',
            *kernel(4, "C[i] = B[i] + c[0]"),
        ),
        launched([ARANGE, zeros(4)], [1], cell_calls),
        opencl=True,
    ),
    # VALID: a kernel computes c, the host hands c as a tensor to a packed function: the wrong
    # fix takes the tensor for a host use and rejects the program
    "blind2-tensor-is-host-use": Demo(
        program(
            'B: T.Buffer((1,), "float32"), D: T.Buffer((1,), "float32")',
            CELL,
            *kernel(1, "c[0] = B[0] * T.float32(2.0)"),
            'T.evaluate(T.call_packed("blind2.copy", c, D))',
        ),
        launched([np.array([1.25], "float32"), zeros(1)], [1]),
        opencl=True,
    ),
    # a kernel launched inside a host loop that updates c: the wrong fix rewrites only the host
    # body's top-level kernels
    "blind2-top-level-kernels-only": Demo(
        program(
            BC24,
            "c: T.float32 = T.float32(0.0)",
            "for k in range(2):",
            "    c = c + T.float32(1.5)",
            *indent(kernel(4, "C[k, i] = B[i] + c")),
        ),
        launched([ARANGE, zeros(2, 4)], [1]),
        opencl=True,
    ),
    # c doubled between two launches: the wrong fix passes the second kernel the initializer
    "blind2-initial-value": Demo(
        two_launches("c * T.float32(2.0)"),
        launched([ARANGE, zeros(4), zeros(4)], [1, 2]),
        opencl=True,
    ),
    # a one-element float32x4 cell added by a kernel: the reference rejects it, the wrong fix
    # (blind to lanes) passes it by value
    "blind2-vector-cell-by-value": Demo(
        program(
            buffers("(2, 4)", "(2, 4)"),
            VECTOR,
            SET_VECTOR,
            *kernel(2, "C[i, T.Ramp(0, 1, 4)] = B[i, T.Ramp(0, 1, 4)] + c[0]"),
        ),
        launched([np.arange(8, dtype="float32").reshape(2, 4), zeros(2, 4)], [1]),
        opencl=True,
    ),
    # the report's program for Metal (compiled only): the wrong fix leaves Metal out and keeps
    # c on the device (kDLMetal = 8, a kernel parameter)
    "blind2-no-metal": Demo(REPORT8, compiled("metal", signatures, cell_calls)),
    # the report's program: the wrong fix frees c on the device it allocated on the CPU
    "blind2-free-not-relocated": Demo(
        report(4), launched([ARANGE, zeros(4)], [1], cell_calls), opencl=True
    ),
    # a second kernel stores into c that a first kernel read: the reference rejects it, the
    # wrong fix looks at the first kernel use only
    "blind2-first-kernel-use-decides": Demo(
        program(
            BCD4,
            SCALAR,
            *kernel(4, "C[i] = B[i] + c"),
            *kernel(1, "c = B[0] * T.float32(2.0)"),
            *kernel(4, "D[i] = B[i] + c"),
        ),
        launched([np.arange(1, 5, dtype="float32"), zeros(4), zeros(4)], [1, 2]),
        opencl=True,
    ),
    # round 3
    # c increased between two launches: the wrong fix passes the second kernel the initializer
    "blind3-launch-value-initial": Demo(
        two_launches("c + T.float32(2.0)"),
        launched([ONES, zeros(4), zeros(4)], [1, 2]),
        opencl=True,
    ),
    # the host writes c only through a view at c.data: the wrong fix counts no view's store as
    # a use of c, so c stays device memory
    "blind3-host-view-not-host-use": Demo(
        program(
            BC24,
            CELL,
            VIEW,
            "v[0] = T.float32(3.0)",
            *kernel(4, "C[0, i] = B[i] + c[0]", "C[1, i] = B[i] * c[0]"),
        ),
        launched([ONES, zeros(2, 4)], [1], workspaces),
        opencl=True,
    ),
    # a kernel reads c through a view declared on the host: the reference rejects it, the wrong
    # fix passes the view's host pointer
    "blind3-kernel-view-as-value": Demo(
        program(BC24, CELL, SET, VIEW, *kernel(4, "C[0, i] = B[i] + v[0]")),
        launched([ONES, zeros(2, 4)], [1], workspaces),
        opencl=True,
    ),
    # the host hands c.data to an OpenCL module function that opens no thread environment (a
    # kernel all the same): the reference rejects it, the wrong fix takes it for a host call
    "blind3-launched-thread-env-only": Demo(
        module(
            'C: T.Buffer((4,), "float32")',
            [CELL, SET, "Mod.kern(C.data, c.data)"],
            'C_ptr: T.handle("float32"), c_ptr: T.handle("float32")',
            [
                'C = T.decl_buffer((4,), "float32", data=C_ptr)',
                'c = T.decl_buffer((1,), "float32", data=c_ptr)',
                "C[0] = c[0]",
            ],
            {"kind": "opencl", "host": "llvm"},
            "opencl",
        ),
        after("SplitHostDevice", (" = T.", "kern"), "main"),
    ),
    # a host array x[2] summed into a value that a kernel reads: the wrong fix classifies
    # one-element buffers only and leaves x in device memory
    "blind3-array-not-candidate": Demo(
        program(
            BC24,
            'x = T.alloc_buffer((2,), "float32", scope="local")',
            "x[0] = T.float32(1.0)",
            "x[1] = T.float32(2.0)",
            "s: T.float32 = x[0] + x[1]",
            *kernel(4, "C[0, i] = B[i] + s"),
        ),
        launched([ONES, zeros(2, 4)], [1], workspaces),
        opencl=True,
    ),
    # LowerTVMBuiltin, an allocation annotated device_type = 4 (kDLOpenCL): the reference
    # rejects it (only kDLCPU), the wrong fix allocates it on the CPU
    "blind3-any-device-type": Demo(
        lambda: line_package().IRModule(
            {
                "main": program(
                    "n: T.int32",
                    'T.func_attr({"target": T.target("llvm"), "tirx.is_host_func": 1})',
                    'T.attr(0, "device_id", 0)',
                    'T.attr(0, "device_type", 4)',
                    'x = T.alloc_buffer((n,), "float32", scope="local", '
                    'annotations={"device_type": 4})',
                    'T.evaluate(T.call_extern("int32", "use", x.data))',
                )()
            }
        ),
        after("LowerTVMBuiltin", ("Workspace",)),
    ),
    # a one-element float32x4 cell stored whole by a kernel: the reference rejects it, the wrong
    # fix makes it a float32x4 parameter, which the runtime cannot pass
    "blind3-vector-as-value": Demo(
        program(
            'C: T.Buffer((8,), "float32")',
            VECTOR,
            SET_VECTOR,
            *kernel(2, "C[T.Ramp(i * 4, 1, 4)] = c[0]"),
        ),
        launched([zeros(8)], [0]),
        opencl=True,
    ),
    # round 4
    "blind4-vector-cell-by-value": Demo(VECTOR_READ, split_or_error()),
    # c = 1.5 on the host; kernel 1 adds c; the host sets c = c + 1; kernel 2 adds c
    "blind4-launch-value-initial": Demo(
        program(
            BC8,
            SCALAR,
            *kernel(8, "C[i] = B[i] + c"),
            "c = c + T.float32(1)",
            *kernel(8, "C[i] = C[i] + c"),
        ),
        launched([zeros(8), zeros(8)], [1]),
        opencl=True,
    ),
    # a local buffer of the host code that a kernel fills and a packed call gets as a tensor
    "blind4-tensor-is-host-use": Demo(FILLED_AS_TENSOR, split_or_error()),
    # the host sets v[1] of a host array and launches a module-function kernel with v[1]
    "blind4-launch-arg-load-is-kernel": Demo(
        module(
            A4,
            [
                'v = T.alloc_buffer((4,), "float32", scope="local")',
                "v[1] = T.float32(2.5)",
                "Mod.kern(A.data, v[1])",
            ],
            'A: T.handle("float32"), x: T.float32',
            ['A_buf = T.decl_buffer((4,), "float32", data=A)', *launch(4, "A_buf[tx] = x")],
            {"kind": "opencl", "host": "llvm"},
            "opencl",
        ),
        split_module,
    ),
    # a host buffer a user annotated device_type = kDLCUDA (2), which only kDLCPU may be
    "blind4-any-device-type-annotation": Demo(
        program(
            A4,
            't = T.alloc_buffer((4,), "float32", annotations={"device_type": 2})',
            "for i in range(4):",
            "    t[i] = A[i]",
            "for i in range(4):",
            "    A[i] = t[i] + T.float32(1)",
        ),
        lowered,
    ),
    # the host sets c; a kernel stores through a view of a view of c
    "blind4-views-one-level": Demo(VIEW_OF_VIEW, split_or_error()),
    # the report's program, lowered: c = 1.5 on the host, C[tx] = B[tx] + c in a kernel
    "blind4-runtime-targets-cuda-opencl-rocm": Demo(CELL_READ, split_or_error("metal")),
    # round 5
    "blind5-vector-cell-by-value": Demo(VECTOR_READ, split_or_error("cuda")),
    # a kernel reads c through a view declared on the host
    "blind5-views-untraced": Demo(VIEW_READ, split_or_error("cuda")),
    "blind5-tensor-is-host-use": Demo(STORED_AS_TENSOR, split_or_error("cuda")),
    "blind5-first-kernel-only": Demo(SECOND_STORES, split_or_error("cuda")),
    "blind5-stack-limit-inclusive": Demo(annotated(256, 1), lowered),
    "blind5-any-device-type": Demo(annotated(2, 2), lowered),
    # a kernel reads c: the host's workspace calls on the CPU
    "blind5-free-keeps-device": Demo(cell(*launch(8, "A[tx] = c[0]")), compiled("cuda", cpu_calls)),
    # a kernel hands c's address to an extern function
    "blind5-kernel-address-by-value": Demo(
        cell(*launch(8, 'A[tx] = T.call_extern("float32", "load_at", T.address_of(c[0]))')),
        split_or_error("cuda"),
    ),
    # round 6
    "blind6-count-unchecked": Demo(ARRAY_FIRST, split_or_error()),
    "blind6-first-kernel-only": Demo(SECOND_WRITES, split_or_error()),
    # a view of c declared on the host, not used there
    "blind6-view-decl-host-use": Demo(
        program(
            A8,
            CELL,
            local("V", "(1,)", scope=None, data="c.data"),
            *launch(1, "V[0] = T.float32(2)"),
            *launch(8, "A[ty] = V[0]", var="ty"),
        ),
        split_or_error(),
    ),
    "blind6-tensor-ignored": Demo(CELL_AS_TENSOR, split_or_error()),
    # the host's workspace calls on the CPU
    "blind6-device-id-kept": Demo(LARGE_ARRAY, compiled("opencl", cpu_calls), opencl=True),
    "blind6-global-candidate": Demo(GLOBAL_CELL, split_or_error()),
    # round 7: B and C of eight elements
    "blind7-count-unchecked": Demo(first_read("(4,)", "0"), split_or_error()),
    # a float32x4 cell added to float32x4 buffers by a kernel
    "blind7-lanes-unchecked": Demo(
        program(
            buffers("(8,)", "(8,)", dtype="float32x4"),
            VECTOR,
            SET_VECTOR,
            *kernel(8, "C[i] = B[i] + c[0]"),
        ),
        compiled("opencl", signatures, workspaces),
    ),
    "blind7-first-extent": Demo(first_read("(1, 4)", "0, 0"), split_or_error()),
    # a view of c declared on the host; a kernel stores into c and reads it back
    "blind7-view-is-use": Demo(
        program(BC8, CELL, VIEW, *kernel(8, "c[0] = B[i]", "C[i] = c[0]")),
        compiled("opencl", signatures, workspaces),
    ),
    # a kernel hands c's address to an extern function
    "blind7-address-of-by-value": Demo(
        program(
            BC8,
            CELL,
            SET,
            *kernel(8, 'C[i] = B[i] + T.call_extern("float32", "load_it", T.address_of(c[0]))'),
        ),
        compiled("opencl", signatures, workspaces),
    ),
    "blind7-stack-any-scope": Demo(REPORT8, compiled("opencl", workspaces, allocas)),
    "blind7-device-id-kept": Demo(REPORT8, compiled("opencl", workspaces, allocas)),
    # a 2000-element "global" allocation annotated device_type 4 (not kDLCPU)
    "blind7-any-device-type": Demo(
        program(
            'B: T.Buffer((2000,), "float32")',
            'w = T.alloc_buffer((2000,), "float32", annotations={"device_type": 4})',
            "for i in range(2000):",
            "    w[i] = B[i]",
            "for i in range(2000):",
            "    B[i] = w[i] + T.float32(1)",
        ),
        lowered,
    ),
}

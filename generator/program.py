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
"""The abstract description of a host/device-boundary program, its meaning, and its
TVMScript text on each TVM line (this repository only, never exported).

A ``Program`` is a host function that defines values (scalars, cells, small arrays, device
buffers) and then runs a list of steps: kernel launches, host writes, host ``for`` loops and
``if``s. Each kernel reads one to three values, each through an alias form, and stores what it
read into an output buffer of its own. ``expected_launches`` is the meaning: the value every
kernel read must see at every launch, computed in Python from the description; ``invalid``
says why a program must be rejected (a host access to device memory, a kernel that needs a
pointer to host memory: a view of it, or a vector cell, which no runtime passes by value),
``None`` for a valid one. ``render(program, line)`` writes the TVMScript: ``line`` is
``"tvm"`` (apache-tvm 0.27: ``T.prim_func``, ``T.Buffer``, ``T.decl_buffer``,
``T.thread_binding``) or ``"tirx"`` (apache-tvm-tirx: ``T.function``, ``T.Tensor``,
``T.decl_tensor``, ``T.launch_thread``).
"""

from dataclasses import dataclass

import numpy as np

try:  # bfloat16 for numpy (a dependency of both TVM lines)
    import ml_dtypes

    _BF16 = ml_dtypes.bfloat16
except ImportError:  # pragma: no cover
    _BF16 = None

SCALAR_DTYPES = (
    "float32",
    "int32",
    "int64",
    "float64",
    "uint32",
    "float16",
    "bfloat16",
    "int8",
    "int16",
    "uint8",
    "uint16",
    "uint64",
    "bool",
)
VECTOR_DTYPES = ("float32x4", "int32x4")
DTYPES = SCALAR_DTYPES + VECTOR_DTYPES
# the kernel scalar types the GPU runtimes can pass (src/runtime/pack_args.h)
LAUNCHABLE = ("int32", "uint32", "int64", "float32", "float64")
# how a value is spelled at host level
SPELLINGS = ("arg", "let", "cell", "assign", "buffer", "array", "global", "param")
# how a kernel reads a value that lives in memory
ALIASES = ("direct", "decl", "address_of", "letptr", "match_buffer")
MEMORY = ("buffer", "array", "global", "param")
ARRAY_LEN = 4
ARRAY_INDEX = 1  # the element of an array that the host writes and kernels read
N_ARG = 2  # the value of the int32 argument ``n`` at every call
TARGETS = ("cuda", "opencl", "metal", "webgpu")


@dataclass(frozen=True)
class Value:
    """A value defined at host level: ``v<index>``."""

    dtype: str
    spelling: str
    init: int  # the constant of its first value (an argument: the value passed)
    by_kernel: bool = False  # global/param: written by a kernel launched right after its definition
    alias: str = "direct"  # how kernels read it


@dataclass(frozen=True)
class Launch:
    kernel: int


@dataclass(frozen=True)
class Write:
    value: int
    const: int


@dataclass(frozen=True)
class Loop:
    extent: int
    body: tuple


@dataclass(frozen=True)
class If:
    threshold: int  # ``if n > threshold``
    body: tuple


@dataclass(frozen=True)
class Kernel:
    reads: tuple  # indices of the values it reads


@dataclass(frozen=True)
class Program:
    target: str
    values: tuple
    kernels: tuple
    steps: tuple


def lanes(dtype):
    return int(dtype.split("x")[1]) if "x" in dtype else 1


def elem(dtype):
    return dtype.split("x")[0]


def np_dtype(dtype):
    e = elem(dtype)
    if e == "bfloat16":
        return np.dtype(_BF16)
    return np.dtype("bool" if e == "bool" else e)


def mutable(value, line):
    """Whether host code can assign the value again."""
    if value.spelling in ("cell", "buffer", "array"):
        return True
    if value.spelling in ("global", "param"):
        return not value.by_kernel
    return value.spelling == "assign" and line == "tvm"


def in_memory(value, line):
    """Whether the value is a buffer at host level (on 0.27 plain assignment is a cell)."""
    return value.spelling in ("cell", *MEMORY) or (value.spelling == "assign" and line == "tvm")


def host_memory(value, line):
    return in_memory(value, line) and value.spelling not in ("global", "param")


def numeric(dtype, const):
    """The value ``const`` written in ``dtype`` by the generator's expressions: the constant
    alone for an argument and for kernel writes, else ``Cast(dtype, n) + const``."""
    d = np_dtype(dtype)
    if elem(dtype) == "bool":
        return np.array(bool(N_ARG - const), d)
    with np.errstate(over="ignore"):
        return (np.array(N_ARG, d) + np.array(const, d)).astype(d)


def constant(dtype, const):
    d = np_dtype(dtype)
    if elem(dtype) == "bool":
        return np.array(bool(const), d)
    return np.array(const, d)


def initial(value):
    if value.spelling == "arg" or value.by_kernel:
        return constant(value.dtype, value.init)
    return numeric(value.dtype, value.init)


def invalid(program, line):
    """Why ``program`` must be rejected at compile time, or None."""
    for i, value in enumerate(program.values):
        if value.spelling in ("global", "param") and not value.by_kernel:
            return f"v{i}: the host stores into device memory"
    for step in iter_steps(program.steps):
        if isinstance(step, Write) and program.values[step.value].spelling in ("global", "param"):
            return f"v{step.value}: the host stores into device memory"
    used = {
        r
        for step in iter_steps(program.steps)
        if isinstance(step, Launch)
        for r in program.kernels[step.kernel].reads
    }
    for i in sorted(used):
        value = program.values[i]
        # an element a kernel reads directly (a cell, an array's element) reaches it by
        # value under the host-scalar fix; a view or an address needs the pointer
        if host_memory(value, line) and value.alias != "direct":
            return (
                f"v{i}: a kernel needs a pointer to host memory ({value.spelling}, {value.alias})"
            )
        if host_memory(value, line) and lanes(value.dtype) > 1:
            # no runtime passes a vector scalar: the kernel would need the cell's pointer
            return f"v{i}: a kernel needs a pointer to host memory ({value.spelling}, vector)"
    return None


def iter_steps(steps):
    for step in steps:
        yield step
        if isinstance(step, Loop | If):
            yield from iter_steps(step.body)


def expected_launches(program):
    """[(kernel index, [value of each read])] in launch order, as the host runs with n = 2."""
    env = [initial(v) for v in program.values]
    out = []
    for i, v in enumerate(program.values):
        if v.by_kernel:
            out.append(("writer", i))

    def run(steps):
        for step in steps:
            if isinstance(step, Launch):
                k = program.kernels[step.kernel]
                out.append((step.kernel, [env[r] for r in k.reads]))
            elif isinstance(step, Write):
                env[step.value] = numeric(program.values[step.value].dtype, step.const)
            elif isinstance(step, Loop):
                for _ in range(step.extent):
                    run(step.body)
            elif isinstance(step, If):
                if N_ARG > step.threshold:
                    run(step.body)

    run(program.steps)
    return [(k, vals) for k, vals in out if k != "writer"]


# ------------------------------------------------------------------------------------------
# TVMScript text


def _ty(dtype):
    return f"T.{dtype}"


def _const(dtype, const):
    e = elem(dtype)
    if e == "bool":
        text = f"T.bool({bool(const)})"
    elif e.startswith("float") or e == "bfloat16":
        text = f"T.{e}({float(const)})"
    else:
        text = f"T.{e}({int(const)})"
    return text if lanes(dtype) == 1 else f"T.Broadcast({text}, {lanes(dtype)})"


def _expr(dtype, const):
    """``Cast(dtype, n) + const`` (bool: ``Cast(bool, n - const)``)."""
    e = elem(dtype)
    if e == "bool":
        text = f'T.Cast("bool", n - {int(const)})'
    else:
        text = f'T.Cast("{e}", n) + {_const(e, const)}'
    return text if lanes(dtype) == 1 else f"T.Broadcast({text}, {lanes(dtype)})"


class _Writer:
    def __init__(self, line):
        self.line = line
        self.lines = []
        self.depth = 2

    def emit(self, text):
        self.lines.append("    " * self.depth + text)


def _shape(value):
    return ARRAY_LEN if value.spelling == "array" else 1


def _index(value):
    return ARRAY_INDEX if value.spelling == "array" else 0


def _scope(value):
    return "global" if value.spelling in ("global", "param") else "local"


def _decl(line, dtype, n, data, scope):
    if line == "tvm":
        return f'T.decl_buffer(({n},), "{dtype}", data={data}, scope="{scope}")'
    return f'T.decl_tensor({data}, ty_args=[T.Tensor(({n},), "{dtype}", scope="{scope}")])'


def _alloc(line, dtype, n, scope):
    if line == "tvm":
        if scope == "local":
            return f'T.alloc_local(({n},), "{dtype}")'
        return f'T.alloc_buffer(({n},), "{dtype}", scope="{scope}")'
    return f'T.alloc_tensor(ty_args=[T.Tensor(({n},), "{dtype}", scope="{scope}")])'


def _kernel(w, body_lines):
    if w.line == "tvm":
        w.emit('for t in T.thread_binding(1, thread="threadIdx.x"):')
    else:
        w.emit('with T.launch_thread("threadIdx.x", 1) as t:')
    w.depth += 1
    for text in body_lines:
        w.emit(text)
    w.depth -= 1


def _store(dtype, target, value_text):
    if lanes(dtype) == 1:
        return f"{target}[0] = {value_text}"
    return f"{target}[T.Ramp(0, 1, {lanes(dtype)})] = {value_text}"


def read_name(i, value, line):
    """How a kernel reads value ``i``."""
    name = f"v{i}"
    if not in_memory(value, line):
        return name
    if value.spelling == "cell" or (value.spelling == "assign" and line == "tvm"):
        return name  # the scalar sugar reads the cell
    suffix = {"direct": "", "decl": "_d", "address_of": "_a", "letptr": "_v"}.get(value.alias, "")
    index = 0 if value.alias == "address_of" else _index(value)
    return f"{name}{suffix}[{index}]"


def render(program, line):
    """The TVMScript text of ``program`` on ``line`` ("tvm" or "tirx")."""
    w = _Writer(line)
    params = ["n: T.int32"]
    pre = []
    for i, v in enumerate(program.values):
        if v.spelling == "arg":
            params.append(f"v{i}: {_ty(v.dtype)}")
        elif v.spelling == "param":
            if line == "tvm" and v.alias == "match_buffer":
                params.append(f"v{i}_h: T.handle")
                pre.append(f'v{i} = T.match_buffer(v{i}_h, (1,), "{v.dtype}")')
            else:
                kind = "T.Buffer" if line == "tvm" else "T.Tensor"
                params.append(f'v{i}: {kind}((1,), "{v.dtype}")')
    kind = "T.Buffer" if line == "tvm" else "T.Tensor"
    for k, kernel in enumerate(program.kernels):
        for j, r in enumerate(kernel.reads):
            dtype = program.values[r].dtype
            params.append(f'o{k}_{j}: {kind}(({lanes(dtype)},), "{elem(dtype)}")')
    head = ["@I.ir_module" if line == "tvm" else "@T.ir_module", "class Module:"]
    deco = "    @T.prim_func" if line == "tvm" else "    @T.function"
    head += [deco, f"    def main({', '.join(params)}):"]
    for text in pre:
        w.emit(text)
    if line == "tvm":
        w.emit('T.func_attr({"tirx.noalias": True})')
    for i, v in enumerate(program.values):
        _define(w, i, v)
    _steps(w, program, program.steps)
    if not any(isinstance(s, Launch) for s in iter_steps(program.steps)):
        w.emit("T.evaluate(0)")
    return "\n".join(head + w.lines) + "\n"


def _define(w, i, v):
    name, line = f"v{i}", w.line
    if v.spelling == "let":
        w.emit(f"{name}: T.let[{_ty(v.dtype)}] = {_expr(v.dtype, v.init)}")
    elif v.spelling == "cell":
        w.emit(f"{name}: {_ty(v.dtype)} = {_expr(v.dtype, v.init)}")
    elif v.spelling == "assign":
        w.emit(f"{name} = {_expr(v.dtype, v.init)}")
    elif v.spelling in ("buffer", "array", "global"):
        w.emit(f"{name} = {_alloc(line, v.dtype, _shape(v), _scope(v))}")
    if v.spelling in ("buffer", "array") or (v.spelling in ("global", "param") and not v.by_kernel):
        w.emit(
            _store(v.dtype, f"{name}", _expr(v.dtype, v.init)).replace("[0]", f"[{_index(v)}]", 1)
        )
    if v.by_kernel:
        _kernel(w, [_store(v.dtype, name, _const(v.dtype, v.init))])
    if not in_memory(v, line) or v.spelling == "cell" or v.alias in ("direct", "match_buffer"):
        return
    if v.spelling == "assign":
        return
    n, scope = _shape(v), _scope(v)
    if v.alias == "decl":
        w.emit(f"{name}_d = {_decl(line, v.dtype, n, f'{name}.data', scope)}")
    elif v.alias == "address_of":
        data = f"T.address_of({name}[{_index(v)}])"
        w.emit(f"{name}_a = {_decl(line, v.dtype, 1, data, scope)}")
    elif v.alias == "letptr":
        if line == "tvm":
            w.emit(f'{name}_p: T.let[T.handle("{v.dtype}", "{scope}")] = {name}.data')
        else:
            w.emit(f"{name}_p = {name}.data")
        w.emit(f"{name}_v = {_decl(line, v.dtype, n, f'{name}_p', scope)}")


def _steps(w, program, steps):
    for step in steps:
        if isinstance(step, Launch):
            kernel = program.kernels[step.kernel]
            body = []
            for j, r in enumerate(kernel.reads):
                v = program.values[r]
                body.append(_store(v.dtype, f"o{step.kernel}_{j}", read_name(r, v, w.line)))
            _kernel(w, body)
        elif isinstance(step, Write):
            v = program.values[step.value]
            name = f"v{step.value}"
            if v.spelling in ("cell", "assign"):
                w.emit(f"{name} = {_expr(v.dtype, step.const)}")
            else:
                target = f"{name}"
                text = _store(v.dtype, target, _expr(v.dtype, step.const))
                w.emit(text.replace("[0]", f"[{_index(v)}]", 1))
        elif isinstance(step, Loop):
            w.emit(f"for k{w.depth} in range({step.extent}):")
            w.depth += 1
            _steps(w, program, step.body)
            if not step.body:
                w.emit("T.evaluate(0)")
            w.depth -= 1
        elif isinstance(step, If):
            w.emit(f"if n > {step.threshold}:")
            w.depth += 1
            _steps(w, program, step.body)
            if not step.body:
                w.emit("T.evaluate(0)")
            w.depth -= 1

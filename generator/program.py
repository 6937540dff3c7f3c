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
SPELLINGS = ("arg", "let", "cell", "assign", "buffer", "array", "global", "param", "shared")
# how a kernel reads a value that lives in memory
# ("kernel_address_of": the kernel declares its own view at the element's address;
# "byte_offset": a view at the element's address computed by pointer arithmetic, two
# ``handle_add_byte_offset`` deep)
ALIASES = (
    "direct",
    "decl",
    "address_of",
    "letptr",
    "match_buffer",
    "kernel_address_of",
    "byte_offset",
)
MEMORY = ("buffer", "array", "global", "param", "shared")
# device memory: kernels share it, the host never touches it ("shared": a ``local`` buffer of
# the host code that only kernels use, which stays device memory under the host-scalar fix)
DEVICE = ("global", "param", "shared")
# how clause (f) prints each pass's output (every printing entry point of the module)
PRINTERS = ("script", "str", "show")
ARRAY_LEN = 4
ARRAY_INDEX = 1  # the element of an array that the host writes and kernels read
N_ARG = 2  # the value of the int32 argument ``n`` at every call
TARGETS = ("cuda", "opencl", "metal", "webgpu")
# the thread every kernel binds (extent 1): the rules of the host-scalar and VerifyMemory fixes
# hold for any launch, not only a threadIdx.x one
THREADS = ("threadIdx.x", "blockIdx.x", "threadIdx.y")
# host control flow around the whole body of main, definitions included (a cell allocated
# inside a host ``for`` or ``if`` is a host cell too): ``for w in range(1)`` or ``if n > 0``
WRAPS = ("none", "for", "if")
# the packed function the host hands a value or a pointer to (registered by the oracle; it
# does nothing): a host use of the value that is neither a load into a kernel nor a store
HOST_USE = "generator.host_use"
# kernel k stores the constant WRITE_BASE + k into each value it writes
WRITE_BASE = 4


@dataclass(frozen=True)
class Value:
    """A value defined at host level: ``v<index>``."""

    dtype: str
    spelling: str
    init: int  # the constant of its first value (an argument: the value passed)
    by_kernel: bool = False  # global/param: written by a kernel launched right after its definition
    alias: str = "direct"  # how kernels read it
    writer_module: bool = False  # the writing kernel is a module function main calls


@dataclass(frozen=True)
class Launch:
    kernel: int


@dataclass(frozen=True)
class Write:
    value: int
    const: int


@dataclass(frozen=True)
class HostUse:
    """The host hands value ``value`` (its element: a host load) or, with ``pointer``, its
    address through its alias form to ``generator.host_use``, a host function."""

    value: int
    pointer: bool = False


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
    # a device-target module function ``k<index>`` that main calls with pointers and scalars
    # (``Module.k0(v0.data, v1, o0_0.data)``), not a thread environment inside main
    module: bool = False
    # indices of the values it stores WRITE_BASE + k into, after its reads (a value it reads
    # and then writes: the read decides nothing, the store needs the pointer)
    writes: tuple = ()


@dataclass(frozen=True)
class Program:
    target: str
    values: tuple
    kernels: tuple
    steps: tuple
    # kernels index one-element buffers with their thread variable (extent 1), not 0
    index_var: bool = False
    # module kernels name their parameters as main names its values (v0, o0_0)
    shared_names: bool = False
    # compiled in a pass context with ``testing.immutable_module``
    immutable: bool = False
    printer: str = "script"  # the entry point clause (f) prints with (PRINTERS)
    thread: str = "threadIdx.x"  # the thread every kernel binds (THREADS)
    wrap: str = "none"  # host control flow around main's body (WRAPS)


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
    if value.spelling in DEVICE:
        return not value.by_kernel
    return value.spelling == "assign" and line == "tvm"


def in_memory(value, line):
    """Whether the value is a buffer at host level (on 0.27 plain assignment is a cell)."""
    return value.spelling in ("cell", *MEMORY) or (value.spelling == "assign" and line == "tvm")


def host_memory(value, line):
    return in_memory(value, line) and value.spelling not in DEVICE


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
    for i, verb in _host_device_access_list(program):
        return f"v{i}: the host {verb} device memory"
    launched = [
        program.kernels[s.kernel] for s in iter_steps(program.steps) if isinstance(s, Launch)
    ]
    for i in sorted({w for k in launched for w in k.writes}):
        if _host_memory_in(program, i, line):
            spelling = program.values[i].spelling
            return f"v{i}: a kernel needs a pointer to host memory ({spelling}, a kernel store)"
    for i, value in enumerate(program.values):
        if value.spelling == "shared" and _host_memory_in(program, i, line):
            # a host use makes it host memory, which the kernel that writes it cannot reach
            return f"v{i}: a kernel needs a pointer to host memory (shared, a host use)"
    used = {r for k in launched for r in k.reads}
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


def host_device_accesses(program):
    """The values whose device memory the host loads or stores (each is an error of its own,
    which VerifyMemory must name)."""
    return sorted({i for i, _verb in _host_device_access_list(program)})


def _host_device_access_list(program):
    """[(value, "stores into" or "loads")]: the host's accesses to device memory in program order
    (a definition's first store, then the steps)."""
    values = program.values
    found = [
        (i, "stores into") for i, v in enumerate(values) if v.spelling in DEVICE and not v.by_kernel
    ]
    for step in iter_steps(program.steps):
        if isinstance(step, Write) and values[step.value].spelling in DEVICE:
            found.append((step.value, "stores into"))
        if isinstance(step, HostUse) and not step.pointer:
            if values[step.value].spelling in ("global", "param"):
                found.append((step.value, "loads"))
    return found


def _host_memory_in(program, i, line):
    """Whether value ``i`` is host memory in ``program``: a host buffer, or a ``local``
    buffer only kernels would use that the host hands to a host function or loads."""
    value = program.values[i]
    if value.spelling == "shared":
        return any(isinstance(s, HostUse) and s.value == i for s in iter_steps(program.steps))
    return host_memory(value, line)


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
                for w in k.writes:
                    env[w] = constant(program.values[w].dtype, WRITE_BASE + step.kernel)
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


def _ptr_ty(line, dtype, scope):
    if line == "tvm":
        return f'T.handle("{dtype}", "{scope}")'
    return f'T.Ptr(T.{dtype}, "{scope}")'


def _target_attr(program):
    if program.target == "cuda":  # an arch, as the oracle's target has (tvm-tirx needs one)
        return 'T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"})})'
    return f'T.func_attr({{"target": T.target("{program.target}")}})'


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


def _thread(program):
    return getattr(program, "thread", "threadIdx.x")


def _kernel(w, body_lines):
    thread = _thread(getattr(w, "program", None))
    if w.line == "tvm":
        w.emit(f'for t in T.thread_binding(1, thread="{thread}"):')
    else:
        w.emit(f'with T.launch_thread("{thread}", 1) as t:')
    w.depth += 1
    for text in body_lines:
        w.emit(text)
    w.depth -= 1


def _store(dtype, target, value_text, index="0"):
    if lanes(dtype) == 1:
        return f"{target}[{index}] = {value_text}"
    return f"{target}[T.Ramp(0, 1, {lanes(dtype)})] = {value_text}"


def _one(value, program):
    """The index of a one-element buffer inside a kernel: 0, or the kernel's thread variable
    (extent 1) with ``program.index_var``."""
    return "t" if program is not None and program.index_var else "0"


def read_name(i, value, line, program=None):
    """How an inline kernel reads value ``i``."""
    name = f"v{i}"
    if not in_memory(value, line):
        return name
    if value.spelling == "cell" or (value.spelling == "assign" and line == "tvm"):
        return name  # the scalar sugar reads the cell
    suffix = {"direct": "", "decl": "_d", "address_of": "_a", "letptr": "_v"}.get(value.alias, "")
    suffix = {"kernel_address_of": "_k", "byte_offset": "_o"}.get(value.alias, suffix)
    if value.alias in ONE_ELEMENT_VIEWS or _shape(value) == 1:
        index = _one(value, program)
    else:
        index = _index(value)
    return f"{name}{suffix}[{index}]"


# the alias forms that view the element alone (one element at its address)
ONE_ELEMENT_VIEWS = ("address_of", "kernel_address_of", "byte_offset")


def _offset_pointer(i, value):
    """The element's address as pointer arithmetic on ``v<i>.data``, nested once."""
    nbytes = _index(value) * np_dtype(value.dtype).itemsize
    return f"T.handle_add_byte_offset(T.handle_add_byte_offset(v{i}.data, 0), {nbytes})"


def _by_value(value, line):
    """Whether a module kernel gets the value itself (a scalar parameter), not a pointer."""
    if not in_memory(value, line):
        return True
    if value.spelling == "cell" or (value.spelling == "assign" and line == "tvm"):
        return True
    return host_memory(value, line) and value.alias == "direct"


def _pointer_arg(i, value):
    """The pointer main hands a module kernel for value ``i`` (through its alias form)."""
    name = f"v{i}"
    if value.alias == "decl":
        return f"{name}_d.data"
    if value.alias == "address_of":
        return f"T.address_of({name}[{_index(value)}])"
    if value.alias == "letptr":
        return f"{name}_p"
    if value.alias == "byte_offset":
        return _offset_pointer(i, value)
    return f"{name}.data"


def _module_kernel(program, line, k):
    """The module function of kernel ``k``: (its text lines, main's call of it). Its pointer
    parameters come first, then its scalars, as SplitHostDevice orders a kernel's (Metal's
    code generator takes them in that order)."""
    kernel = program.kernels[k]
    shared = program.shared_names
    pointers, scalars, decls, body = [], [], [], []
    idx = "t" if program.index_var else "0"
    for j, r in enumerate(kernel.reads):
        v = program.values[r]
        pname = f"v{r}" if shared else f"a{j}"
        if _by_value(v, line):
            if in_memory(v, line) and v.spelling not in ("cell", "assign"):
                arg = f"v{r}[{_index(v)}]"
            else:
                arg = f"v{r}"
            scalars.append((f"{pname}: {_ty(v.dtype)}", arg))
            src = pname
        else:
            src = _pointer_param(line, r, v, pname, idx, pointers, decls)
        out = f"o{k}_{j}" if shared else f"b{j}"
        pointers.append((f"{out}: {_ptr_ty(line, elem(v.dtype), 'global')}", f"o{k}_{j}.data"))
        decls.append(f"{out}_b = {_decl(line, elem(v.dtype), lanes(v.dtype), out, 'global')}")
        body.append(_store(v.dtype, f"{out}_b", src, idx))
    for r in kernel.writes:  # a pointer of its own: a value read by value is written too
        v = program.values[r]
        pname = f"v{r}_w" if shared else f"w{len(pointers)}"
        element = _pointer_param(line, r, v, pname, idx, pointers, decls)
        body.append(f"{element} = {_const(v.dtype, WRITE_BASE + k)}")
    params = [p for p, _ in pointers + scalars]
    args = [a for _, a in pointers + scalars]
    return _function_lines(line, f"k{k}", params, program, decls, body), (
        f"Module.k{k}({', '.join(args)})"
    )


def _pointer_param(line, r, v, pname, idx, pointers, decls):
    """Add the pointer parameter ``pname`` that main fills with value ``r``'s address (through
    its alias form) and the kernel's view of it; return the element the kernel accesses."""
    scope = _scope(v)
    n = 1 if v.alias in ("address_of", "byte_offset") else _shape(v)  # a view of the element
    pointers.append((f"{pname}: {_ptr_ty(line, v.dtype, scope)}", _pointer_arg(r, v)))
    decls.append(f"{pname}_b = {_decl(line, v.dtype, n, pname, scope)}")
    return f"{pname}_b[{idx if n == 1 else _index(v)}]"


def _writer_module(program, line, i):
    """The module function that writes value ``i`` (a device buffer a kernel fills)."""
    v = program.values[i]
    pname = f"v{i}" if program.shared_names else "a0"
    params = [f"{pname}: {_ptr_ty(line, v.dtype, _scope(v))}"]
    decls = [f"{pname}_b = {_decl(line, v.dtype, 1, pname, _scope(v))}"]
    idx = "t" if program.index_var else "0"
    body = [_store(v.dtype, f"{pname}_b", _const(v.dtype, v.init), idx)]
    return _function_lines(line, f"w{i}", params, program, decls, body), f"Module.w{i}(v{i}.data)"


def _function_lines(line, name, params, program, decls, body):
    deco = "    @T.prim_func(private=True)" if line == "tvm" else "    @T.function(private=True)"
    out = [deco, f"    def {name}({', '.join(params)}):", "        " + _target_attr(program)]
    out += ["        " + d for d in decls]
    thread = _thread(program)
    if line == "tvm":
        out.append(f'        t = T.launch_thread("{thread}", 1)')
        out += ["        " + b for b in body]
    else:
        out.append(f'        with T.launch_thread("{thread}", 1) as t:')
        out += ["            " + b for b in body]
    return out


def render(program, line):
    """The TVMScript text of ``program`` on ``line`` ("tvm" or "tirx")."""
    w = _Writer(line)
    w.program = program
    w.calls = {}
    functions = []
    for i, v in enumerate(program.values):
        if v.by_kernel and v.writer_module:
            text, call = _writer_module(program, line, i)
            functions += [*text, ""]
            w.calls[("w", i)] = call
    launched = {s.kernel for s in iter_steps(program.steps) if isinstance(s, Launch)}
    for k, kernel in enumerate(program.kernels):
        if kernel.module and k in launched:  # a function no one calls is no kernel
            text, call = _module_kernel(program, line, k)
            functions += [*text, ""]
            w.calls[("k", k)] = call
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
    head += functions
    deco = "    @T.prim_func" if line == "tvm" else "    @T.function"
    head += [deco, f"    def main({', '.join(params)}):"]
    for text in pre:
        w.emit(text)
    if line == "tvm":
        w.emit('T.func_attr({"tirx.noalias": True})')
    wrap = getattr(program, "wrap", "none")
    if wrap != "none":
        w.emit("for w in range(1):" if wrap == "for" else "if n > 0:")
        w.depth += 1
    for i, v in enumerate(program.values):
        _define(w, i, v)
    _steps(w, program, program.steps)
    if not any(isinstance(s, Launch) for s in iter_steps(program.steps)):
        w.emit("T.evaluate(0)")
    return "\n".join(head + w.lines) + "\n"


def _define(w, i, v):
    name, line = f"v{i}", w.line
    program = getattr(w, "program", None)
    if v.spelling == "let":
        w.emit(f"{name}: T.let[{_ty(v.dtype)}] = {_expr(v.dtype, v.init)}")
    elif v.spelling == "cell":
        w.emit(f"{name}: {_ty(v.dtype)} = {_expr(v.dtype, v.init)}")
    elif v.spelling == "assign":
        w.emit(f"{name} = {_expr(v.dtype, v.init)}")
    elif v.spelling in ("buffer", "array", "global", "shared"):
        w.emit(f"{name} = {_alloc(line, v.dtype, _shape(v), _scope(v))}")
    # a host store into device memory through an alias is that alias's only access: the alias
    # is declared first (VerifyMemory must follow it)
    through = v.spelling in DEVICE and not v.by_kernel and _host_alias(v)
    if through:
        _alias(w, i, v)
        w.emit(f"{read_name(i, v, line)} = {_expr(v.dtype, v.init)}")
    elif v.spelling in ("buffer", "array") or (v.spelling in DEVICE and not v.by_kernel):
        w.emit(
            _store(v.dtype, f"{name}", _expr(v.dtype, v.init)).replace("[0]", f"[{_index(v)}]", 1)
        )
    if v.by_kernel:
        if ("w", i) in getattr(w, "calls", {}):
            w.emit(w.calls[("w", i)])
        else:
            _kernel(w, [_store(v.dtype, name, _const(v.dtype, v.init), _one(v, program))])
    if not through:
        _alias(w, i, v)


def _host_alias(v):
    return lanes(v.dtype) == 1 and v.alias in ("decl", "address_of", "letptr", "byte_offset")


def _alias(w, i, v):
    """The declaration of value ``i``'s alias form, if it has one."""
    name, line = f"v{i}", w.line
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
    elif v.alias == "byte_offset":
        w.emit(f"{name}_o = {_decl(line, v.dtype, 1, _offset_pointer(i, v), scope)}")
    elif v.alias == "letptr":
        if line == "tvm":
            w.emit(f'{name}_p: T.let[T.handle("{v.dtype}", "{scope}")] = {name}.data')
        else:
            w.emit(f"{name}_p = {name}.data")
        w.emit(f"{name}_v = {_decl(line, v.dtype, n, f'{name}_p', scope)}")


def _kernel_views(w, program, kernel):
    """The views an inline kernel declares at an element's address (``kernel_address_of``)."""
    lines = []
    for r in dict.fromkeys(kernel.reads + kernel.writes):
        v = program.values[r]
        if v.alias == "kernel_address_of" and in_memory(v, w.line):
            data = f"T.address_of(v{r}[{_index(v)}])"
            lines.append(f"v{r}_k = {_decl(w.line, v.dtype, 1, data, _scope(v))}")
    return lines


def _steps(w, program, steps):
    for step in steps:
        if isinstance(step, Launch):
            kernel = program.kernels[step.kernel]
            if kernel.module:
                w.emit(w.calls[("k", step.kernel)])
                continue
            body = _kernel_views(w, program, kernel)
            idx = _one(None, program)
            for j, r in enumerate(kernel.reads):
                v = program.values[r]
                text = read_name(r, v, w.line, program)
                body.append(_store(v.dtype, f"o{step.kernel}_{j}", text, idx))
            for r in kernel.writes:
                v = program.values[r]
                const = _const(v.dtype, WRITE_BASE + step.kernel)
                body.append(f"{read_name(r, v, w.line, program)} = {const}")
            _kernel(w, body)
        elif isinstance(step, Write):
            v = program.values[step.value]
            name = f"v{step.value}"
            if v.spelling in ("cell", "assign"):
                w.emit(f"{name} = {_expr(v.dtype, step.const)}")
            elif _host_alias(v):
                # the host writes through the alias kernels read it by (VerifyMemory
                # follows every alias form of a host access to device memory)
                w.emit(f"{read_name(step.value, v, w.line)} = {_expr(v.dtype, step.const)}")
            else:
                target = f"{name}"
                text = _store(v.dtype, target, _expr(v.dtype, step.const))
                w.emit(text.replace("[0]", f"[{_index(v)}]", 1))
        elif isinstance(step, HostUse):
            v = program.values[step.value]
            if step.pointer:
                arg = _pointer_arg(step.value, v)
            elif v.alias == "kernel_address_of":  # a view only kernels declare
                arg = f"v{step.value}[{_index(v)}]"
            else:
                arg = read_name(step.value, v, w.line)
            w.emit(f'T.evaluate(T.call_packed("{HOST_USE}", {arg}))')
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

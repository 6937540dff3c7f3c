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
"""A CPU replay of what the host hands each kernel (oracle clause (c)), on either TVM line.

The module right after SplitHostDevice is taken apart: its host function has every
``call_ffi_kernel`` replaced by ``call_packed("generator.record", <kernel>, <args>)`` and is
built for llvm and run on the CPU with concrete arguments (the int32 ``n`` = 2, each argument
value, CPU tensors for the buffers). At each launch the recorder interprets the kernel itself
(the few statement and expression kinds the generator's kernels are made of) on the arguments
the host passed: scalar parameters are the values received, pointer parameters are real host
addresses (the replay allocates every buffer on the CPU), so the kernel's stores land in the
output tensors, which are read after every launch. What the kernels read is then compared
with ``program.expected_launches``. A node the interpreter does not know makes the program
unjudged for (c) (counted, never a violation).
"""

import ctypes

import numpy as np

from generator import program as P


class Unjudged(Exception):
    """The replay cannot say (a construct it does not interpret, a host that does not build)."""


def _kind(node):
    return type(node).__name__


def _dtype_of(ty):
    text = str(ty)
    return text[2:] if text.startswith("T.") else text


def _np(dtype):
    """The numpy dtype of one lane of ``dtype``."""
    return P.np_dtype(dtype)


def _read(addr, dtype, index, count):
    """``count`` elements of ``dtype`` from element ``index`` on, lane by lane: an element of
    a vector dtype (``float32x4``) is its ``lanes`` values."""
    d, lanes = _np(dtype), P.lanes(dtype)
    size = d.itemsize * lanes
    raw = (ctypes.c_char * (size * count)).from_address(addr + index * size)
    return np.frombuffer(bytes(raw), dtype=d).copy()


def _write(addr, dtype, index, values):
    d = _np(dtype)
    data = np.asarray(values, dtype=d).tobytes()
    ctypes.memmove(addr + index * d.itemsize * P.lanes(dtype), data, len(data))


def _floordiv(a, b):
    return np.floor_divide(a, b) if np.all(b != 0) else a * 0


def _floormod(a, b):
    return np.mod(a, b) if np.all(b != 0) else a * 0


def _truncdiv(a, b):
    if not np.all(b != 0):
        return a * 0
    if np.issubdtype(a.dtype, np.integer):
        return (np.abs(a) // np.abs(b)) * np.sign(a) * np.sign(b)
    return a / b


_ARITH = {
    "Add": np.add,
    "Sub": np.subtract,
    "Mul": np.multiply,
    "Div": _truncdiv,
    "Mod": lambda a, b: a - _truncdiv(a, b) * b,
    "FloorDiv": _floordiv,
    "FloorMod": _floormod,
    "Min": np.minimum,
    "Max": np.maximum,
}
_COMPARE = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}
# bit operations (calls of the tirx ops; the narrow-scalar fix narrows through them)
_BITS = {
    "tirx.shift_right": np.right_shift,
    "tirx.shift_left": np.left_shift,
    "tirx.bitwise_and": np.bitwise_and,
    "tirx.bitwise_or": np.bitwise_or,
    "tirx.bitwise_xor": np.bitwise_xor,
}

# the same as expression nodes (``a >> b`` is an ``RShift`` node on both lines)
_BIT_NODES = {
    "RShift": np.right_shift,
    "LShift": np.left_shift,
    "BitwiseAnd": np.bitwise_and,
    "BitwiseOr": np.bitwise_or,
    "BitwiseXor": np.bitwise_xor,
}


class KernelReplay:
    """Interprets one kernel function on concrete arguments."""

    def __init__(self, func):
        self.func = func

    def run(self, args):
        self.vars = []
        self.views = []
        for param, arg in zip(self.func.params, args):
            self.vars.append((param, self._arg(param, arg)))
        self.stmt(self.func.body)

    @staticmethod
    def _arg(param, arg):
        if hasattr(arg, "value") and isinstance(arg, ctypes.c_void_p):
            return int(arg.value or 0)
        dtype = _dtype_of(param.ty)
        if "handle" in dtype or "Ptr" in dtype:
            return int(arg) if arg is not None else 0
        return np.asarray(arg).astype(_np(dtype))

    def lookup(self, pairs, key):
        for k, v in reversed(pairs):
            if k.same_as(key):
                return v
        raise Unjudged(f"unknown variable {key}")

    def view(self, key):
        return self.lookup(self.views, key)

    # statements
    def stmt(self, node):
        kind = _kind(node)
        if kind == "SeqStmt":
            for s in node.seq:
                self.stmt(s)
        elif kind == "DeclBuffer":
            buf = node.buffer
            self.views.append((buf, (int(self.expr(node.data)), str(buf.dtype))))
            self.views.append((buf.data, self.views[-1][1])) if hasattr(buf, "data") else None
        elif kind == "Bind":
            value = node.value
            if _kind(value) == "Call" and getattr(value.op, "name", "") == "tirx.decl_tensor":
                dtype = _dtype_of(node.var.ty.dtype)
                self.views.append((node.var, (int(self.expr(value.args[0])), dtype)))
            else:
                self.vars.append((node.var, self.expr(value)))
        elif kind == "AttrStmt":
            if node.attr_key == "thread_extent":
                self.vars.append((node.node.var, np.int32(0)))
            self.stmt(node.body)
        elif kind == "RegionStmt":
            for v in node.body_params if node.body_params is not None else ():
                self.vars.append((v, np.int32(0)))
            for v in node.result_vars if node.result_vars is not None else ():
                self.vars.append((v, np.int32(0)))
            self.stmt(node.body)
        elif kind in ("BufferStore", "TensorStore"):
            target = node.buffer if kind == "BufferStore" else node.dest
            addr, dtype = self.view(target)
            (index,) = [self.expr(i) for i in node.indices]
            value = self.expr(node.value)
            start = int(np.asarray(index).ravel()[0])
            _write(addr, dtype, start, np.asarray(value).ravel())
        elif kind == "Evaluate":
            pass
        else:
            raise Unjudged(f"statement {kind}")

    # expressions
    def expr(self, node):
        kind = _kind(node)
        if kind == "IntImm" or kind == "FloatImm":
            return np.asarray(node.value).astype(_np(_dtype_of(node.ty)))
        if kind == "Var":
            return self.lookup(self.vars, node)
        if kind == "Cast":
            dtype = _dtype_of(node.ty)
            value = np.asarray(self.expr(node.value))
            return value.astype(_np(dtype))
        if kind in _ARITH:
            a, b = np.asarray(self.expr(node.a)), np.asarray(self.expr(node.b))
            with np.errstate(all="ignore"):
                out = _ARITH[kind](a, b)
            return np.asarray(out).astype(a.dtype)
        if kind in _COMPARE:
            a, b = self.expr(node.a), self.expr(node.b)
            return np.asarray(_COMPARE[kind](a, b))
        if kind in ("And", "Or"):
            a, b = np.asarray(self.expr(node.a)), np.asarray(self.expr(node.b))
            return np.logical_and(a, b) if kind == "And" else np.logical_or(a, b)
        if kind in _BIT_NODES:
            a, b = np.asarray(self.expr(node.a)), np.asarray(self.expr(node.b))
            with np.errstate(all="ignore"):
                return np.asarray(_BIT_NODES[kind](a, b.astype(a.dtype))).astype(a.dtype)
        if kind == "BitwiseNot":
            return np.invert(np.asarray(self.expr(node.a)))
        if kind == "Not":
            return np.logical_not(self.expr(node.a))
        if kind == "Select":
            cond = self.expr(node.condition)
            return np.where(cond, self.expr(node.true_value), self.expr(node.false_value))
        if kind == "Broadcast":
            return np.full(int(node.lanes), self.expr(node.value))
        if kind == "Ramp":
            base, stride = self.expr(node.base), self.expr(node.stride)
            return np.asarray([base + stride * i for i in range(int(node.lanes))])
        if kind in ("TensorLoad", "BufferLoad"):
            source = getattr(node, "source", None)
            source = getattr(node, "buffer", None) if source is None else source
            addr, dtype = self.view(source)
            (index,) = [self.expr(i) for i in node.indices]
            flat = np.asarray(index).ravel()
            values = _read(addr, dtype, int(flat[0]), len(flat))
            return values if values.size > 1 else values[0]
        if kind == "Call":
            name = getattr(node.op, "name", "")
            if name in ("tirx.buffer_data", "tirx.tensor_data_ptr"):
                return self.view(node.args[0])[0]
            if name == "tirx.reinterpret":
                value = np.asarray(self.expr(node.args[0]))
                target = _np(_dtype_of(node.ty))
                if value.dtype.itemsize == target.itemsize:
                    return value.view(target)
                return value
            if name in _BITS:
                a, b = (np.asarray(self.expr(x)) for x in node.args)
                with np.errstate(all="ignore"):
                    return np.asarray(_BITS[name](a, b.astype(a.dtype))).astype(a.dtype)
            if name == "tirx.bitwise_not":
                return np.invert(np.asarray(self.expr(node.args[0])))
            if name == "tirx.if_then_else":
                cond = self.expr(node.args[0])
                return self.expr(node.args[1]) if bool(cond) else self.expr(node.args[2])
            if name == "tirx.address_of":
                load = node.args[0]
                source = getattr(load, "source", None)
                source = getattr(load, "buffer", None) if source is None else source
                addr, dtype = self.view(source)
                (index,) = [self.expr(i) for i in load.indices]
                return addr + int(index) * _np(dtype).itemsize * P.lanes(dtype)
            raise Unjudged(f"call {name}")
        raise Unjudged(f"expression {kind}")

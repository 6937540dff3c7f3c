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
"""Reference fix: a one-element buffer parameter's data pointer prints as ``A.data``.

The bug. The TVMScript printer writes a buffer that ``IsScalar()`` (one element, the default
layout) through the scalar shorthand: an expression naming such a buffer prints as
``A.buffer`` (``A.source`` on 0.27), so that ``c.buffer.data`` reaches the buffer of a scalar
cell, whose name the parser binds to its value. A function parameter is such a buffer too
(``A: T.Buffer((1,), "float32")``), but the parser binds a parameter's name to the buffer
itself: ``buffer_data(A)`` prints as ``A.buffer.data``, which does not parse ("'Var' object
has no attribute 'buffer'"). FlattenBuffer writes exactly that for every one-element
parameter (``A_1 = T.decl_buffer((1,), data=A.data, layout=None)``), so its output, and any
function declaring a view over such a parameter, does not survive print -> parse.

Upstream change (blueprint): ``src/tirx/script/printer/expr.cc``, the ``tirx::Var`` dispatch
for buffers: the ``->Attr("buffer")`` special case only for buffers the printer declares as
scalars (``alloc_scalar`` / ``decl_scalar`` and the ``c: T.float32`` sugar), not for the
function's parameters, which ``function.cc`` declares as ``T.Buffer`` (e.g. a set of the
parameter buffers in the function's frame, consulted there). The same holds for
``PrintTIRCall``'s ``buffer_data``, which prints through that dispatch.

``install()`` stands in for it by rewriting the printed text (``Scriptable.script``): for each
one-element parameter that the printer takes for a scalar, ``A.buffer.`` / ``A.source.``
becomes ``A.``; names of scalar cells keep their ``.buffer``. It returns the undo function.
"""

import re

import tvm_ffi

import tvm
import tvm.runtime.script_printer

_MARK = "_printer_param_data_fix"
# what the printer writes between a scalar buffer's name and its attributes: 0.27, main
_SUFFIX = r"\.(?:source|buffer)\."


def _is_scalar(buffer):
    return bool(tvm.tirx._ffi_api.BufferIsScalar(buffer, False))


def _functions(obj):
    if isinstance(obj, tvm.IRModule):
        return [f for f in obj.functions.values() if isinstance(f, tvm.tirx.PrimFunc)]
    return [obj] if isinstance(obj, tvm.tirx.PrimFunc) else []


def scalar_parameters(obj):
    """The names of the one-element buffer parameters of ``obj``'s functions that the printer
    writes as scalars."""
    return {
        p.name
        for func in _functions(obj)
        for p in func.params
        if isinstance(p.ty, tvm.tirx.BufferType) and _is_scalar(p)
    }


def scalar_declarations(obj):
    """The names of the scalar buffers ``obj`` allocates or declares (cells: their
    ``.buffer`` is right)."""
    found = set()

    def visit(node):
        if isinstance(node, tvm.tirx.AllocBuffer | tvm.tirx.DeclBuffer) and _is_scalar(node.buffer):
            found.add(node.buffer.name)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(obj, visit, order="pre")
    return found


def names_to_rewrite(obj):
    return scalar_parameters(obj) - scalar_declarations(obj)


def rewrite(text, names):
    """``A.buffer.x`` / ``A.source.x`` -> ``A.x`` for the names in ``names``."""
    for name in sorted(names):
        text = re.sub(rf"(?<![\w.]){re.escape(name)}{_SUFFIX}", f"{name}.", text)
    return text


def _script(original):
    def script(self, *args, **kwargs):
        text = original(self, *args, **kwargs)
        names = names_to_rewrite(self)
        return rewrite(text, names) if names else text

    setattr(script, _MARK, True)
    return script


def install():
    """Print a one-element parameter's attributes without the scalar ``.buffer``; return the
    undo function."""
    scriptable = tvm.runtime.script_printer.Scriptable
    saved = scriptable.script
    if getattr(saved, _MARK, False):
        return lambda: None
    scriptable.script = _script(saved)

    def uninstall():
        scriptable.script = saved

    return uninstall

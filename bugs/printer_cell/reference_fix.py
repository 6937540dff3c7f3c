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
"""Reference fix: a one-element cell keeps its annotations and scope through print -> parse.

The bug. The TVMScript printer writes a one-element buffer allocation (``AllocBuffer`` of a
buffer that ``IsScalar(true)``) as the scalar sugar ``c: T.float32`` (``c: T.float32 = v``
once merged with its first store), whatever the allocation's annotations and the buffer's
storage scope. The parser reads the sugar back as ``T.local_scalar``: a fresh ``local``
buffer without annotations. So ``T.alloc_local((1,), "float32", annotations={"device_type":
1})`` or ``T.alloc_buffer((1,), "float32", scope="shared")`` does not survive print -> parse:
``assert_structural_equal`` fails at the annotations or at the storage scope.

Upstream change (blueprint), three places:

P1  ``src/tirx/script/printer/stmt.cc``, ``AllocBufferDoc``: the sugar only when it is exact,
    i.e. also ``stmt->annotations.empty()`` and ``buffer.scope() == "local"``; otherwise the
    full declaration.
P2  ``src/tirx/script/printer/buffer.cc``, ``BufferDecl``: the full declaration of a scalar
    buffer (``T.local_scalar`` / ``T.shared_scalar`` / ``T.alloc_scalar``) prints its dtype as
    a string literal: the builder functions take a dtype string, not the ``T.float32``
    constructor the printer writes today.
P3  ``python/tvm/tirx/script/builder/ir.py``: ``alloc_scalar``, ``local_scalar`` and
    ``shared_scalar`` take ``annotations`` and pass them to ``alloc_buffer``.

``install()`` does P3 as written, stands in for P1 by printing without syntax sugar any object
that holds a cell the sugar would change (``tvm.runtime.script_printer._script``, which every
printing entry point calls), and for P2 by writing the dtype of a cell's full declaration as
the string the C++ printer writes (the cells' dtypes, from the IR, after ``T.<scope>_scalar(``,
the one place the released printer writes them as ``T.float32``): the same text as the C++ fix
for such a declaration, a plainer text for the rest of such objects (nothing else is printed
differently). It returns a function that restores everything.
"""

import re
import sys

import tvm_ffi

import tvm
import tvm.runtime.script_printer
import tvm.tirx.script.builder.ir as builder

_SCALAR_FUNCS = ("alloc_scalar", "local_scalar", "shared_scalar")


def alloc_scalar(dtype="float32", scope="global", annotations=None):
    """P3: ``alloc_scalar`` with the allocation's annotations."""
    buf = builder.alloc_buffer(
        shape=(1,),
        dtype=dtype,
        scope=scope,
        layout=builder.TileLayout(builder.S[1]),
        annotations=annotations,
    )
    scalar = buf[0]
    if builder._current_meta_construction_scope() is not None:
        return scalar
    return builder.scalar_wrapper(scalar)


def local_scalar(dtype="float32", annotations=None):
    """P3: ``local_scalar`` with the allocation's annotations."""
    return alloc_scalar(dtype, "local", annotations)


def shared_scalar(dtype="float32", annotations=None):
    """P3: ``shared_scalar`` with the allocation's annotations."""
    return alloc_scalar(dtype, "shared", annotations)


_REPLACEMENTS = {
    "alloc_scalar": alloc_scalar,
    "local_scalar": local_scalar,
    "shared_scalar": shared_scalar,
}


def scalar_cells(obj):
    """The allocations of one-element buffers in ``obj``, the cells the sugar may print."""
    found = []

    def visit(node):
        if isinstance(node, tvm.tirx.AllocBuffer) and _is_scalar_cell(node.buffer):
            found.append(node)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(obj, visit, order="pre")
    return found


def sugar_would_change(obj, cells=None):
    """Whether ``obj`` holds a one-element cell that the scalar sugar cannot express: an
    allocation with annotations, or a buffer outside ``local`` scope."""
    return any(
        len(node.annotations) > 0 or _scope(node.buffer) != "local"
        for node in (scalar_cells(obj) if cells is None else cells)
    )


def _scope(buffer):
    return str(buffer.ty.storage_scope) or "global"


def _is_scalar_cell(buffer):
    ty = buffer.ty
    shape = list(ty.shape)
    return len(shape) == 1 and getattr(shape[0], "value", None) == 1


# the PrinterConfig fields copied as they are (dtypes as strings) into an unsugared config
_CONFIG_FIELDS = ("show_meta", "ir_prefix", "module_alias", "verbose_expr", "indent_spaces",
                  "print_line_numbers", "num_context_lines", "show_object_address")  # fmt: skip
_DTYPE_FIELDS = ("buffer_dtype", "int_dtype", "float_dtype")


def without_sugar(config):
    """``config`` (a PrinterConfig, or None for the defaults) with ``syntax_sugar`` off."""
    printer = tvm.runtime.script_printer
    if config is None:
        return printer.PrinterConfig(syntax_sugar=False)
    cfg = {f: getattr(config, f) for f in _CONFIG_FIELDS}
    cfg.update({f: str(getattr(config, f)) for f in _DTYPE_FIELDS})
    names = list(config.binding_names)
    if names:
        cfg["name"] = str(names[0])
    if config.extra_config is not None:
        cfg["extra_config"] = dict(config.extra_config)
    for f in ("path_to_underline", "obj_to_underline"):
        cfg[f] = list(getattr(config, f))
    for f in ("path_to_annotate", "obj_to_annotate"):
        cfg[f] = dict(getattr(config, f))
    cfg["syntax_sugar"] = False
    new = printer.PrinterConfig.__new__(printer.PrinterConfig)
    new.__init_handle_by_constructor__(printer._ffi_node_api.PrinterConfig, cfg)
    return new


def _script(original):
    """``tvm.runtime.script_printer._script``, which every printing entry point calls
    (``script()``, ``show()``, ``str``, ``repr``, ``print``), with P1."""

    def script(obj, config):
        cells = scalar_cells(obj)
        sugar = config is None or config.syntax_sugar
        if sugar and sugar_would_change(obj, cells):
            config = without_sugar(config)  # P1: the full declaration of such a cell
        text = original(obj, config)
        # P2: the full declaration of a cell names its dtype as a string; the released printer
        # writes the dtype's constructor there, the only place a cell's dtype follows
        # ``T.<scope>_scalar(``
        for dtype in sorted({str(node.buffer.dtype) for node in cells}):
            text = re.sub(
                rf"\bT\.(alloc|local|shared)_scalar\(T\.{re.escape(dtype)}\b",
                rf'T.\1_scalar("{dtype}"',
                text,
            )
        return text

    script._printer_cell_fix = True
    return script


def install():
    """Install P1 (as unsugared printing of the objects it concerns), P2 and P3; return the
    undo function."""
    printer = tvm.runtime.script_printer
    if getattr(printer._script, "_printer_cell_fix", False):
        return lambda: None
    saved = [(printer, "_script", printer._script)]
    printer._script = _script(printer._script)
    for module in list(sys.modules.values()):
        for name in _SCALAR_FUNCS:
            if getattr(module, name, None) is getattr(builder, name):
                saved.append((module, name, getattr(module, name)))
    for module, name, _ in saved[1:]:
        setattr(module, name, _REPLACEMENTS[name])

    def uninstall():
        for module, name, value in saved:
            setattr(module, name, value)

    return uninstall

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
"""The TIR names a reference fix needs, on either TVM line (this repository only).

Two lines carry TIRx: apache/tvm (``import tvm``: ``T.prim_func``, ``T.Buffer``, buffers
declared by ``DeclBuffer``, accesses ``BufferStore``/``BufferLoad``, kernels opened by a
``thread_extent`` attribute) and the extracted apache/tvm-tirx (``import tvm_tirx``:
``T.function``, ``T.Tensor``, views bound by ``Bind(v, decl_tensor(...))``, accesses
``TensorStore``/``TensorLoad``, kernels opened by a ``launch_thread`` or ``device_scope``
region). A reference
fix is written once against the names below; ``LINE`` says which line was found (apache/tvm
when both import).
"""

from types import SimpleNamespace

import tvm_ffi

try:
    import tvm
    import tvm.tirx

    LINE = "tvm"
except ImportError:
    tvm = None
    import tvm_tirx

    LINE = "tvm_tirx"


def _classes(*candidates):
    return tuple(c for c in candidates if isinstance(c, type))


if LINE == "tvm":
    import tvm.s_tir
    import tvm.tirx.analysis
    import tvm.tirx.transform
    from tvm.tirx.transform import _ffi_api as _transform_ffi

    def _is_thread_env(node):
        return isinstance(node, tvm.tirx.AttrStmt) and node.attr_key == "thread_extent"

    ir = SimpleNamespace(
        Var=tvm.tirx.Var,
        Call=tvm.ir.expr.Call,
        Op=tvm.ir.Op,
        PrimFunc=tvm.tirx.PrimFunc,
        Bind=tvm.tirx.Bind,
        DeclBuffer=tvm.tirx.DeclBuffer,
        SBlock=tvm.s_tir.SBlock,
        Store=tvm.tirx.BufferStore,
        # a load is ``tvm.ir.expr.TensorLoad`` in the released wheel, ``BufferLoad`` before
        LOADS=_classes(
            getattr(tvm.ir.expr, "TensorLoad", None), getattr(tvm.tirx, "BufferLoad", None)
        ),
        is_thread_env=_is_thread_env,
        is_buffer_var=tvm.tirx.is_buffer_var,
        PointerType=tvm.ir.PointerType,
        PrimType=tvm.ir.PrimType,
        GlobalVar=tvm.ir.GlobalVar,
        StringImm=tvm.ir.StringImm,
        Cast=tvm.tirx.Cast,
        SeqStmt=tvm.tirx.SeqStmt,
        module_pass=tvm.transform.module_pass,
        transform=tvm.tirx.transform,
        transform_ffi=_transform_ffi,
        analysis=tvm.tirx.analysis,
    )

    def call_like(call, args):
        """``call`` with other arguments."""
        return tvm.ir.Call(call.op, args, call.attrs, call.ty_args, span=call.span, ret_ty=call.ty)

else:
    import tvm_tirx.tirx.analysis
    import tvm_tirx.tirx.transform
    from tvm_tirx.tirx.transform import _ffi_api as _transform_ffi

    # regions whose body becomes a kernel: a thread launch, and a device scope (outlined into
    # a single-threaded kernel by SplitHostDevice)
    _DEVICE_REGIONS = ("tirx.launch_thread", "tirx.device_scope")

    def _is_thread_env(node):
        return isinstance(node, tvm_tirx.ir.RegionStmt) and node.op.name in _DEVICE_REGIONS

    ir = SimpleNamespace(
        Var=tvm_tirx.ir.Var,
        Call=tvm_tirx.ir.Call,
        Op=tvm_tirx.ir.Op,
        PrimFunc=tvm_tirx.tirx.Function,
        Bind=tvm_tirx.ir.Bind,
        DeclBuffer=None,  # views are Bind(v, decl_tensor(data, ...))
        SBlock=None,  # no S-TIR blocks, no match_buffer
        Store=tvm_tirx.ir.TensorStore,
        LOADS=(tvm_tirx.ir.TensorLoad,),
        is_thread_env=_is_thread_env,
        is_buffer_var=tvm_tirx.tirx.is_tensor_var,
        PointerType=tvm_tirx.ir.PtrType,
        PrimType=tvm_tirx.ir.PrimType,
        GlobalVar=tvm_tirx.ir.GlobalVar,
        StringImm=tvm_tirx.ir.StringImm,
        Cast=tvm_tirx.tirx.Cast,
        SeqStmt=tvm_tirx.ir.SeqStmt,
        module_pass=tvm_tirx.ir.transform.module_pass,
        transform=tvm_tirx.tirx.transform,
        transform_ffi=_transform_ffi,
        analysis=tvm_tirx.tirx.analysis,
    )

    def call_like(call, args):
        """``call`` with other arguments."""
        return tvm_tirx.ir.Call(call.op, args, call.attrs, call.ty_args, call.loc, ty=call.ty)


def function_like(func, params, body):
    """A function like ``func`` (return type, attributes) with other parameters and body."""
    return type(func)(params, body, func.ret_type, func.attrs)


def stored(node):
    """The variable a store writes (``buffer`` on apache/tvm, ``dest`` on tvm-tirx)."""
    for field in ("buffer", "dest"):
        value = getattr(node, field, None)
        if value is not None:
            return value
    return None


def loaded(node):
    """The variable a load or a region names (``buffer`` in older trees, ``source`` in the
    released wheel and on tvm-tirx), or None when it names no variable."""
    value = getattr(node, "buffer", None)
    if value is None:
        value = getattr(node, "source", None)
    return value if isinstance(value, ir.Var) else None


# calls whose value points into the memory of one of their operands: that operand's position
POINTER_ARITHMETIC = {
    "tirx.buffer_data": 0,
    "tirx.reinterpret": 0,
    "tirx.handle_add_byte_offset": 0,
    "tirx.ptr_byte_offset": 0,
    "tirx.tvm_access_ptr": 1,
}


def pointer_base(ptr, operands=POINTER_ARITHMETIC):
    """The variable whose memory the pointer ``ptr`` points into, or None: ``ptr`` itself when
    it is a variable, ``X`` of ``address_of(X[...])``, and through the calls of ``operands``
    ({op name: position of the operand pointed into}) in any nesting."""
    if isinstance(ptr, ir.Var):
        return ptr
    if not isinstance(ptr, ir.Call) or not isinstance(ptr.op, ir.Op) or not ptr.args:
        return None
    if ptr.op.name == "tirx.address_of":
        return loaded(ptr.args[0]) if isinstance(ptr.args[0], ir.LOADS) else None
    position = operands.get(ptr.op.name)
    if position is None or len(ptr.args) <= position:
        return None
    return pointer_base(ptr.args[position], operands)


walk = tvm_ffi.structural_walk
WalkResult = tvm_ffi.WalkResult

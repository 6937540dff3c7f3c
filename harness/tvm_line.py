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
region, allocations bound by ``Bind(v, alloc_tensor(...))`` with their annotations in the
call's ``attrs``, and LowerTVMBuiltin's workspaces bound by
``Bind(v, decl_tensor(alloc_workspace(...)))``). A reference fix is written once against the
names below; ``LINE`` says which line was found (apache/tvm when both import).
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

    # the AttrStmt keys that open a device region (where SplitHostDevice's annotator splits)
    _DEVICE_REGION_KEYS = ("target", "thread_extent", "device_scope")

    def _is_device_region(node):
        return isinstance(node, tvm.tirx.AttrStmt) and node.attr_key in _DEVICE_REGION_KEYS

    ir = SimpleNamespace(
        Var=tvm.tirx.Var,
        Call=tvm.ir.expr.Call,
        Op=tvm.ir.Op,
        PrimFunc=tvm.tirx.PrimFunc,
        Bind=tvm.tirx.Bind,
        DeclBuffer=tvm.tirx.DeclBuffer,
        SBlock=tvm.s_tir.SBlock,
        Store=tvm.tirx.BufferStore,
        Stmt=tvm.tirx.Stmt,
        IntImm=tvm.tirx.IntImm,
        const=tvm.tirx.const,
        # a load is ``tvm.ir.expr.TensorLoad`` in the released wheel, ``BufferLoad`` before
        LOADS=_classes(
            getattr(tvm.ir.expr, "TensorLoad", None), getattr(tvm.tirx, "BufferLoad", None)
        ),
        is_thread_env=_is_thread_env,
        is_device_region=_is_device_region,
        is_buffer_var=tvm.tirx.is_buffer_var,
        PointerType=tvm.ir.PointerType,
        PrimType=tvm.ir.PrimType,
        GlobalVar=tvm.ir.GlobalVar,
        StringImm=tvm.ir.StringImm,
        Cast=tvm.tirx.Cast,
        SeqStmt=tvm.tirx.SeqStmt,
        module_pass=tvm.transform.module_pass,
        PassContext=tvm.transform.PassContext,
        function_pass=tvm.tirx.transform.prim_func_pass,
        Sequential=tvm.transform.Sequential,
        transform=tvm.tirx.transform,
        transform_ffi=_transform_ffi,
        analysis=tvm.tirx.analysis,
        # LowerTVMBuiltin's workspace calls, and how a user allocates a buffer
        ALLOC_WORKSPACE="tirx.TVMBackendAllocWorkspace",
        FREE_WORKSPACE="tirx.TVMBackendFreeWorkspace",
        ALLOC_SPELLING="T.alloc_buffer",
    )

    def call_like(call, args):
        """``call`` with other arguments."""
        return tvm.ir.Call(call.op, args, call.attrs, call.ty_args, span=call.span, ret_ty=call.ty)

    def allocation(stmt):
        """(variable, annotations) of an allocation statement (``AllocBuffer``), or None."""
        if isinstance(stmt, tvm.tirx.AllocBuffer):
            return stmt.buffer, stmt.annotations
        return None

    def _single_span(stmt):
        """``stmt``'s span where AllocBuffer and DeclBuffer take it: the SequentialSpan of a
        statement a ``T.macro`` expanded is left out (None), which they refuse."""
        return stmt.span if isinstance(stmt.span, tvm.ir.Span) else None

    def allocation_with(stmt, annotations):
        """The allocation statement ``stmt`` with other annotations."""
        return tvm.tirx.AllocBuffer(stmt.buffer, annotations, _single_span(stmt))

    def scope_of(var):
        """The storage scope of a buffer variable ("global", "local", ...)."""
        return var.scope()

    def tensor_load(var, indices):
        """A load of ``var[indices]``."""
        return tvm.tirx.BufferLoad(var, list(indices))

    def workspace_of(stmt):
        """(variable, workspace call) of an allocation LowerTVMBuiltin lowered to a workspace
        (``DeclBuffer(v, data=TVMBackendAllocWorkspace(...))``), or None."""
        if isinstance(stmt, tvm.tirx.DeclBuffer) and _is_call_of(stmt.data, ir.ALLOC_WORKSPACE):
            return stmt.buffer, stmt.data
        return None

    def workspace_with(stmt, call):
        """The lowered allocation ``stmt`` with another workspace call."""
        return tvm.tirx.DeclBuffer(stmt.buffer, data=call, span=_single_span(stmt))

    _DISABLE_LOWER_BUILTIN = "disable_lower_builtin"

    def lowered_on_cpu(stmt):
        """Before LowerTVMBuiltin: the allocation ``stmt`` as the pass leaves an allocation of
        the CPU on the stack (the pass skips one annotated ``disable_lower_builtin``)."""
        annotations = dict(stmt.annotations) if stmt.annotations is not None else {}
        annotations[_DISABLE_LOWER_BUILTIN] = tvm.tirx.const(1, "int32")
        return allocation_with(stmt, annotations)

    def left_on_cpu(stmt):
        """After LowerTVMBuiltin: ``stmt`` (of ``lowered_on_cpu``) without its mark."""
        annotations = dict(stmt.annotations)
        annotations.pop(_DISABLE_LOWER_BUILTIN, None)
        return allocation_with(stmt, annotations)

    def skips_lowering(annotations):
        """Whether LowerTVMBuiltin leaves an allocation with ``annotations`` alone: a nonzero
        ``disable_lower_builtin``."""
        flag = annotations.get(_DISABLE_LOWER_BUILTIN)
        return flag is not None and int(flag) != 0

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
        Stmt=tvm_tirx.ir.Stmt,
        IntImm=tvm_tirx.ir.IntImm,
        const=tvm_tirx.tirx.const,
        LOADS=(tvm_tirx.ir.TensorLoad,),
        is_thread_env=_is_thread_env,
        is_device_region=_is_thread_env,  # the same regions: every one becomes a kernel
        is_buffer_var=tvm_tirx.tirx.is_tensor_var,
        PointerType=tvm_tirx.ir.PtrType,
        PrimType=tvm_tirx.ir.PrimType,
        GlobalVar=tvm_tirx.ir.GlobalVar,
        StringImm=tvm_tirx.ir.StringImm,
        Cast=tvm_tirx.tirx.Cast,
        SeqStmt=tvm_tirx.ir.SeqStmt,
        module_pass=tvm_tirx.ir.transform.module_pass,
        PassContext=tvm_tirx.ir.transform.PassContext,
        function_pass=tvm_tirx.tirx.transform.function_pass,
        Sequential=tvm_tirx.ir.transform.Sequential,
        transform=tvm_tirx.tirx.transform,
        transform_ffi=_transform_ffi,
        analysis=tvm_tirx.tirx.analysis,
        ALLOC_WORKSPACE="tirx.alloc_workspace",
        FREE_WORKSPACE="tirx.free_workspace",
        ALLOC_SPELLING="T.alloc_tensor",
    )

    def call_like(call, args):
        """``call`` with other arguments."""
        return tvm_tirx.ir.Call(call.op, args, call.attrs, call.ty_args, call.loc, ty=call.ty)

    def _bound_call(stmt, op_name):
        """The call ``stmt`` binds when it is ``Bind(v, <op_name>(...))``, else None."""
        if isinstance(stmt, tvm_tirx.ir.Bind) and _is_call_of(stmt.value, op_name):
            return stmt.value
        return None

    def allocation(stmt):
        """(variable, annotations) of an allocation statement (``Bind(v, alloc_tensor(...))``,
        its annotations are the call's ``attrs``), or None."""
        call = _bound_call(stmt, "tirx.alloc_tensor")
        return None if call is None else (stmt.var, call.attrs)

    def allocation_with(stmt, annotations):
        """The allocation statement ``stmt`` with other annotations."""
        call = stmt.value
        value = tvm_tirx.ir.Call(
            call.op, call.args, annotations, call.ty_args, call.loc, ty=call.ty
        )
        return tvm_tirx.ir.Bind(stmt.var, value, stmt.loc)

    def scope_of(var):
        """The memory scope of a tensor variable ("global", "local", ...)."""
        return str(var.ty.scope)

    def tensor_load(var, indices):
        """A load of ``var[indices]``."""
        return tvm_tirx.ir.TensorLoad(var, list(indices))

    def workspace_of(stmt):
        """(variable, workspace call) of an allocation LowerTVMBuiltin lowered to a workspace
        (``Bind(v, decl_tensor(alloc_workspace(...)))``), or None."""
        decl = _bound_call(stmt, "tirx.decl_tensor")
        if decl is None or not decl.args or not _is_call_of(decl.args[0], ir.ALLOC_WORKSPACE):
            return None
        return stmt.var, decl.args[0]

    def workspace_with(stmt, call):
        """The lowered allocation ``stmt`` with another workspace call."""
        decl = stmt.value
        return tvm_tirx.ir.Bind(stmt.var, call_like(decl, [call, *decl.args[1:]]), stmt.loc)

    def lowered_on_cpu(stmt):
        """Before LowerTVMBuiltin: the allocation ``stmt`` inside ``T.device_context(1, 0)``,
        which the pass lowers as an allocation of the CPU (kDLCPU, device 0) and then dissolves,
        leaving the allocation in place. Only for one the CPU keeps on the stack: the pass would
        free a workspace at the end of that region."""
        device = [tvm_tirx.tirx.const(1, "int32"), tvm_tirx.tirx.const(0, "int32")]
        return tvm_tirx.ir.RegionStmt("tirx.device_context", device, [], {}, [stmt])

    def left_on_cpu(stmt):
        """After LowerTVMBuiltin: ``stmt`` (of ``lowered_on_cpu``) as the pass left it."""
        return stmt

    def skips_lowering(_annotations):
        """Whether LowerTVMBuiltin leaves an allocation with ``annotations`` alone: never."""
        return False


# the devices whose kernels a device runtime launches: kDLCUDA, kDLOpenCL, kDLVulkan, kDLMetal,
# kDLROCM, kDLWebGPU (the same DLDeviceType codes on both lines)
DEVICE_RUNTIMES = (2, 4, 7, 8, 10, 15)


def disables(ctx, name):
    """Whether the pass context ``ctx`` disables TVM's pass ``name``: a reference fix's pass,
    which wraps that pass under a name of its own, then returns its input as it is, as a
    Sequential skips TVM's pass (the one check of PassContext::PassEnabled an opt-level-0 pass
    needs beyond the Sequential's own; a pass called directly is not checked by TVM, and a
    wrapper so called under such a context is the one case where the two differ)."""
    return name in [str(n) for n in ctx.disabled_pass]


def launched_by_device_runtime(target):
    """Whether the kernels of ``target`` (a device target) are launched through a device
    runtime: they work on memory of their own and get their scalars packed by the runtime
    (IsLaunchedByDeviceRuntime in the C++ patches). CPU, ext_dev, Hexagon, ... are not."""
    return int(target.get_target_device_type()) in DEVICE_RUNTIMES


def _is_call_of(node, op_name):
    return isinstance(node, ir.Call) and isinstance(node.op, ir.Op) and node.op.name == op_name


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


# the same, and the calls that make a view of the memory of their operand on tvm-tirx
# (Bind(v, decl_tensor(tensor_data_ptr(X), ...)) there, DeclBuffer(v, data=X.data) on apache/tvm)
VIEW_OPERANDS = {**POINTER_ARITHMETIC, "tirx.tensor_data_ptr": 0, "tirx.decl_tensor": 0}


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


def named_symbol(call, ops):
    """The symbol that ``call``, a call of one of the ops named in ``ops`` (a kernel launch
    already lowered, an extern or packed call), names by its first argument, a string
    constant; None for any other call."""
    if not isinstance(call.op, ir.Op) or call.op.name not in ops or not call.args:
        return None
    name = call.args[0]
    return str(name.value) if isinstance(name, ir.StringImm) else None


def pointer_operands(ptr, operands=POINTER_ARITHMETIC):
    """What a pointer that ``pointer_base`` resolves computes its address from (the indices of
    ``address_of``, byte offsets, ...): every operand but the chain to its base."""
    if not isinstance(ptr, ir.Call):
        return []
    if ptr.op.name == "tirx.address_of":
        return list(ptr.args[0].indices)
    position = operands[ptr.op.name]
    rest = [arg for i, arg in enumerate(ptr.args) if i != position]
    return rest + pointer_operands(ptr.args[position], operands)


walk = tvm_ffi.structural_walk
WalkResult = tvm_ffi.WalkResult

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
"""Reference fix: VerifyMemory rejects host access to device memory inside tvm.compile.

The bug. Since buffers became typed variables (apache/tvm#20079, #20086), a buffer access
names the buffer *variable* (``BufferLoad/BufferStore::buffer.var()``), and a view of another
buffer is a fresh variable bound by ``DeclBuffer(view, data=buffer_data(source))``.
``FlattenBuffer`` (which runs before ``tirx.VerifyMemory`` in every TIR pipeline) always
rebuilds parameter buffers that way: the body only ever touches ``B_1 =
T.decl_buffer(..., data=B.data)``. ``MemoryAccessVerifier::IsFromFunctionArgs`` compares the
accessed variable with the parameters and otherwise follows only ``Bind`` definitions whose
value is ``tvm_struct_get``; a ``DeclBuffer`` alias is neither, so every host access to an
argument buffer is taken for an internal allocation and skipped. Inside ``tvm.compile`` the
verifier therefore never fires.

Upstream change (blueprint), ``src/tirx/analysis/verify_memory.cc``, class
``MemoryAccessVerifier``:

1. Book-keep buffer aliases like ``Bind`` definitions: add
   ``VisitStmt_(const DeclBufferNode* op)`` recording ``defs_[op->buffer.get()] = op->data``
   (and, for S-TIR blocks, ``defs_[match->buffer.get()] = match->source->buffer`` for each
   ``SBlockNode::match_buffers`` entry) before visiting the body.
2. ``IsFromFunctionArgs``: walk the definition chain until it reaches a parameter, accepting
   at each step a ``Bind``/``DeclBuffer``/``match_buffer`` definition whose value is a ``Var``
   (follow it), ``buffer_data(X)``, ``address_of(X[...])``, ``tvm_struct_get(X, ...)`` (as
   today) or a pointer computed from ``X`` (``reinterpret(X)``, ``handle_add_byte_offset(X,
   n)``, ``ptr_byte_offset(X, n, t)``, ``tvm_access_ptr(t, X, ...)``): each yields ``X``, to
   follow. At each step return true when the variable is a pointer parameter
   (``PointerType`` or ``BufferType``), whatever its position: the legacy rule that counted
   ``params[0]`` alone (the packed API's handle, from before buffer parameters were typed)
   made the result depend on which pointer parameter a buffer aliases. Anything else (an
   ``AllocBuffer``, a call result) stays "allocated internally" and is skipped as before.
   Guard the walk against cycles.
3. ``address_of(X[i])`` computes an address, it does not access ``X``: a ``VisitExpr_`` for
   ``CallNode`` visits only the indices of such a load. (Otherwise the host-side
   ``T.decl_buffer(..., data=T.address_of(A[4]))`` of a view that only a kernel reads, which
   released TVM compiles, would now be rejected once the alias chain reaches ``A``.)
4. ``IsGPUDevice`` also counts ``kDLWebGPU``: WebGPU buffers are no more host-accessible than
   Vulkan's, and ``DefaultGPUSchedule`` already lists WebGPU among the GPUs.
5. A function that is no entry point (no ``global_symbol``) and whose target has no host is
   device code: ``BindTarget`` gives the helpers that only kernels call the device target
   without its host (``T.prim_func(private=True)`` called inside a ``thread_binding``). It
   has no host code and is skipped. The alias tracing would otherwise reject such a helper's
   ``A = T.decl_buffer(..., data=a)`` access of its pointer parameter, which released TVM
   compiles. An entry point keeps being checked with or without a host in its target (a
   hand-written ``T.target("cuda")``; ``tvm.compile`` adds the host to it).
6. Nothing else changes: the thread-environment rule (``thread_extent`` attributes open a
   kernel; their values: 8.), the other skipped functions (no target, non-GPU target,
   non-default calling convention: the packed functions that ``MakePackedAPI`` makes read
   their arguments' ``DLTensor`` fields through ``tvm_struct_get`` on the host) and the error
   text (the accessed variable's name: ``B`` for FlattenBuffer's alias that prints as ``B_1``)
   stay as they are.
7. A ``global`` buffer that the host code allocates (an ``AllocBuffer`` outside every thread
   environment, without annotations) is device memory too: ``LowerTVMBuiltin`` allocates it
   on the function's device. ``VisitStmt_(const AllocBufferNode*)`` records it, and the walk
   of 2. accepts it like a parameter. Found by the generator (clause (a) under the fixes): a
   host store into such a buffer that a kernel reads compiled, and wrote device memory.
   ``local`` host allocations stay outside the check: SplitHostDevice decides where they live
   (the host-scalar fix), and a scalar cell of the host code is host memory.
8. A launch's sizes are host code: the host computes them before the launch
   (LowerDeviceKernelLaunch makes them launch arguments in terms of the host's values). The
   released ``VisitStmt_(const AttrStmtNode*)`` enters the thread environment before it visits
   the attribute's value, so ``T.thread_binding(L[0], ...)`` over a parameter ``L`` passed the
   verifier and stopped in MakePackedAPI's internal check "variables (L,) are used, but are not
   passed in as API arguments". The fixed visitor visits the value of every ``thread_extent``
   attribute as host code (``VisitHostExpr``: outside the thread environment for the time of the
   value), the one that opens a kernel and those nested in it (their extents are launch
   arguments too), and, inside a kernel, the shape of a ``shared.dyn`` allocation (the launch's
   dynamic shared memory size). A ``virtual_thread`` value is none of these: InjectVirtualThread
   needs it constant and runs before the verifier. Extents from host values (a scalar parameter,
   a DLTensor shape, a host cell) are no parameter access and compile as before.

The same fix holds on apache/tvm-tirx (module ``tvm_tirx``), whose pipeline hands the
verifier ``C_1 = T.decl_tensor(C.data, ...)`` views (``Bind`` of a ``decl_tensor`` call over
``tensor_data_ptr(C)``) and opens kernels with ``launch_thread`` regions: the code below is
written once against ``harness/tvm_line.py``, which names the IR of the line it finds.

``install()`` replaces ``tvm.tirx.transform.VerifyMemory`` (the TIR pipelines build their pass
list on every run and look it up there; the replacement keeps the pass name
``tirx.VerifyMemory``) and ``tvm.tirx.analysis.verify_memory`` by a Python implementation
with the semantics above, and returns a function that restores both.
"""

from harness.tvm_line import (
    LINE,
    POINTER_ARITHMETIC,
    WalkResult,
    allocation,
    ir,
    loaded,
    pointer_base,
    scope_of,
    stored,
    walk,
)

# DLDeviceType values of the devices the verifier checks (kDLCUDA, kDLOpenCL, kDLVulkan,
# kDLMetal, kDLROCM, kDLWebGPU), as in the fixed MemoryAccessVerifier::IsGPUDevice.
_GPU_DEVICE_TYPES = (2, 4, 7, 8, 10, 15)
_LOAD_TYPES = ir.LOADS
_accessed_buffer = loaded


def _is_address_of_load(node):
    return (
        isinstance(node, ir.Call)
        and isinstance(node.op, ir.Op)
        and node.op.name == "tirx.address_of"
        and isinstance(node.args[0], _LOAD_TYPES)
    )


# the calls a definition's value may alias a variable through: pointer arithmetic,
# ``tvm_struct_get`` (as the released verifier follows), and on tvm-tirx a view is
# Bind(v, decl_tensor(tensor_data_ptr(X), ...))
_POINTER_OPERAND = {
    **POINTER_ARITHMETIC,
    "tirx.tvm_struct_get": 0,
    "tirx.tensor_data_ptr": 0,
    "tirx.decl_tensor": 0,
}


def _definition_source(value):
    """The variable whose memory a definition's value points into, or None (no alias)."""
    return pointer_base(value, _POINTER_OPERAND)


def _thread_extent(node):
    """The host-computed sizes of a thread environment, as a list: a ``thread_extent``
    attribute's value on apache/tvm; on tvm-tirx the extent argument of ``launch_thread``, and
    every launch value of a ``device_scope`` (the released verifier reads them as host code)."""
    if LINE == "tvm":
        return [node.value]
    return list(node.args[1:2]) if node.op.name == "tirx.launch_thread" else list(node.args)


def _launch_parameters(kernel):
    """What the host computes from the expressions of ``kernel`` (the first thread environment)
    before it launches it: the extent of every thread environment in it, its own and the nested
    ones, and the shape of a ``shared.dyn`` allocation (the launch's dynamic shared memory size)."""
    found = []

    def visit(node):
        if ir.is_thread_env(node):
            found.extend(_thread_extent(node))
        alloc = allocation(node)
        if alloc is not None and scope_of(alloc[0]) == "shared.dyn":
            found.extend(alloc[0].ty.shape)
        return WalkResult.ADVANCE

    walk(kernel, visit, order="pre")
    return found


def _annotated_host_memory(annotations):
    """Whether LowerTVMBuiltin leaves an allocation with ``annotations`` in host memory whatever
    the function's device: ``device_type`` kDLCPU (1), or a nonzero ``disable_lower_builtin``."""

    def value(key):
        found = annotations.get(key) if annotations is not None else None
        return int(found) if isinstance(found, int | ir.IntImm) else None

    return value("device_type") == 1 or (value("disable_lower_builtin") or 0) != 0


class _MemoryAccessVerifier:
    def __init__(self, func):
        self.func = func
        self.defs = {}
        self.accesses = []
        self.device_allocations = []

    def _record_access(self, buffer):
        if buffer is not None:
            self.accesses.append(buffer)

    def _on_node(self, node):
        if ir.is_thread_env(node):
            # everything in the first thread environment runs on the device, but for the
            # launch parameters that the host computes before the launch
            for value in _launch_parameters(node):
                walk(value, self._on_node, order="pre")
            return WalkResult.SKIP
        if _is_address_of_load(node):
            # an address computation, not an access: only the indices are visited
            for index in node.args[0].indices:
                walk(index, self._on_node, order="pre")
            return WalkResult.SKIP
        found = allocation(node)
        if found is not None and self._is_device_allocation(*found):
            self.device_allocations.append(found[0])
        if isinstance(node, ir.Bind):
            self.defs[node.var] = node.value
        elif ir.DeclBuffer is not None and isinstance(node, ir.DeclBuffer):
            self.defs[node.buffer] = node.data
        elif ir.SBlock is not None and isinstance(node, ir.SBlock):
            for match in node.match_buffers:
                self.defs[match.buffer] = _accessed_buffer(match.source)
        elif isinstance(node, ir.Store):
            self._record_access(stored(node))
        elif isinstance(node, _LOAD_TYPES):
            self._record_access(_accessed_buffer(node))
        return WalkResult.ADVANCE

    @staticmethod
    def _is_device_allocation(var, annotations):
        """A global buffer that the host code allocates is device memory (LowerTVMBuiltin puts
        it on the function's device), unless it is annotated to stay on the host
        (``_annotated_host_memory``)."""
        return scope_of(var) == "global" and not _annotated_host_memory(annotations)

    def _is_pointer_param(self, var):
        return any(
            var.same_as(p) and (ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType))
            for p in self.func.params
        )

    def _from_function_args(self, var):
        seen = set()
        while var is not None and var not in seen:
            seen.add(var)
            if self._is_pointer_param(var) or any(var.same_as(a) for a in self.device_allocations):
                return True
            var = _definition_source(self.defs.get(var))
        return False

    def run(self):
        walk(self.func.body, self._on_node, order="pre")
        errors = []
        for buffer in self.accesses:
            if self._from_function_args(buffer):
                errors.append(
                    f"Variable `{buffer.name}` is directly accessed by host memory (it is not "
                    "contained in a thread environment or in the function arguments."
                )
        return errors


def _checked(func):
    """Whether ``func`` has host code the verifier checks (the released rules, plus one)."""
    attrs = func.attrs
    target = attrs.get("target") if attrs is not None else None
    if target is None:
        return False
    calling_conv = attrs.get("calling_conv")
    if calling_conv is not None and int(calling_conv) != 0:
        return False
    if target.get_target_device_type() not in _GPU_DEVICE_TYPES:
        return False
    # A helper that is no entry point and whose target has no host runs on the device only
    # (BindTarget gives the functions only kernels call the device target without its host).
    return target.host is not None or attrs.get("global_symbol") is not None


def verify_memory_errors(func):
    """The errors the fixed verifier reports for ``func`` (empty when it is legal)."""
    if not _checked(func):
        return []
    return _MemoryAccessVerifier(func).run()


def verify_memory(func):
    """Fixed ``tvm.tirx.analysis.verify_memory``: True when ``func`` is legal."""
    return not verify_memory_errors(func)


def VerifyMemory():
    """Fixed ``tvm.tirx.transform.VerifyMemory``."""

    def transform(mod, _ctx):
        for _, func in mod.functions.items():
            if not isinstance(func, ir.PrimFunc):
                continue
            errors = verify_memory_errors(func)
            if errors:
                lines = "".join(f"    {err}\n" for err in errors)
                raise RuntimeError(
                    "Memory verification failed with the following errors:\n"
                    f"{lines}  Did you forget to bind?\n{func}"
                )
        return mod

    return ir.module_pass(transform, opt_level=0, name="tirx.VerifyMemory")


def install():
    """Install the fixed verifier; return a function that restores the original one."""
    saved = [
        (ir.transform, "VerifyMemory", ir.transform.VerifyMemory),
        (ir.analysis, "verify_memory", ir.analysis.verify_memory),
    ]
    ir.transform.VerifyMemory = VerifyMemory
    ir.analysis.verify_memory = verify_memory

    def uninstall():
        for module, name, original in saved:
            setattr(module, name, original)

    return uninstall

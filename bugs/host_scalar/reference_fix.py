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
"""Reference fix for the host-level scalar report (TIRx/CUDA).

A host-level scalar (``c: T.float32 = v``, on 0.27 also ``c = v``) is a one-element ``local``
buffer allocated outside every device region; an array (``x: T.float32[4]``) is a larger one.
Today LowerTVMBuiltin allocates every such buffer of a cuda function with
``TVMBackendAllocWorkspace(kDLCUDA, ...)`` while the host code stores into it, and
SplitHostDevice hands its pointer to the kernels. The C++ patch this module is the blueprint
for (patches/0002) decides where these buffers live in SplitHostDevice, which sees the host
code and every kernel of a function, and LowerTVMBuiltin follows the decision:

S1  src/tirx/transform/split_host_device.cc, ``HostLocalBuffers::Classify``: for a function
    whose target has a host and a device whose kernels a device runtime launches (CUDA, ROCm,
    OpenCL, Vulkan, Metal, WebGPU: ``IsLaunchedByDeviceRuntime``), each ``local`` AllocBuffer
    of the host code is classified over the whole function (one kernel may write what another
    reads). The host code uses a buffer when it loads or stores it, directly or through a view,
    or hands its pointer (or a view's) to a call (a packed or extern function); declaring a view
    (``T.decl_buffer(..., data=c.data)``, ``T.address_of(c[0])``, a bound pointer) is not a
    use, nor is a tensor the host code makes of it for a call (``tvm_stack_make_array``, on
    tvm-tirx ``stack_make_dltensor``, as ``T.call_packed("f", c)`` writes it): LowerTVMBuiltin
    describes that tensor as memory of the function's device, as it does a parameter buffer's:

    * neither a kernel nor a tensor uses it: host memory;
    * the host code uses it and kernels only load its single element (a one-element buffer of
      a scalar type, all indices zero): host memory, passed to each kernel by value (S2);
    * the host code uses it and a kernel stores into it, takes its address (``address_of``),
      uses its pointer or loads from it while it has more than one element: ValueError at
      compile time, with the spelling to use instead (``T.let``, a kernel-local variable, a
      ``global`` buffer);
    * the host code uses it and a call receives it as a tensor: ValueError (the tensor would
      describe host memory as device memory);
    * only kernels and tensors use it: left as it is (device memory, as today).

    Host memory gets the AllocBuffer annotation ``{"device_type": 1}`` (kDLCPU). ``global``
    buffers and DeclBuffer aliases are never candidates.

S2  ``HostValueToParam`` + ``HostDeviceSplitter::SplitDeviceFunc``: in each kernel, the loads
    of a by-value buffer become one fresh scalar variable named like the buffer, which the
    ordinary parameter capture makes a scalar kernel parameter; the launch passes the load
    itself (``c[0]``), i.e. the value the host holds at that launch. A launch extent that
    reads the buffer is read twice, in the AttrStmt's value and in its IterVar's domain: both
    get the variable, so that the kernel reads no buffer it does not declare (well-formed).

S3  src/tirx/transform/lower_tvm_builtin.cc: an AllocBuffer annotated ``device_type`` (only
    kDLCPU is accepted) is lowered as on kDLCPU with device id 0, whatever the enclosing
    ``device_type`` / ``device_id``: a CPU workspace, or the stack for a small ``global`` one.
    Allocations without the annotation keep today's rule on every device.

``install()`` reproduces S1-S3 in-process on the released wheel:

* ``tvm.tirx.transform.SplitHostDevice`` is wrapped: right before the original pass each
  function is classified (the ValueError is raised there), host memory is annotated, and the
  kernels' loads of by-value buffers become fresh Vars; right after it, the host's launch
  argument (that Var) becomes the load. The result is exactly the C++ patch's.
* ``tvm.tirx.transform.LowerTVMBuiltin`` is wrapped: the annotated allocations that the CPU
  rule keeps on the stack get ``disable_lower_builtin`` for the original pass (removed again
  after it); for the others the workspace calls the original pass emits get the device
  ``(kDLCPU, 0)``.

Both pipelines of ``tvm.tirx.compilation_pipeline`` and the s_tir one (and their
``finalize_host_passes``) look the pass constructors up on ``tvm.tirx.transform`` each time
they run, so ``tvm.compile`` and ``tvm.tirx.build`` use the wrapped passes.

The same fix holds on apache/tvm-tirx (module ``tvm_tirx``, whose ``tirx_pipeline`` and
``finalize_host_passes`` look the passes up on ``tvm_tirx.tirx.transform`` the same way): the
code below is written once against ``harness/tvm_line.py``. There a cell is
``Bind(c, alloc_tensor(...))`` with the annotation in the call's ``attrs`` (printed
``attrs={"device_type": 1}``), kernels are ``launch_thread`` / ``device_scope`` regions, views
are ``Bind(v, decl_tensor(...))``, and the lowered workspace is
``Bind(c, decl_tensor(alloc_workspace(...)))`` freed by ``free_workspace``. tvm-tirx's
LowerTVMBuiltin (``BuiltinLower::MutateAllocTensor``) has no ``disable_lower_builtin``: an
annotated allocation the CPU rule keeps on the stack is handed to it inside
``T.device_context(1, 0)``, which it lowers as kDLCPU (stack) and dissolves; the C++ port
makes the same decision in ``MutateAllocTensor`` from the annotation. ``install()``
returns the undo function (installing twice is a no-op); ``unfixed()`` is a context manager
that runs TVM's own passes meanwhile, for no-regression comparisons.
"""

import contextlib

import tvm_ffi

from harness.tvm_line import (
    VIEW_OPERANDS,
    WalkResult,
    allocation,
    allocation_with,
    call_like,
    disables,
    ir,
    launched_by_device_runtime,
    left_on_cpu,
    loaded,
    lowered_on_cpu,
    named_symbol,
    pointer_base,
    pointer_operands,
    scope_of,
    skips_lowering,
    stored,
    tensor_load,
    walk,
    workspace_of,
    workspace_with,
)

# the allocation annotation that marks host memory, and its value
_DEVICE_TYPE = "device_type"
_KDLCPU = 1
_MAX_STACK_ALLOCA = 1024  # runtime::kMaxStackAlloca


def _constant_elements(buffer):
    total = 1
    for extent in buffer.ty.shape:
        if not isinstance(extent, ir.IntImm):
            return None
        total *= int(extent.value)
    return total


def _index(items, obj):
    for i, item in enumerate(items):
        if item.same_as(obj):
            return i
    return -1


def _annotations(alloc):
    """The annotations of the allocation statement ``alloc``, as a dict."""
    annotations = allocation(alloc)[1]
    return dict(annotations) if annotations is not None else {}


def _has_host(func):
    """A function that runs on a host and launches its kernels through a device runtime."""
    target = func.attrs.get("target") if func.attrs is not None else None
    return target is not None and target.host is not None and launched_by_device_runtime(target)


# ---------------------------------------------------------------------------------------------
# S1: classify the host code's local buffers over the whole function


def _is_candidate(alloc):
    """A buffer of the host code that S1 classifies: a ``local`` allocation."""
    return scope_of(allocation(alloc)[0]) == "local"


def _host_local_buffers(body):
    """The candidates allocated outside every device region, in allocation order."""
    found = []

    def visit(node):
        if ir.is_device_region(node):
            return WalkResult.SKIP
        if allocation(node) is not None and _is_candidate(node):
            found.append(allocation(node)[0])
        return None

    walk(body, visit, order="pre")
    return found


def _is_single_element_load(load):
    """A load of the single element of a one-element buffer of a scalar type."""
    buffer = loaded(load)
    dtype = tvm_ffi.dtype(str(buffer.ty.dtype))
    return (
        dtype.lanes == 1
        and _constant_elements(buffer) == 1
        and all(isinstance(i, ir.IntImm) and i.value == 0 for i in load.indices)
    )


def _kernel_use(node):
    """How a kernel's use ``node`` of a candidate needs the buffer itself, or None when it only
    needs its value: the message fragment of the ValueError."""
    if isinstance(node, ir.LOADS):
        return None if _is_single_element_load(node) else "loads an element of"
    if isinstance(node, ir.Store):
        return "stores into"
    if isinstance(node, ir.Call):
        return "takes the address of"
    return "uses the pointer of"


def _view_definition(node):
    """(alias, pointer) when ``node`` defines an alias of memory: a DeclBuffer (on tvm-tirx a
    Bind of a ``decl_tensor``) or a bound pointer; else None."""
    if ir.DeclBuffer is not None and isinstance(node, ir.DeclBuffer):
        return node.buffer, node.data
    if isinstance(node, ir.Bind):
        return node.var, node.value
    return None


def _view_operands(data):
    """What the host code uses when it declares a view at ``data``: what the pointer is
    computed from (an index, a byte offset), not the memory it points into."""
    return pointer_operands(data, VIEW_OPERANDS)


def _host_use(_node):
    """Whether a reference ``_node`` of the host code to a buffer (a load, a store, its pointer
    handed to a call, ``address_of``) is a use of it: every one is."""
    return True


def _has_thread_env(func):
    found = []

    def visit(node):
        if ir.is_thread_env(node):
            found.append(node)
            return WalkResult.SKIP
        return None

    walk(func.body, visit, order="pre")
    return bool(found)


def _launched_functions(func, mod):
    """(GlobalVars, symbols) of the module functions that the host code of ``func`` launches
    as kernels when it calls them, as LowerDeviceKernelLaunches decides: those that open a
    thread environment, and those whose target's device is not the host's. A symbol is what a
    launch written as a packed call names: the function's global symbol, else its name."""
    if mod is None:
        return [], set()
    host_device = int(func.attrs["target"].host.get_target_device_type())
    launched, symbols = [], set()
    for gvar, callee in mod.functions.items():
        if not isinstance(callee, ir.PrimFunc) or callee.same_as(func):
            continue
        target = callee.attrs.get("target") if callee.attrs is not None else None
        if target is None:
            continue  # LowerDeviceKernelLaunches needs it of every callee
        if _has_thread_env(callee) or int(target.get_target_device_type()) != host_device:
            launched.append(gvar)
            symbols.add(str(callee.attrs.get("global_symbol") or gvar.name_hint))
    return launched, symbols


# the calls that launch a kernel named by its symbol (their first argument)
_SYMBOL_LAUNCHES = ("tirx.call_ffi_kernel", "tirx.tvm_call_packed")
# the calls that make a tensor of their first argument, which LowerTVMBuiltin describes as
# memory of the function's device (apache/tvm, tvm-tirx)
_TENSOR_ARGUMENTS = ("tirx.tvm_stack_make_array", "tirx.stack_make_dltensor")
# how a call needs a buffer that it receives as a tensor: the rejection's marker
_TENSOR_USE = "receives as a tensor"


def _tensor_data(node):
    """The data of which the call ``node`` makes a tensor, or None for any other node."""
    if isinstance(node, ir.Call) and getattr(node.op, "name", "") in _TENSOR_ARGUMENTS:
        return node.args[0] if node.args else None
    return None


def _launch_args(node, launched):
    """The arguments that the call ``node`` hands to a kernel the host launches: a call of a
    module function of ``launched`` (``_launched_functions``), or a packed call or kernel
    launch naming one by its symbol; None for any other node."""
    if not isinstance(node, ir.Call) or not launched:
        return None
    gvars, symbols = launched
    if isinstance(node.op, ir.GlobalVar):
        return list(node.args) if any(node.op.same_as(g) for g in gvars) else None
    symbol = named_symbol(node, _SYMBOL_LAUNCHES)
    return list(node.args[1:]) if symbol is not None and symbol in symbols else None


def _walk_uses(
    root, buffers, on_use, host_only=False, launched=None, on_launch=None, on_tensor=None
):
    """Call ``on_use(i, node)`` for each use of ``buffers[i]`` in ``root``: a load, a store,
    ``address_of`` a load, or any other reference to the buffer (its pointer). With
    ``host_only``, device regions are skipped, and declaring a view of a buffer is not a use
    of it: only what its pointer is computed from is (an index, a byte offset). The arguments
    of a call of a module function that the host launches (``launched``) are evaluated on the
    host, and the kernel receives their values: there a load is a use of the host code
    (``on_use``), a pointer (the buffer's, ``address_of``) a use of the kernel
    (``on_launch``). Likewise in the data of a tensor made for a call (``_tensor_data``), a
    pointer is a use of the tensor (``on_tensor``), a load the host's."""

    def walk_from(node):
        walk(node, visit, order="pre")

    def on_argument(i, node):
        (on_use if isinstance(node, ir.LOADS) else on_launch)(i, node)

    def on_data(i, node):
        (on_use if isinstance(node, ir.LOADS) else on_tensor)(i, node)

    def visit(node):
        if host_only and ir.is_device_region(node):
            return WalkResult.SKIP
        args = _launch_args(node, launched) if host_only else None
        if args is not None:
            for arg in args:
                _walk_uses(arg, buffers, on_argument, host_only, launched, on_launch)
            return WalkResult.SKIP
        data = _tensor_data(node) if on_tensor is not None else None
        if data is not None:
            _walk_uses(data, buffers, on_data, host_only, launched, on_launch)
            for arg in node.args[1:]:
                walk_from(arg)
            return WalkResult.SKIP
        alloc = allocation(node)
        if alloc is not None and _index(buffers, alloc[0]) >= 0:
            walk_from(alloc[0].ty)  # not a use, but its shape is read as the C++ reads it
            return WalkResult.SKIP
        view = _view_definition(node)
        if view is not None:
            alias, data = view
            # the alias is defined here, not used; its shape is visited as the C++ visits a
            # buffer's definition
            walk_from(alias.ty)
            if host_only and _points_into(data, buffers) >= 0:
                for operand in _view_operands(data):
                    walk_from(operand)
            else:
                walk_from(data)
            return WalkResult.SKIP
        if isinstance(node, ir.Call) and getattr(node.op, "name", "") == "tirx.address_of":
            load = node.args[0]
            if isinstance(load, ir.LOADS) and _index(buffers, loaded(load)) >= 0:
                on_use(_index(buffers, loaded(load)), node)
                for index in load.indices:
                    walk_from(index)
                return WalkResult.SKIP
        if isinstance(node, ir.LOADS) and _index(buffers, loaded(node)) >= 0:
            on_use(_index(buffers, loaded(node)), node)
            for index in node.indices:
                walk_from(index)
            return WalkResult.SKIP
        if isinstance(node, ir.Store) and _index(buffers, stored(node)) >= 0:
            on_use(_index(buffers, stored(node)), node)
            for child in (node.value, *node.indices):
                walk_from(child)
            return WalkResult.SKIP
        if isinstance(node, ir.Var) and _index(buffers, node) >= 0:
            on_use(_index(buffers, node), node)
        return None

    walk_from(root)


def _regions(body):
    """The outermost device regions of ``body``."""
    regions = []

    def visit(node):
        if ir.is_device_region(node):
            regions.append(node)
            return WalkResult.SKIP
        return None

    walk(body, visit, order="pre")
    return regions


def _points_into(ptr, tracked):
    """The index in ``tracked`` of the buffer (or view) whose memory ``ptr`` points into, or
    -1: the buffer itself, ``c.data``, ``T.address_of(c[i])``, pointer arithmetic on those,
    a view over those (tvm-tirx's ``decl_tensor``)."""
    base = pointer_base(ptr, VIEW_OPERANDS)
    return -1 if base is None else _index(tracked, base)


def _views(body, buffers):
    """[(view, index of its buffer)]: every alias of ``buffers[i]``'s memory, in definition
    order: a view whose data points into it (a DeclBuffer; on tvm-tirx a Bind of a
    ``decl_tensor``), and a pointer bound to such an address (``p: T.let = c.data``), views of
    views included."""
    views = []

    def visit(node):
        view = _view_definition(node)
        if view is None:
            return None
        alias, data = view
        tracked = list(buffers) + [view for view, _ in views]
        i = _points_into(data, tracked)
        if i >= 0:
            views.append((alias, i if i < len(buffers) else views[i - len(buffers)][1]))
        return None

    walk(body, visit, order="pre")
    return views


def _note_kernel_use(entry, how):
    """Record a kernel use in ``entry`` ([host uses it, kernels use it, how a kernel needs its
    pointer]); ``how``: how this use needs the pointer, or None. Every kernel use counts: the
    first one that needs the pointer names the rejection."""
    entry[1] = True
    if how is not None and entry[2] is None:
        entry[2] = how


def _classify_uses(body, buffers, launched=None):
    """[(host uses it, kernels use it, how a kernel needs its pointer or None)] per buffer;
    ``launched``: the module functions a call of the host code launches as kernels."""
    uses = [[False, False, None] for _ in buffers]
    views = _views(body, buffers)
    tracked = list(buffers) + [view for view, _ in views]

    def base(i):
        return i if i < len(buffers) else views[i - len(buffers)][1]

    def on_host(i, node):
        if _host_use(node):
            uses[base(i)][0] = True

    def on_kernel(i, node):
        how = _kernel_use(node) if i < len(buffers) else "uses a view of"
        _note_kernel_use(uses[base(i)], how)

    def on_tensor(i, _node):
        # device memory, as a kernel's pointer is; with a host use, rejected as a tensor
        uses[base(i)][1:] = [True, _TENSOR_USE]

    _walk_uses(
        body,
        tracked,
        on_host,
        host_only=True,
        launched=launched,
        on_launch=on_kernel,
        on_tensor=on_tensor,
    )
    for region in _regions(body):
        _walk_uses(region, tracked, on_kernel)
    return [tuple(u) for u in uses]


def _rejection(buffer, how):
    name = buffer.name
    if how == _TENSOR_USE:
        return ValueError(
            f"A call receives `{name}` as a tensor, which describes memory of the device, but it "
            'is a "local" buffer of the host code that the host code also loads, stores or '
            'passes by pointer: host memory. Pass the call a "global" buffer '
            f"({ir.ALLOC_SPELLING}) that the host code does not access, or `{name}.data` if the "
            "callee works on host memory."
        )
    dtype = tvm_ffi.dtype(str(buffer.ty.dtype))
    if dtype.lanes == 1:
        bind = (
            "Bind a value that kernels read with T.let on the host "
            f"(`{name}: T.let[T.{dtype}] = ...`)"
        )
    else:  # a launch passes 32- and 64-bit scalars only (src/runtime/pack_args.h)
        bind = (
            "A launch passes scalars only: bind each lane that kernels read with T.let on the "
            f"host (`{name}_0: T.let[T.{dtype.with_lanes(1)}] = ...`) and build the vector in the "
            "kernel"
        )
    return ValueError(
        f'A kernel {how} `{name}`, a "local" buffer of the host code that the host code '
        "also loads, stores or passes to a call. Such a buffer is host memory, and a kernel "
        f"receives only the value of its single element. {bind}; declare a variable that a "
        f'kernel writes inside the kernel, or allocate a "global" buffer ({ir.ALLOC_SPELLING}) '
        "that only kernels access."
    )


def _placement(host, kernel, needs_pointer):
    """S1's decision for one buffer: "device" (left as it is), "host" (host memory),
    "by_value" (host memory that kernels read by value) or "reject"."""
    if kernel and not host:
        return "device"  # device memory shared by kernels, as today
    if kernel and needs_pointer is not None:
        return "reject"
    return "by_value" if kernel else "host"


def _classify(func, mod=None):
    """S1: (local buffers of the host code, host memory, by-value buffers) of ``func``, a
    function of ``mod``; raises the ValueError for a rejected buffer."""
    if not _has_host(func):
        return [], [], []
    buffers = _host_local_buffers(func.body)
    if not buffers:
        return [], [], []
    host_memory, by_value = [], []
    uses_of = _classify_uses(func.body, buffers, _launched_functions(func, mod))
    for buffer, uses in zip(buffers, uses_of):
        placement = _placement(*uses)
        if placement == "reject":
            raise _rejection(buffer, uses[2])
        if placement in ("host", "by_value"):
            host_memory.append(buffer)
        if placement == "by_value":
            by_value.append(buffer)
    return buffers, host_memory, by_value


def _host_memory_annotations(alloc):
    """The annotations of host memory's allocation ``alloc``: its own, and device_type kDLCPU."""
    annotations = _annotations(alloc)
    annotations[_DEVICE_TYPE] = ir.const(_KDLCPU, "int32")
    return annotations


def _annotate_host_memory(body, host_memory):
    """The allocations of ``host_memory`` annotated ``device_type = kDLCPU``."""

    def on_stmt(stmt, mutator):
        if ir.is_device_region(stmt):
            return stmt
        alloc = allocation(stmt)
        if alloc is None:
            return mutator.default_mutate(stmt)
        if _index(host_memory, alloc[0]) < 0:
            return stmt
        return allocation_with(stmt, _host_memory_annotations(stmt))

    return tvm_ffi.structural_mutate(body, (ir.Stmt, on_stmt))


# ---------------------------------------------------------------------------------------------
# S2: by-value buffers reach each kernel as a scalar parameter


def _launch_value(load, _host_func):
    """What the host passes for a by-value buffer at a launch: the kernel's load, on the host."""
    return tensor_load(loaded(load), load.indices)


def _by_value_in_region(_region, by_value, _buffers):
    """The buffers whose loads a device region gets by value: S1's by-value buffers."""
    return by_value


def _pass_by_value(region, by_value, pending):
    """Replace the region's loads of ``by_value`` buffers by fresh scalar Vars (one per buffer),
    the loads in the domain of a launch's IterVar included (the map reaches every field).

    SplitHostDevice then makes each Var a scalar kernel parameter and passes it at the launch;
    ``pending`` gets the (Var, load) pairs, so that each launch argument becomes the load.
    """
    fresh = {}

    def replace(load):
        source = loaded(load)
        i = -1 if source is None else _index(by_value, source)
        if i < 0:
            return load
        if i not in fresh:
            fresh[i] = ir.Var(source.name, str(source.ty.dtype))
            pending.append((fresh[i], load))
        return fresh[i]

    return tvm_ffi.structural_map(region, (ir.LOADS, replace))


def _rewrite_host_func(func, mod, pending):
    buffers, host_memory, by_value = _classify(func, mod)
    if not buffers:
        return func

    def on_stmt(stmt, mutator):
        if ir.is_device_region(stmt):
            region_values = _by_value_in_region(stmt, by_value, buffers)
            return _pass_by_value(stmt, region_values, pending) if region_values else stmt
        return mutator.default_mutate(stmt)

    body = tvm_ffi.structural_mutate(func.body, (ir.Stmt, on_stmt))
    body = _annotate_host_memory(body, host_memory)
    return func if body.same_as(func.body) else func.with_body(body)


def _launch_values(func, pending):
    """Host side, after SplitHostDevice: each recorded Var, now a launch argument, becomes
    the load it stands for (``_launch_value``)."""
    if func.attrs is not None and func.attrs.get("tirx.is_global_func"):
        return func  # a kernel: its parameter is its own Var

    def replace(var):
        for value, load in pending:
            if value.same_as(var):
                return _launch_value(load, func)
        return var

    body = tvm_ffi.structural_map(func.body, (ir.Var, replace))
    return func if body.same_as(func.body) else func.with_body(body)


def HostLocalBuffers(original):
    """S1 + S2: ``original`` (TVM's SplitHostDevice) between the two halves of the rewrite."""
    pending = []

    @ir.function_pass(opt_level=0, name="reference_fixes.HostLocalBuffers")
    def before(func, mod, _ctx):
        return _rewrite_host_func(func, mod, pending)

    @ir.function_pass(opt_level=0, name="reference_fixes.HostValueLaunchArgs")
    def after(func, _mod, _ctx):
        return _launch_values(func, pending) if pending else func

    # one pass that calls the three, skipped whole where the context disables TVM's: a
    # Sequential of them would skip TVM's pass alone (its name), the two halves running
    @ir.module_pass(opt_level=0, name="reference_fixes.SplitHostDeviceWithHostValues")
    def split(mod, ctx):
        if disables(ctx, "tirx.SplitHostDevice"):
            return mod
        return after(original(before(mod)))

    return split


# ---------------------------------------------------------------------------------------------
# S3: LowerTVMBuiltin allocates annotated host memory on (kDLCPU, 0)


def _host_device(alloc):
    """S3: (device type, device id) of an annotated allocation, or None without annotation."""
    annotations = _annotations(alloc)
    if _DEVICE_TYPE not in annotations:
        return None
    value = annotations[_DEVICE_TYPE]
    if not isinstance(value, int | ir.IntImm) or int(value) != _KDLCPU:
        raise ValueError(  # a user-written annotation: a user-facing error, as in the C++
            f"The allocation of `{allocation(alloc)[0].name}` has the annotation {_DEVICE_TYPE}, "
            "which can only be kDLCPU (1): host memory of a function that launches kernels on "
            "another device"
        )
    return _KDLCPU, 0


def _device_args(device, lowered):
    """The (device type, device id) arguments of a relocated workspace call; ``lowered`` are
    the ones TVM's pass emitted (a None in ``device`` keeps the lowered one)."""
    return [
        lowered[i] if value is None else ir.const(value, "int32") for i, value in enumerate(device)
    ]


def _is_scalable(buffer):
    """A buffer of a scalable vector type, which LowerTVMBuiltin leaves alone."""
    return "vscale" in str(buffer.ty.dtype)


def _stays_on_stack(buffer):
    """The CPU rule: a small constant-size global allocation is a stack allocation."""
    elements = _constant_elements(buffer)
    dtype = tvm_ffi.dtype(str(buffer.ty.dtype))
    nbytes = (dtype.bits * dtype.lanes + 7) // 8
    return (
        scope_of(buffer) == "global"
        and elements is not None
        and 0 < elements * nbytes < _MAX_STACK_ALLOCA
    )


def _mark(func, records):
    """Before the original pass: record each annotated allocation; the ones the CPU rule
    keeps on the stack are handed to the pass as allocations of the CPU (``lowered_on_cpu``)
    (``records``: [(buffer, device, on stack)])."""

    def on_stmt(stmt, mutator):
        if allocation(stmt) is None:
            return mutator.default_mutate(stmt)
        if skips_lowering(_annotations(stmt)) or _is_scalable(allocation(stmt)[0]):
            return stmt  # left alone before the annotation is looked at, as in the C++
        device = _host_device(stmt)
        if device is None:
            return stmt
        buffer = allocation(stmt)[0]
        stack = _stays_on_stack(buffer)
        records.append((buffer, device, stack))
        return lowered_on_cpu(stmt) if stack else stmt

    body = tvm_ffi.structural_mutate(func.body, (ir.Stmt, on_stmt))
    return func if body.same_as(func.body) else func.with_body(body)


def _record_of(records, buffer):
    for record in records:
        if record[0].same_as(buffer):
            return record
    return None


def _relocate(func, records):
    """After the original pass: the workspace calls of the recorded allocations get their
    device; the allocations kept on the stack lose their temporary marks again."""

    def freed(call):
        """The buffer whose workspace ``call`` frees, or None."""
        if getattr(call.op, "name", "") != ir.FREE_WORKSPACE:
            return None
        data = call.args[2]
        if isinstance(data, ir.Call) and len(data.args) == 1:
            return data.args[0]
        return None

    def on_stmt(stmt, mutator):
        alloc = allocation(stmt)
        if alloc is not None:
            record = _record_of(records, alloc[0])
            return left_on_cpu(stmt) if record is not None and record[2] else stmt
        lowered = workspace_of(stmt)
        record = None if lowered is None else _record_of(records, lowered[0])
        if record is None:
            return mutator.default_mutate(stmt)
        call = lowered[1]
        args = [*_device_args(record[1], call.args[:2]), *call.args[2:]]
        return workspace_with(stmt, call_like(call, args))

    def on_call(call, mutator):
        buffer = freed(call)
        record = None if buffer is None else _record_of(records, buffer)
        if record is None:
            return mutator.default_mutate(call)
        args = [*_device_args(record[1], call.args[:2]), call.args[2]]
        return call_like(call, args)

    body = tvm_ffi.structural_mutate(func.body, [(ir.Stmt, on_stmt), (ir.Call, on_call)])
    return func if body.same_as(func.body) else func.with_body(body)


def _is_host_func(func):
    attrs = func.attrs if func.attrs is not None else {}
    flag = attrs.get("tirx.is_host_func")
    if flag is not None and int(flag) != 0:
        return True
    target = attrs.get("target")
    return target is not None and "cpu" in list(target.keys)


def _map_host_funcs(mod, fn):
    updates = {}
    for gvar, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc) and _is_host_func(func):
            new = fn(gvar, func)
            if not new.same_as(func):
                updates[gvar] = new
    if not updates:
        return mod
    mod = mod.clone()  # the pass must not change its input module in place
    for gvar, func in updates.items():
        mod.update_func(gvar, func)
    return mod


def _wrap_lower_tvm_builtin(original):
    def LowerTVMBuiltin():
        @ir.module_pass(opt_level=0, name="reference_fixes.LowerTVMBuiltin")
        def _lower(mod, ctx):
            if disables(ctx, "tirx.LowerTVMBuiltin"):
                return mod
            records = {}
            mod = _map_host_funcs(mod, lambda g, f: _mark(f, records.setdefault(g, [])))
            mod = original()(mod)
            if any(records.values()):
                mod = _map_host_funcs(mod, lambda g, f: _relocate(f, records.get(g, [])))
            return mod

        return _lower

    LowerTVMBuiltin.__doc__ = original.__doc__
    LowerTVMBuiltin.__wrapped__ = original
    return LowerTVMBuiltin


def _wrap_split_host_device(original):
    def SplitHostDevice():
        return HostLocalBuffers(original())

    SplitHostDevice.__doc__ = original.__doc__
    SplitHostDevice.__wrapped__ = original
    return SplitHostDevice


_WRAPPERS = {
    "LowerTVMBuiltin": _wrap_lower_tvm_builtin,
    "SplitHostDevice": _wrap_split_host_device,
}


def _installed(name):
    return getattr(getattr(ir.transform, name), "__wrapped__", None) is not None


def install():
    """Install S1-S3 in the line's ``tirx.transform``; return the undo function.

    Installing twice is a no-op whose undo does nothing (the first undo removes the fix).
    """
    transform = ir.transform
    if all(_installed(name) for name in _WRAPPERS):
        return lambda: None
    saved = {name: getattr(transform, name) for name in _WRAPPERS}
    for name, wrap in _WRAPPERS.items():
        setattr(transform, name, wrap(saved[name]))

    def uninstall():
        for name, func in saved.items():
            setattr(transform, name, func)

    return uninstall


@contextlib.contextmanager
def unfixed():
    """Temporarily run with TVM's own passes, whether or not the fix is installed."""
    transform = ir.transform
    current = {name: getattr(transform, name) for name in _WRAPPERS}
    for name, func in current.items():
        while getattr(func, "__wrapped__", None) is not None:
            func = func.__wrapped__
        setattr(transform, name, func)
    try:
        yield
    finally:
        for name, func in current.items():
            setattr(transform, name, func)

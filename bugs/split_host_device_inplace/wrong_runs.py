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
"""The wrong ``run``s that only the SplitHostDevice-changes-its-input report's wrong fixes use
(bugs/split_host_device_inplace/wrong_fixes.toml: a fix's ``run = "_wrong.<name>"``; the shared
ones are in harness/input_copy_mistakes.py). ``inner`` is the released pass, which writes its two
updates into the module it is given, then runs ConvertSSA and LowerDeviceKernelLaunches.
"""

import tvm_ffi

from harness import input_copy as _input_copy
from harness.tvm_line import WalkResult, ir, walk


def _changed(mod, out):
    """{GlobalVar: function} of ``out`` that replace a function of ``mod``."""
    return {
        gv: f for gv, f in mod.functions.items() if gv in out.functions and not out[gv].same_as(f)
    }


def _split_something(mod, out):
    """Whether the pass outlined a kernel (the updates and the kernels are written together)."""
    return any(gv not in mod.functions for gv in out.functions)


def host_functions_written_back(inner, mod):
    """The host functions the pass rewrote are also written into the input."""
    out = _input_copy.run(inner, mod)
    for gv in _changed(mod, out):
        mod.update_func(gv, out[gv])
    return out


def host_update_when_split(inner, mod):
    """Where the pass outlines a kernel, the host functions it rewrote are also written into
    the input (the first write left on it)."""
    out = _input_copy.run(inner, mod)
    if _split_something(mod, out):
        for gv in _changed(mod, out):
            mod.update_func(gv, out[gv])
    return out


def kernels_written_back(inner, mod):
    """The kernels the pass creates are also added to the input."""
    out = _input_copy.run(inner, mod)
    for gv, func in out.functions.items():
        if gv not in mod.functions:
            mod.update_func(gv, func)
    return out


def copy_after_write_unlifted(inner, mod):
    """The pass runs on the input in the caller's context, and its result is copied."""
    return inner(mod).clone()


def _has(func, predicate):
    found = []

    def visit(node):
        if predicate(node):
            found.append(node)
            return WalkResult.SKIP
        return WalkResult.ADVANCE

    walk(func, visit, order="pre")
    return bool(found)


def thread_launch_only(inner, mod):
    """Only a module with a thread launch is copied ("something to write")."""
    if any(_has(f, ir.is_thread_env) for f in mod.functions.values()):
        return _input_copy.run(inner, mod)
    return inner(mod)


def first_function_only(inner, mod):
    """Only a module whose first function has a device region is copied."""
    funcs = list(mod.functions.values())
    if funcs and _has(funcs[0], ir.is_device_region):
        return _input_copy.run(inner, mod)
    return inner(mod)


def _has_device_region(mod):
    """Whether a PrimFunc of ``mod`` has a device region."""
    found = []
    for func in mod.functions.values():
        if isinstance(func, ir.PrimFunc):
            tvm_ffi.structural_walk(
                func.body,
                [(ir.Stmt, lambda n: found.append(n) if ir.is_device_region(n) else None)],
            )
    return bool(found)


def no_ssa_without_device_region(inner, mod):
    """A module without a device region comes back as it came (no ConvertSSA)."""
    return _input_copy.run(inner, mod) if _has_device_region(mod) else mod


def written_copy_returned(inner, mod):
    """The copy the pass wrote is returned, not the pass's result (ConvertSSA and the launch
    lowering lost)."""

    def split_in_place(copy):
        inner(copy)
        return copy

    return _input_copy.run(split_in_place, mod)


def early_return(inner, mod):
    """Where the pass outlines no kernel, the input comes back as it came."""
    out = _input_copy.run(inner, mod)
    return out if _split_something(mod, out) else mod


def convert_ssa_in_guard(inner, mod):
    """Where the pass outlines no kernel, ConvertSSA is skipped: a function not in SSA form
    comes back as it came."""
    out = _input_copy.run(inner, mod)
    if _split_something(mod, out):
        return out
    verify_ssa = getattr(ir.analysis, "verify_ssa", None)  # apache/tvm only
    for gv, _func in out.functions_items():
        if verify_ssa is not None and not verify_ssa(mod[gv.name_hint]):
            out.update_func(gv, mod[gv.name_hint])
    return out


def split_result_discarded(inner, mod):
    """The tail runs on the unsplit input: ConvertSSA of it, nothing split."""
    return _input_copy.run(lambda clone: ir.transform.ConvertSSA()(clone), mod)


def lower_inside_guard(inner, mod):
    """Where the pass outlines no kernel, only ConvertSSA runs (the launch lowering is in the
    guard)."""
    out = _input_copy.run(inner, mod)
    return out if _split_something(mod, out) else ir.transform.ConvertSSA()(mod.clone())


def new_module_of_updates(inner, mod):
    """The result is a new module of the functions the pass wrote or added alone."""
    out = _input_copy.run(inner, mod)
    kept = {
        gv: func
        for gv, func in out.functions.items()
        if gv not in mod.functions or not func.same_as(mod[gv])
    }
    return type(mod)(kept, attrs=out.attrs, global_infos=out.global_infos)


def _written(inner, mod):
    """The pass on a copy of ``mod`` in the caller's context: (its result, the functions its
    two writes put in the copy, of the input's rewritten and of the kernels added)."""
    copy = mod.clone()
    result = inner(copy)
    before = dict(mod.functions.items())
    written = {
        gv: func
        for gv, func in copy.functions.items()
        if gv not in before or not func.same_as(before[gv])
    }
    return result, written


def copy_after_first_write(inner, mod):
    """Only the second write goes to a copy: the first, of the host functions (as the split
    left them, before ConvertSSA), goes to the input."""
    result, written = _written(inner, mod)
    for gv, func in written.items():
        if gv in mod.functions:
            mod.update_func(gv, func)
    return result


def guard_returns_early(inner, mod):
    """With nothing written, the input comes back as it came."""
    result, written = _written(inner, mod)
    return result if written else mod


def guard_skips_launch_lowering(inner, mod):
    """With nothing written, only ConvertSSA runs, on the input."""
    result, written = _written(inner, mod)
    return result if written else ir.transform.ConvertSSA()(mod)


def drops_when_written(keep_attrs):
    """Where the pass writes, it runs on a new module of the functions (with the module's
    attributes where ``keep_attrs``): the global infos, and the attributes, are lost."""

    def run(inner, mod):
        if not _written(inner, mod)[1]:
            return _input_copy.run(inner, mod)
        funcs = dict(mod.functions.items())
        return inner(type(mod)(funcs, attrs=mod.attrs) if keep_attrs else type(mod)(funcs))

    return run


def copy_in_local(inner, mod):
    """The writes go to a local copy, but the tail runs on the unwritten input: ConvertSSA of
    it, the kernels lost."""
    if not _written(inner, mod)[1]:
        return _input_copy.run(inner, mod)
    return ir.transform_ffi.ConvertSSA()(mod.clone())


def no_instruments(inner, mod):
    """The context rebuilt without testing.immutable_module drops the caller's instruments."""
    ctx = ir.PassContext.current()
    config = dict(ctx.config.items()) if ctx.config is not None else {}
    if not config.get(_input_copy.IMMUTABLE):
        return inner(mod.clone())
    del config[_input_copy.IMMUTABLE]
    inner_ctx = ir.PassContext(
        opt_level=ctx.opt_level,
        required_pass=list(ctx.required_pass),
        disabled_pass=list(ctx.disabled_pass),
        instruments=[],
        config=config,
    )
    with inner_ctx:
        return inner(mod.clone())

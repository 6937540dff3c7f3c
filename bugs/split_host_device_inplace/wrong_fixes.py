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
"""Wrong fixes of the SplitHostDevice-changes-its-input report, each the reference fix's own
text (bugs/split_host_device_inplace/reference_fix.py) with its one step, ``run`` (the pass on a
copy of its input), changed (harness/wrong_fixes.py: EDITS).

The wrong ``run`` is a mistake of the shared copy (harness/input_copy_mistakes.py) or, where no
other report makes it, one of the functions below (``inner`` is the released pass, which writes
its two updates into the module it is given, then runs ConvertSSA and
LowerDeviceKernelLaunches); the later rounds' modules (wrong_fixes_round*.py) name theirs with
``run_is`` too.
"""

from functools import partial

import tvm_ffi

from harness import input_copy as _input_copy
from harness import input_copy_mistakes as _mistakes
from harness.tvm_line import WalkResult, ir, walk

WRONG_FIXES = {
    "copy-drops-module-attributes": "the copy is a new module of the same functions: the "
    "module's attributes and global infos are lost in the output",
    "one-function-only": "CopyOnWrite only for a module of one function: a module of "
    "several functions is still changed in place",
    "host-functions-written-back": "CopyOnWrite only before the kernels are added: the given "
    "module's own functions are still rewritten in place",
    "blind-kernels-written-back": (
        "the host functions go to the copy, but the kernels the pass creates are also added to "
        "the input module (one of the two writes left on the input)"
    ),
    "blind-copy-after-write": (
        "the pass runs on the input and the copy is taken of its result (copied after the write)"
    ),
    "blind-without-global-infos": (
        "the copy is a new module of the input's functions and attributes: its global infos "
        "are dropped"
    ),
    "blind-only-under-immutable-option": (
        "copies only under the testing.immutable_module option (the symptom the report shows); "
        "elsewhere the input is still written"
    ),
    "blind-only-several-functions": (
        "copies only a module of several functions; a module of one function is written in place"
    ),
    "blind-option-kept-for-inner": (
        "runs the pass on a copy without lifting testing.immutable_module for the inner pass: "
        "every checked compile stops in it"
    ),
    "blind-written-functions-only": (
        "returns a module of the functions the pass wrote (and the kernels) only: functions "
        "without a kernel are dropped"
    ),
}


# the edit that makes the reference fix's ``run`` an expression over
# harness/input_copy_mistakes.py (``_mistakes``) and this module (``_wrong``)
run_is = partial(_mistakes.run_is, "split_host_device_inplace")


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


EDITS = {
    "copy-drops-module-attributes": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=False, option_lifted=False)"
    ),
    "one-function-only": run_is("_mistakes.one_function_only"),
    "host-functions-written-back": run_is("_wrong.host_functions_written_back"),
    "blind-kernels-written-back": run_is("_wrong.kernels_written_back"),
    "blind-copy-after-write": run_is("_mistakes.copy_after_write"),
    "blind-without-global-infos": run_is("_mistakes.without_global_infos"),
    "blind-only-under-immutable-option": run_is("_mistakes.only_under_immutable_option"),
    "blind-only-several-functions": run_is("_mistakes.several_functions_only"),
    "blind-option-kept-for-inner": run_is("_mistakes.option_kept_for_inner"),
    "blind-written-functions-only": run_is(
        "_mistakes.written_functions_only(one_function_kept=False)"
    ),
}

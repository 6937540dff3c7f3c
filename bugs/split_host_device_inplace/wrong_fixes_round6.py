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
"""Blind round 6: wrong fixes of split_host_device_inplace (patch 0006, SplitHostDevice)."""

import tvm_ffi

from bugs.split_host_device_inplace import reference_fix as fix
from harness import input_copy as _input_copy
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-shd-immutable-kept": (
        "under testing.immutable_module the copy is passed to the pass in the caller's context: "
        "the pass's own in-place writes to the copy trip the check, every compile is refused"
    ),
    "blind6-shd-inner-ctx-no-instruments": (
        "the context rebuilt without testing.immutable_module drops the caller's pass "
        "instruments: the passes SplitHostDevice runs inside (ConvertSSA, ...) go unseen"
    ),
    "blind6-shd-copy-drops-global-infos": (
        "the copy is built as IRModule(functions, attrs) instead of a clone: the module's "
        "global infos are lost from the result"
    ),
    "blind6-shd-first-write-inplace": (
        "only the second Update (device_mod) goes through CopyOnWrite: the rewritten host "
        "functions are still written into the caller's module"
    ),
    "blind6-shd-no-ssa-when-nothing-to-split": (
        "the write guard returns early: a module without a device region is returned as it "
        "came, without ConvertSSA"
    ),
    "blind6-shd-single-function-inplace": (
        "the copy is skipped for a module of one function (taken as one the pass owns alone): "
        "the caller's one-function module is still written"
    ),
}

UNSEEN = {
    "blind6-shd-inner-ctx-no-instruments": (
        "a step of the Python stand-in only: it runs the released pass on a copy inside a pass "
        "context of its own, which patch 0006 does not (the C++ writes through CopyOnWrite); "
        "proof: "
        "test_pipeline_runs_the_pass_at_every_opt_level_in_view_of_its_instruments kills it"
    ),
}


def _inner_context(ctx, config, instruments=True):
    return ir.PassContext(
        opt_level=ctx.opt_level,
        required_pass=list(ctx.required_pass),
        disabled_pass=list(ctx.disabled_pass),
        instruments=list(ctx.instruments) if instruments else [],
        config=config,
    )


def _run_immutable_kept(inner, mod):
    return inner(mod.clone())


def _run_no_instruments(inner, mod):
    ctx = ir.PassContext.current()
    config = dict(ctx.config.items()) if ctx.config is not None else {}
    if not config.get(_input_copy.IMMUTABLE):
        return inner(mod.clone())
    del config[_input_copy.IMMUTABLE]
    with _inner_context(ctx, config, instruments=False):
        return inner(mod.clone())


def _copy_without_global_infos(mod):
    return type(mod)(dict(mod.functions.items()), attrs=mod.attrs)


def _run_drops_global_infos(inner, mod):
    return inner(_copy_without_global_infos(mod))


def _run_first_write_inplace(inner, mod):
    result = _input_copy.run(inner, mod)
    for gvar, func in list(mod.functions.items()):  # the host updates land in the input
        new = result.functions.get(gvar)
        if new is not None and not new.same_as(func):
            mod.update_func(gvar, new)
    return result


def _has_device_region(mod):
    """Whether a PrimFunc of ``mod`` has a device region (SplitHostDevice has work)."""
    found = []
    for func in mod.functions.values():
        if isinstance(func, ir.PrimFunc):
            tvm_ffi.structural_walk(
                func.body,
                [(ir.Stmt, lambda n: found.append(n) if ir.is_device_region(n) else None)],
            )
    return bool(found)


def _run_no_ssa(inner, mod):
    if not _has_device_region(mod):
        return mod
    return _input_copy.run(inner, mod)


def _run_single_inplace(inner, mod):
    if len(mod.functions) == 1:
        return inner(mod)
    return _input_copy.run(inner, mod)


_RUNS = {
    "blind6-shd-immutable-kept": _run_immutable_kept,
    "blind6-shd-inner-ctx-no-instruments": _run_no_instruments,
    "blind6-shd-copy-drops-global-infos": _run_drops_global_infos,
    "blind6-shd-first-write-inplace": _run_first_write_inplace,
    "blind6-shd-no-ssa-when-nothing-to-split": _run_no_ssa,
    "blind6-shd-single-function-inplace": _run_single_inplace,
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, {"run": _RUNS[name]})

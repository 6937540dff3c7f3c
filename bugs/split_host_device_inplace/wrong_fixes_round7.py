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
"""Blind round 7 wrong fixes of the split_host_device_inplace reference fix (patch 0006).

Each replaces the reference fix's ``run`` (the pass on a copy of its input). The released pass
``inner`` writes ``updates`` and ``device_mod`` into the module it is given in place, so running
it on ``c = mod.clone()`` leaves in ``c`` the module as the C++ has it right after its two
writes (before ConvertSSA and LowerDeviceKernelLaunches): the wrong fixes use that state."""

from bugs.split_host_device_inplace import reference_fix as fix
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-cow-second-write-only": (
        "mod->Update(updates); mod.CopyOnWrite()->Update(device_mod): "
        "the copy is taken after the first write, so the caller's module keeps the rewritten host "
        "functions"
    ),
    "blind7-guard-returns-early": (
        "the guard is written as `if (nothing to write) return mod;`, "
        "skipping ConvertSSA: a module without kernels comes back in non-SSA form"
    ),
    "blind7-copy-drops-attrs": (
        "the copy is built as IRModule(mod->functions): the output loses "
        "the module's attributes (and global infos)"
    ),
    "blind7-copy-drops-global-infos": (
        "the copy is built as IRModule(mod->functions, {}, "
        "mod->attrs): the output loses the module's global infos"
    ),
    "blind7-copy-in-local": (
        "the writes go through a local `IRModule out = mod; "
        "out.CopyOnWrite()->Update(...)` but ConvertSSA/LowerDeviceKernelLaunches run on the "
        "unwritten mod: the kernels are lost from the output"
    ),
}


def _wrote(mod, c):
    """Whether the released pass wrote anything into ``c`` (a clone of ``mod``)."""
    if len(c.functions) != len(mod.functions):
        return True
    return any(not c[gv.name_hint].same_as(f) for gv, f in mod.functions.items())


def _second_write_only(inner, mod):
    c = mod.clone()
    result = inner(c)
    for gv, f in list(mod.functions.items()):
        if not c[gv.name_hint].same_as(f):
            mod.update_func(gv, c[gv.name_hint])  # the first write, still through operator->
    return result


def _returns_early(inner, mod):
    c = mod.clone()
    result = inner(c)
    return result if _wrote(mod, c) else mod


def _fresh(mod, keep_attrs):
    if keep_attrs:
        return type(mod)(dict(mod.functions.items()), attrs=mod.attrs)
    return type(mod)(dict(mod.functions.items()))


def _drops(keep_attrs):
    def run(inner, mod):
        c = mod.clone()
        inner(c)
        if not _wrote(mod, c):
            return _ref(inner, mod)
        return inner(_fresh(mod, keep_attrs))

    return run


def _ref(inner, mod):
    from harness import input_copy

    return input_copy.run(inner, mod)


def _copy_in_local(inner, mod):
    c = mod.clone()
    inner(c)
    if not _wrote(mod, c):
        return _ref(inner, mod)
    # the pass's tail on the module as it came, unwritten (LowerDeviceKernelLaunches, which
    # finds no kernel in it, left out: no Python handle)
    return ir.transform_ffi.ConvertSSA()(mod.clone())


RUNS = {
    "blind7-cow-second-write-only": _second_write_only,
    "blind7-guard-returns-early": _returns_early,
    "blind7-copy-drops-attrs": _drops(False),
    "blind7-copy-drops-global-infos": _drops(True),
    "blind7-copy-in-local": _copy_in_local,
}


def install(name):
    return patched_install(fix, {"run": RUNS[name]})

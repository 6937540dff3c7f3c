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
"""Blind round 7 wrong fixes of the lower_iket_inplace reference fix (patch 0010).

Each replaces the reference fix's ``run``. The released pass ``inner`` writes the module it is
given in place (``module->Update``): run on the caller's module it models a write left without
``CopyOnWrite``; run on a module with a function map of its own (not shared with anyone) it
models the stripping loop iterating the map it writes (no handle taken before the loop).
"""

from bugs.lower_iket_inplace.wrong_fixes import EDITS as FIRST
from bugs.lower_iket_inplace.wrong_fixes import STRIP_RETURN
from bugs.lower_iket_inplace.wrong_fixes_round3 import written_back
from bugs.lower_iket_inplace.wrong_fixes_round4 import OWN_MAP_IN_CONTEXT

WRONG_FIXES = {
    "blind7-cow-strip-branch-only": (
        "only the stripping branch writes through "
        "module.CopyOnWrite(); the instrumenting branch keeps module->Update: with IKET enabled "
        "the caller's kernels are instrumented"
    ),
    "blind7-cow-instrument-branch-only": (
        "the stripping loop iterates a handle but still writes "
        "module->Update(global_var, function): the caller's module loses its marks"
    ),
    "blind7-no-map-handle": (
        "CopyOnWrite added but the loop still ranges over module->functions: "
        "when the pass holds the only reference (inside a pipeline) the write moves the entry and "
        "the loop stops after the first kernel"
    ),
    "blind7-copy-drops-attrs": (
        "the copy is built as IRModule(module->functions): the stripped "
        "output loses the module's attributes and global infos"
    ),
    "blind7-copy-drops-global-infos": (
        "the copy is built as IRModule(module->functions, {}, "
        "module->attrs): the stripped output loses the module's global infos"
    ),
    "blind7-local-copy-strip": (
        "the stripping loop writes `IRModule out = module; "
        "out.CopyOnWrite()->Update(...)` but returns module: the output keeps its marks"
    ),
}


def drops(attrs):
    """The edit that returns, where the stripping loop wrote, a new module of the result's
    functions with the module attributes ``attrs`` (an expression): the global infos, and
    the attributes, are lost."""
    wrote = "any(not result[gv].same_as(f) for gv, f in mod.functions.items())"
    new = f"type(mod)(dict(result.functions.items()), attrs={attrs})"
    return [(STRIP_RETURN, f"    return {new} if {wrote} else result\n")]


EDITS = {
    "blind7-cow-strip-branch-only": FIRST["strip-branch-only"],
    "blind7-cow-instrument-branch-only": written_back("mod"),
    "blind7-no-map-handle": OWN_MAP_IN_CONTEXT,
    "blind7-copy-drops-attrs": drops("None"),
    "blind7-copy-drops-global-infos": drops("mod.attrs"),
    "blind7-local-copy-strip": [(STRIP_RETURN, "    return mod\n")],
}

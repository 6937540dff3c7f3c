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
"""Blind round 6: wrong fixes of lower_iket_inplace (patch 0010, LowerIket)."""

from bugs.lower_iket_inplace.wrong_fixes import EDITS as FIRST
from bugs.lower_iket_inplace.wrong_fixes import STRIP_RESULT
from bugs.lower_iket_inplace.wrong_fixes_round2 import EDITS as ROUND2
from bugs.lower_iket_inplace.wrong_fixes_round4 import OWN_MAP_IN_CONTEXT

WRONG_FIXES = {
    "blind6-iket-enabled-inplace": (
        "only the stripping branch writes through CopyOnWrite: the instrumenting branch "
        "(IKET enabled) still writes the instrumented kernels into the caller's module"
    ),
    "blind6-iket-copy-without-handle": (
        "both branches write through CopyOnWrite, but the stripping loop still iterates "
        "module->functions: past four kernels only the first is stripped"
    ),
    "blind6-iket-handle-without-copy": (
        "the loop iterates a handle of the map, but writes through module->Update: the caller's "
        "module is stripped in place"
    ),
    "blind6-iket-enabled-attr-present": (
        "IketEnabled is taken as 'the module has tirx.iket.enabled', not 'nonzero': a module "
        "with the attribute 0 is instrumented instead of stripped"
    ),
    "blind6-iket-enabled-equals-one": (
        "IketEnabled is taken as 'tirx.iket.enabled == 1': a module with the attribute 2 is "
        "stripped instead of instrumented"
    ),
    "blind6-iket-result-drops-attrs": (
        "the stripping branch's result is a new IRModule(functions): the module attributes "
        "(and global infos) are lost"
    ),
}


UNSEEN = {
    "blind6-iket-enabled-attr-present": (
        "a step the patch does not change: IketEnabled (any nonzero tirx.iket.enabled) is an "
        "unchanged function of the C++ that the Python stand-in restates"
    ),
}


EDITS = {
    "blind6-iket-enabled-inplace": FIRST["strip-branch-only"],
    "blind6-iket-copy-without-handle": OWN_MAP_IN_CONTEXT,
    "blind6-iket-handle-without-copy": ROUND2["blind2-result-not-cloned"],
    # IketEnabled true for any tirx.iket.enabled: a module with the attribute 0 is given to the
    # released pass as a module of its own with the attribute 1, the value it takes as enabled
    "blind6-iket-enabled-attr-present": [
        (
            "    if enabled(mod):\n",
            "    if mod.attrs is not None and ENABLED_ATTR in mod.attrs and not enabled(mod):\n"
            "        attrs = {k: v for k, v in mod.attrs.items() if k != ENABLED_ATTR}\n"
            "        attrs[ENABLED_ATTR] = 1\n"
            "        funcs = dict(mod.functions.items())\n"
            "        return inner(type(mod)(funcs, attrs=attrs, global_infos=mod.global_infos))\n"
            "    if enabled(mod):\n",
        )
    ],
    # IketEnabled only for tirx.iket.enabled == 1: any other value strips the marks, each
    # function given to the released pass in a module without the attribute
    "blind6-iket-enabled-equals-one": [
        *ROUND2["blind2-attr-equals-one"],
        (
            "    one = type(mod)({gvar: func}, attrs=mod.attrs,",
            "    attrs = {k: v for k, v in (mod.attrs or {}).items() if k != ENABLED_ATTR}\n"
            "    one = type(mod)({gvar: func}, attrs=attrs,",
        ),
    ],
    "blind6-iket-result-drops-attrs": [
        (STRIP_RESULT, "    result = type(mod)(dict(mod.functions.items()))")
    ],
}

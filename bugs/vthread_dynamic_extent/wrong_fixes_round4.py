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
"""Blind round 4: wrong fixes of the non-constant vthread extent report (patch 0013).

Each is the reference fix (reference_fix.py) with one mistake an engineer implementing
patch 0013 could make; bugs/vthread_dynamic_extent/demos_round4.py shows each on a program.
apache/tvm only (apache/tvm-tirx refuses the program on its own).
"""

import tvm
from bugs.vthread_dynamic_extent import reference_fix as fix
from bugs.vthread_dynamic_extent.wrong_fixes_round3 import (
    _check_with,
    _constructor_with,
    _first_stop_pre_order,
)
from harness.wrong_fixes import patched_install
from tvm import tirx

WRONG_FIXES = {
    "blind4-vthread-tags-only": "only tags starting with 'vthread' are checked: a cthread "
    "(also a virtual_thread attribute) with a non-constant extent still reaches the null cast",
    "blind4-check-before-body": "the extent is checked before the body is visited: of nested "
    "non-constant virtual threads the outer one is named, not the inner one the pass meets first",
    "blind4-first-function-only": "only the module's first PrimFunc is checked: a second "
    "function's non-constant extent still crashes the pass",
    "blind4-vars-only": "only an extent that is a variable is refused: an expression or a "
    "buffer load (L[0]) still reaches the null cast",
    "blind4-int32-only": "a constant extent must be an int32 IntImm: a valid int64 constant "
    "extent is refused",
    "blind4-pass-name": "the checking pass is registered as 'InjectVirtualThread', not "
    "'s_tir.InjectVirtualThread': disabled_pass no longer skips it",
    "blind4-thread-extent-too": "the attribute key is not checked: a thread launch "
    "(thread_extent) of a dynamic extent, which is valid, is refused",
}


def _vthread_tags_only(attr):
    if attr.attr_key != fix.ATTR:
        return False
    if isinstance(attr.node, tirx.IterVar) and not attr.node.thread_tag.startswith("vthread"):
        return False
    return not isinstance(attr.node, tirx.IterVar) or not isinstance(attr.value, tirx.IntImm)


_FIRST_STOP = fix.first_stop  # the reference's, before any wrong fix replaces it


def _first_stop_first_function(mod, stops=fix.offending):
    funcs = [f for f in mod.functions.values() if isinstance(f, tirx.PrimFunc)]
    return _FIRST_STOP(tvm.IRModule({"main": funcs[0]}), stops) if funcs else None


def _vars_only(attr):
    if attr.attr_key != fix.ATTR:
        return False
    return not isinstance(attr.node, tirx.IterVar) or isinstance(attr.value, tirx.Var)


def _int32_only(attr):
    if attr.attr_key != fix.ATTR:
        return False
    value = attr.value
    constant = isinstance(value, tirx.IntImm) and str(value.ty) == "int32"
    return not isinstance(attr.node, tirx.IterVar) or not constant


def _any_key(attr):
    if attr.attr_key not in (fix.ATTR, "thread_extent"):
        return False
    return not isinstance(attr.node, tirx.IterVar) or not isinstance(attr.value, tirx.IntImm)


# a wrong fix no test can see (docs/proof.md, the fourth round)
UNSEEN = {
    "blind4-first-function-only": "as round 3's blind3-first-function-only: wherever it differs "
    "from the fix the released pass segfaults, so an in-process test dies instead of failing "
    "(proof: the child-process test's [second-function] case); the C++ check runs on every "
    "function",
    "blind4-pass-name": "as round 3's blind3-unnamed-pass: a step of the Python stand-in only "
    "(its wrapping pass's name); patch 0013 changes the visitor, not the pass's registration "
    "(proof: test_pass_context_treats_the_pass_as_released[disabled-vthread])",
    "blind4-vars-only": "wherever it differs from the fix (an extent that is a load or an "
    "expression) the released pass segfaults, so the test process dies instead of failing "
    "(proof: the child-process test's cases)",
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    patches = {
        "blind4-vthread-tags-only": {"check": _check_with(_vthread_tags_only)},
        "blind4-check-before-body": {"first_stop": _first_stop_pre_order},
        "blind4-first-function-only": {"first_stop": _first_stop_first_function},
        "blind4-vars-only": {"check": _check_with(_vars_only)},
        "blind4-int32-only": {"check": _check_with(_int32_only)},
        "blind4-pass-name": {
            "_constructor": _constructor_with(opt_level=0, name="InjectVirtualThread")
        },
        "blind4-thread-extent-too": {"check": _check_with(_any_key)},
    }[name]
    return patched_install(fix, patches)

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
"""Third blind round: wrong fixes of vthread_dynamic_extent (InjectVirtualThread's check).

Each is a variant of the InjectVirtualThread reference fix that makes one mistake in one step of
``bugs/vthread_dynamic_extent/reference_fix.py``."""

import tvm_ffi

import tvm
from bugs.vthread_dynamic_extent import reference_fix as fix
from harness.tvm_line import ir
from tvm import tirx

WRONG_FIXES = {
    "blind3-opt-level-2": "the checking pass is declared at opt_level 2 instead of the released "
    "pass's 0: compiled at opt_level 0 or 1 the Sequential skips it, vthreads are never injected "
    "and a valid kernel fails to compile",
    "blind3-unnamed-pass": "the checking pass is built without the released pass's name (it is "
    "called `_checked`): disabled_pass=['s_tir.InjectVirtualThread'] no longer disables the "
    "injection",
    "blind3-first-function-only": "the check looks at the module's first PrimFunc only: a "
    "non-constant extent in a second function still crashes the pass (SIGSEGV)",
    "blind3-vthread-tag-only": "virtual threads are recognised by the tag `vthread*` (the "
    "allow_share test) instead of the attribute key: a non-constant cthread extent still crashes "
    "the pass",
    "blind3-var-or-load-only": "only an extent that is a variable or a buffer load is refused; any "
    "other non-constant expression (n * 2) still crashes the pass",
    "blind3-pre-order": "the attributes are searched in pre-order: of nested non-constant virtual "
    "threads the outer one is named, not the inner one the C++ mutator reaches first",
}


def _check_with(stops):
    def check(mod):
        attr = fix.first_stop(mod, stops)
        if attr is not None and isinstance(attr.node, tirx.IterVar):
            raise ValueError(fix.message(attr.node.thread_tag, attr.value))

    return check


def _offending_by_tag(attr):
    # the mistake: a virtual thread is one whose tag starts with "vthread"
    node = attr.node
    if not (isinstance(node, tirx.IterVar) and str(node.thread_tag).startswith("vthread")):
        return False
    return not isinstance(attr.value, tirx.IntImm)


def _offending_var_or_load(attr):
    if attr.attr_key != fix.ATTR:
        return False
    if not isinstance(attr.node, tirx.IterVar):
        return True
    # the mistake: "a parameter or a value read from a buffer" is all that is refused
    return isinstance(attr.value, (tirx.Var, *ir.LOADS))


def _first_stop_with(order="post", first_function_only=False):
    """The reference ``first_stop`` with one step done wrong: each body walked in ``order``, or
    (``first_function_only``) no PrimFunc after the first looked at."""

    def first_stop(mod, stops=fix.offending):
        for func in mod.functions.values():
            if not isinstance(func, tirx.PrimFunc):
                continue
            found = []

            def visit(attr, found=found):
                if not found and stops(attr):
                    found.append(attr)

            tvm_ffi.structural_walk(func.body, [(tirx.AttrStmt, visit)], order=order)
            if found or first_function_only:
                return found[0] if found else None
        return None

    return first_stop


_first_stop_first_function = _first_stop_with(first_function_only=True)
_first_stop_pre_order = _first_stop_with(order="pre")


def _constructor_with(**pass_args):
    def constructor(original):
        def InjectVirtualThread():
            inner = original()

            @tvm.transform.module_pass(**pass_args)
            def _checked(mod, _ctx):
                return fix.run(inner, mod)

            return _checked

        setattr(InjectVirtualThread, fix._MARK, original)
        return InjectVirtualThread

    return constructor


def _check_first_function(mod):
    attr = _first_stop_first_function(mod)
    if attr is not None and isinstance(attr.node, tirx.IterVar):
        raise ValueError(fix.message(attr.node.thread_tag, attr.value))


PATCHES = {
    "blind3-opt-level-2": {
        "_constructor": _constructor_with(opt_level=2, name="s_tir.InjectVirtualThread")
    },
    "blind3-unnamed-pass": {"_constructor": _constructor_with(opt_level=0)},
    "blind3-first-function-only": {"check": _check_first_function},
    "blind3-vthread-tag-only": {"check": _check_with(_offending_by_tag)},
    "blind3-var-or-load-only": {"check": _check_with(_offending_var_or_load)},
    "blind3-pre-order": {"first_stop": _first_stop_pre_order},
}


# the wrong fixes no test can see (scripts/wrong_fixes.py does not run them; docs/proof.md
# names them)
UNSEEN = {
    "blind3-opt-level-2": "a step of the Python stand-in only (its wrapping pass's opt_level): "
    "patch 0013 changes the visitor, not the pass's registration (proof: "
    "test_pass_context_treats_the_pass_as_released[opt-level-1-vthread])",
    "blind3-unnamed-pass": "a step of the Python stand-in only (its wrapping pass's name), as "
    "above (proof: test_pass_context_treats_the_pass_as_released[disabled-vthread])",
    "blind3-first-function-only": "wherever it differs from the fix the released pass "
    "segfaults, so an in-process test dies instead of failing (proof: the child-process "
    "test's [second-function] case); the C++ check runs on every function",
}

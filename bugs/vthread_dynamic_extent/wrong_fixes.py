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
"""Wrong fixes of the vthread_dynamic_extent report: variants of
bugs/vthread_dynamic_extent/reference_fix.py.

Each replaces the reference fix's ``run`` (the check before the released pass) with a check that
makes one mistake. The crash, modelled: a wrong fix that lets a non-constant extent reach the
released pass would have the pass die by SIGSEGV, taking the test process with it, so here the
released pass is not called for such a module; ``RuntimeError("the released pass would crash
here")`` is raised instead. Every bug test then fails in-process, as the crash would end it.
"""

import tvm
from bugs.vthread_dynamic_extent import reference_fix as fix
from harness.wrong_fixes import patched_install
from tvm import tirx

CRASH = "the released pass would crash here"

WRONG_FIXES = {
    "vthread-tags-only": "the check sits where the thread tag starts with 'vthread' (the "
    "virtual threads that may share memory): a cthread's non-constant extent reaches the cast",
    "cthread-only": "the check sits in the branch of the virtual threads that may not share "
    "memory (cthread): a vthread's non-constant extent reaches the cast",
    "var-extents-only": "only an extent that is a variable is refused: an expression or a "
    "value read from a buffer reaches the cast",
    "int32-constants-only": "the extent must be an int32 constant (the int the pass keeps): an "
    "int64 constant extent is refused too",
    "internal-error": "an ICHECK instead of the ValueError: a user's program gets an InternalError",
    "tag-not-named": "the ValueError names the extent but not the virtual thread's tag",
    "check-after-pass": "the extent is checked on the pass's output: the released pass has "
    "already run into the null cast",
}


def _is_virtual_thread(attr):
    return attr.attr_key == fix.ATTR and isinstance(attr.node, tirx.IterVar)


def _non_constant(attr):
    return _is_virtual_thread(attr) and not isinstance(attr.value, tirx.IntImm)


def released(inner, mod):
    """The released pass ``inner`` on ``mod``, its crash modelled: a RuntimeError where a
    virtual thread's extent is not a constant."""
    if fix.first_stop(mod, _non_constant) is not None:
        raise RuntimeError(CRASH)
    return inner(mod)


def _checking(stops, kind=ValueError, words=fix.message):
    """A ``run`` that raises ``kind(words(tag, extent))`` at the first virtual thread at which
    ``stops`` holds, else runs the released pass."""

    def run(inner, mod):
        attr = fix.first_stop(mod, stops)
        if attr is not None:
            raise kind(words(attr.node.thread_tag, attr.value))
        return released(inner, mod)

    return run


def _shares(attr):
    return attr.node.thread_tag.startswith("vthread")


def _no_tag(_tag, extent):
    return (
        f"InjectVirtualThread: a virtual thread needs a constant extent, but its extent is {extent}"
    )


def _check_after_pass(inner, mod):
    out = released(inner, mod)
    fix.check(out)
    return out


_RUNS = {
    "vthread-tags-only": _checking(lambda a: _non_constant(a) and _shares(a)),
    "cthread-only": _checking(lambda a: _non_constant(a) and not _shares(a)),
    "var-extents-only": _checking(
        lambda a: _is_virtual_thread(a) and isinstance(a.value, tirx.Var)
    ),
    "int32-constants-only": _checking(
        lambda a: _non_constant(a) or (_is_virtual_thread(a) and str(a.value.ty) != "int32")
    ),
    "internal-error": _checking(_non_constant, kind=tvm.error.InternalError),
    "tag-not-named": _checking(_non_constant, words=_no_tag),
    "check-after-pass": _check_after_pass,
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, {"run": _RUNS[name]})

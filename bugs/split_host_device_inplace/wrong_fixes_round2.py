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
"""Second blind round: wrong fixes of split_host_device_inplace (patch 0006, SplitHostDevice half).

Each is the reference fix (the pass run on a copy of its input, harness/input_copy.py) with
one mistake in how that copy is taken, when it is taken, or what is returned. (A fourth
kind, a wrapping pass built with opt_level 1, is a mistake of the Python stand-in alone: the
C++ fix has no wrapping pass, so no upstream test sees it; the proof test
test_pipeline_runs_the_pass_at_every_opt_level_in_view_of_its_instruments kills it, and
docs/proof.md names it.)
"""

from bugs.split_host_device_inplace import reference_fix as fix
from harness import input_copy
from harness import input_copy_mistakes as _mistakes
from harness.tvm_line import WalkResult, ir, walk
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind2-clone-result": "copies the pass's result instead of its input (the copy is taken after "
    "the pass wrote the caller's module)",
    "blind2-immutable-kept": "runs the pass on a copy, but in the caller's context: "
    "testing.immutable_module still checks the copy the pass writes in place",
    "blind2-copy-drops-attrs": "copies the input as IRModule(mod.functions): the module's "
    "attributes are lost from the result",
    "blind2-thread-launch-only": "copies only when a function has a thread launch, taken for "
    "'something to write'; a device region without threads is split in the caller's module",
    "blind2-first-function-only": "decides whether there is something to write from the module's "
    "first function only; a kernel in a later function is split in the caller's module",
    "blind2-return-copy": "returns the copy it handed the pass (written in place by the split) "
    "instead of the pass's result, losing ConvertSSA and the launch lowering",
}

NOT_ON_TVM_TIRX = {
    "blind2-thread-launch-only": "on tvm-tirx every region SplitHostDevice splits is a "
    "launch_thread or device_scope region, both of which the line's is_thread_env takes: the "
    "wrong fix copies whenever the reference fix's copy matters",
}


def _clone_result(inner, mod):
    return inner(mod).clone()  # the copy is taken of what the pass returned


def _has(func, predicate):
    found = []

    def visit(node):
        if predicate(node):
            found.append(node)
            return WalkResult.SKIP
        return WalkResult.ADVANCE

    walk(func, visit, order="pre")
    return bool(found)


def _thread_launch_only(inner, mod):
    if any(_has(f, ir.is_thread_env) for f in mod.functions.values()):
        return input_copy.run(inner, mod)
    return inner(mod)  # "nothing to write": as it came


def _first_function_only(inner, mod):
    funcs = list(mod.functions.values())
    if funcs and _has(funcs[0], ir.is_device_region):
        return input_copy.run(inner, mod)
    return inner(mod)  # "nothing to write": as it came


def _return_copy(inner, mod):
    def split_in_place(copy):
        inner(copy)
        return copy  # the copy the pass wrote, not what it returned

    return input_copy.run(split_in_place, mod)


_RUNS = {
    "blind2-clone-result": _clone_result,
    "blind2-immutable-kept": _mistakes.option_kept_for_inner,
    "blind2-copy-drops-attrs": _mistakes.rebuilt_copy(
        attrs=False, global_infos=False, option_lifted=True
    ),
    "blind2-thread-launch-only": _thread_launch_only,
    "blind2-first-function-only": _first_function_only,
    "blind2-return-copy": _return_copy,
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in _RUNS:
        raise ValueError(f"unknown wrong fix {name!r}")
    return patched_install(fix, {"run": _RUNS[name]})

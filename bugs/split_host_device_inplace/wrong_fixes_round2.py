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

Each is the reference fix's text with ``run`` changed (harness/wrong_fixes.py: EDITS;
``run_is`` and the mistakes it names in wrong_fixes.py).
"""

from bugs.split_host_device_inplace.wrong_fixes import run_is

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


EDITS = {
    "blind2-clone-result": run_is("_wrong.copy_after_write_unlifted"),
    "blind2-immutable-kept": run_is("_mistakes.option_kept_for_inner"),
    "blind2-copy-drops-attrs": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=False, option_lifted=True)"
    ),
    "blind2-thread-launch-only": run_is("_wrong.thread_launch_only"),
    "blind2-first-function-only": run_is("_wrong.first_function_only"),
    "blind2-return-copy": run_is("_wrong.written_copy_returned"),
}

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
"""Second blind round: wrong fixes of annotate_entry_func_inplace (patch 0006,
AnnotateEntryFunc half).

Each is the reference fix (the pass run on a copy of its input, harness/input_copy.py) with
one mistake: in the copy, in the context the pass runs in under testing.immutable_module,
or in when the copy is taken (the C++ fix copies in both branches that write). (An inner
context built without the caller's pass instruments is a mistake of the Python stand-in
alone: the C++ fix runs in no context of its own, so no upstream test sees it; the proof test
test_pipeline_runs_the_pass_at_every_opt_level_in_view_of_its_instruments kills it, and
docs/proof.md names it.)

Each is the reference fix's text with ``run`` changed (harness/wrong_fixes.py: EDITS;
``run_is`` in wrong_fixes.py).
"""

from bugs.annotate_entry_func_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind2-no-copy-when-checked": "under testing.immutable_module runs the pass on the caller's "
    "module itself (only the option is dropped), so the wrapping pass's check fires",
    "blind2-copy-drops-global-infos": "copies the input as IRModule(functions, attrs): the "
    "module's global infos are lost from the result",
    "blind2-single-function-branch": "copies only in the one-function branch; one public PrimFunc "
    "among private ones is annotated in the caller's module",
    "blind2-public-only": "copies only when a function has a global_symbol ('an entry is public'); "
    "a single private PrimFunc is annotated in the caller's module",
    "blind2-copy-only-when-checked": "copies only under testing.immutable_module (where the "
    "failure was seen); a plain call still writes the caller's module",
}


EDITS = {
    "blind2-no-copy-when-checked": run_is("_wrong.no_copy_when_checked"),
    "blind2-copy-drops-global-infos": run_is("_mistakes.without_global_infos"),
    "blind2-single-function-branch": run_is("_mistakes.one_function_only"),
    "blind2-public-only": run_is("_wrong.public_only"),
    "blind2-copy-only-when-checked": run_is("_mistakes.only_under_immutable_option"),
}

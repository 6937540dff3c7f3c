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
"""Programs on which AnnotateEntryFunc's reference fix and blind wrong fixes differ, on
apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py
--bug annotate_entry_func_inplace), every round's.

demos.py's programs made of this line's functions, with demos.py's observers; each entry's
comment is there. The demos of a module's global infos of rounds 2, 3 and 7 are not here:
tvm-tirx 0.1.0a4 registers no GlobalInfo that Python can make (round 4's shows the empty
list)."""

from tvm_tirx.script import tirx as T

from bugs.annotate_entry_func_inplace.demos import (
    CHECKED,
    INPUT,
    INPUT_IN_SEQUENTIAL,
    MARKED,
    OUTPUT,
    compiled_checked,
    programs,
)
from harness.blind_demo import Demo


def public():
    """A public function ``main``."""

    @T.function
    def main(A: T.Tensor((8,), "float32")):
        for i in range(8):
            A[i] = A[i] + T.float32(1)

    return main


def private():
    """A private function."""

    @T.function(private=True)
    def helper(A: T.Tensor((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)

    return helper


P = programs(public, private)

DEMOS = {
    # round 2
    "blind2-no-copy-when-checked": Demo(P.one, CHECKED),
    "blind2-single-function-branch": Demo(P.two, MARKED),
    "blind2-public-only": Demo(P.solo_private, MARKED),
    "blind2-copy-only-when-checked": Demo(P.one, MARKED),
    # round 3
    "blind3-multi-branch-in-place": Demo(P.two, MARKED),
    "blind3-single-branch-in-place": Demo(P.one, MARKED),
    "blind3-return-annotations-only": Demo(P.two, MARKED),
    "blind3-return-input": Demo(P.one, MARKED),
    "blind3-copy-only-when-immutable": Demo(P.one, MARKED),
    "blind3-immutable-on-copy": Demo(P.one, CHECKED),
    # round 4
    "blind4-several-functions-writes-input": Demo(P.bare_two, INPUT),
    "blind4-single-function-writes-input": Demo(P.bare_one, INPUT),
    "blind4-several-functions-returns-input": Demo(P.bare_two, OUTPUT),
    "blind4-copy-drops-attrs": Demo(P.lib_prefix, OUTPUT),
    "blind4-copy-drops-global-infos": Demo(P.info_one, OUTPUT),
    "blind4-copy-only-under-immutable-option": Demo(P.bare_two, INPUT),
    # round 5
    "blind5-single-branch-only": Demo(P.bare_two, INPUT),
    "blind5-multi-branch-only": Demo(P.only_private, INPUT),
    "blind5-only-under-immutable": Demo(P.entry_beside_two, INPUT_IN_SEQUENTIAL),
    "blind5-return-with-annotations": Demo(P.beside_sub, OUTPUT),
    "blind5-return-input": Demo(P.api_beside_two, OUTPUT),
    "blind5-copy-drops-attrs": Demo(P.lib_prefix, OUTPUT),
    # round 6
    "blind6-aef-copy-single-branch-only": Demo(P.beside_two, INPUT),
    "blind6-aef-copy-multi-branch-only": Demo(P.bare_one, INPUT),
    "blind6-aef-copy-drops-attrs": Demo(P.device_id, OUTPUT),
    "blind6-aef-copy-after-write": Demo(P.bare_two, INPUT),
    "blind6-aef-skip-when-attr-present": Demo(P.marked_false, OUTPUT),
    "blind6-aef-immutable-kept": Demo(P.bare_one, compiled_checked),
    # round 7
    "blind7-cow-single-branch-only": Demo(P.bare_two, INPUT),
    "blind7-cow-multi-branch-only": Demo(P.bare_one, INPUT),
    "blind7-copy-drops-attrs": Demo(P.flag, OUTPUT),
    "blind7-local-copy-single": Demo(P.bare_one, OUTPUT),
    "blind7-local-copy-multi": Demo(P.bare_two, OUTPUT),
}

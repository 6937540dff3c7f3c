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
--bug annotate_entry_func_inplace).

demos.py's programs and observer in this line's TVMScript; each entry's comment is there. The
two demos of a module's global infos are not here: tvm-tirx 0.1.0a4 registers no GlobalInfo
that Python can make."""

from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo
from harness.blind_inplace import (
    IMMUTABLE,
    NOTE,
    annotate_entry_func,
    before_and_after,
    module_of,
)


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


ONE = module_of(NOTE, main=public)
TWO = module_of(NOTE, main=public, helper=private)
MARKED = before_and_after(annotate_entry_func)

DEMOS = {
    "blind2-no-copy-when-checked": Demo(ONE, before_and_after(annotate_entry_func, IMMUTABLE)),
    "blind2-single-function-branch": Demo(TWO, MARKED),
    "blind2-public-only": Demo(module_of(NOTE, solo=private), MARKED),
    "blind2-copy-only-when-checked": Demo(ONE, MARKED),
    "blind3-multi-branch-in-place": Demo(TWO, MARKED),
    "blind3-single-branch-in-place": Demo(ONE, MARKED),
    "blind3-return-annotations-only": Demo(TWO, MARKED),
    "blind3-return-input": Demo(ONE, MARKED),
    "blind3-copy-only-when-immutable": Demo(ONE, MARKED),
    "blind3-immutable-on-copy": Demo(ONE, before_and_after(annotate_entry_func, IMMUTABLE)),
}

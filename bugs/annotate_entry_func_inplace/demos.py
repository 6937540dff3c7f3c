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
"""Programs on which AnnotateEntryFunc's reference fix and each blind wrong fix differ, on
apache/tvm (harness/blind_demo.py; run with scripts/blind_demos.py --bug
annotate_entry_func_inplace).

The programs are modules (attribute 'note') of one or two functions, for the pass's two
branches (a module of one function; one public PrimFunc among several); every demo looks at
them through harness.blind_inplace.before_and_after: whether the caller's module changed, and
which functions carry tirx.is_entry_func afterwards."""

from harness.blind_demo import Demo
from harness.blind_inplace import (
    IMMUTABLE,
    NOTE,
    annotate_entry_func,
    before_and_after,
    module_of,
)
from tvm.script import ir as I
from tvm.script import tirx as T


def public():
    """A public function ``main``."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = A[i] + T.float32(1)

    return main


def private():
    """A private function."""

    @T.prim_func(private=True)
    def helper(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)

    return helper


def with_vdevice(program):
    """``program`` with a global info (a vdevice) added to its module."""

    def with_info():
        mod = program()
        mod.update_global_info("vdevice", [I.vdevice("llvm")])
        return mod

    return with_info


ONE = module_of(NOTE, main=public)
TWO = module_of(NOTE, main=public, helper=private)
MARKED = before_and_after(annotate_entry_func)

DEMOS = {
    # under testing.immutable_module the pass runs; the wrong fix runs it on the caller's module
    "blind2-no-copy-when-checked": Demo(ONE, before_and_after(annotate_entry_func, IMMUTABLE)),
    # the output keeps the global info; the wrong fix's copy drops it
    "blind2-copy-drops-global-infos": Demo(with_vdevice(ONE), MARKED),
    # one public function among two: the input stays unmarked; the wrong fix copies only in
    # the one-function branch
    "blind2-single-function-branch": Demo(TWO, MARKED),
    # one private function: the input stays unmarked; the wrong fix copies only for a public one
    "blind2-public-only": Demo(module_of(NOTE, solo=private), MARKED),
    # called plainly, the input stays unmarked; the wrong fix copies only under
    # testing.immutable_module
    "blind2-copy-only-when-checked": Demo(ONE, MARKED),
    # one public function among two: the input stays unmarked; the wrong fix copies in the
    # one-function branch only
    "blind3-multi-branch-in-place": Demo(TWO, MARKED),
    # one function: the input stays unmarked; the wrong fix copies in the other branch only
    "blind3-single-branch-in-place": Demo(ONE, MARKED),
    # one public function among two: the output keeps the private one and the attribute; the
    # wrong fix returns the annotated functions alone
    "blind3-return-annotations-only": Demo(TWO, MARKED),
    # one function: the output's main is marked; the wrong fix marks a copy, returns the input
    "blind3-return-input": Demo(ONE, MARKED),
    # the output keeps the global info; the wrong fix's copy drops it
    "blind3-copy-drops-global-infos": Demo(with_vdevice(ONE), MARKED),
    # called plainly, the input stays unmarked; the wrong fix copies only under
    # testing.immutable_module
    "blind3-copy-only-when-immutable": Demo(ONE, MARKED),
    # under testing.immutable_module the pass runs; the wrong fix runs it on its copy in the
    # caller's context, which trips on the copy being written
    "blind3-immutable-on-copy": Demo(ONE, before_and_after(annotate_entry_func, IMMUTABLE)),
}

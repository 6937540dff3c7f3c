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
"""Programs on which VerifyMemory's reference fix and each blind wrong fix differ, on
apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py
--bug verify_memory): demos.py's entries, their programs built on this line (tensors, launch
regions). The access-ptr-operand-0 wrong fixes have none: tvm-tirx's TVMScript has no
tvm_access_ptr. Where a kernel here has no blockIdx.x block, or a view's pointer is let-bound,
the program was written so for this line."""

from bugs.verify_memory.demos import (
    A8,
    ONE,
    at_offset,
    compiled,
    increment,
    said,
    stack_buffer,
    stored,
    verified,
    view,
    view_at,
)
from bugs.verify_memory.demos import DEMOS as ON_APACHE
from harness.blind_demo import Demo, without

DEMOS = {
    **without(ON_APACHE, "blind2-access-ptr-operand-0", "blind4-access-ptr-operand-0"),
    # the entries whose programs are written for this line
    # a view at address_of(A[B[0]]) that the kernel reads: the host reads B in the index; the
    # wrong fix skips the address with its indices
    "blind2-address-of-skipped": Demo(
        view_at(f'{A8}, B: T.Buffer((1,), "int32")', "A[B[0]]", increment("V", 4, blocks=False)),
        compiled(),
    ),
    # a host store through a view of a T.handle("float32") parameter: the wrong fix counts tensor
    # parameters only
    "blind2-handle-params-ignored": Demo(
        stored(
            'a: T.handle("float32"), B: T.Buffer((8,), "float32")',
            "a",
            increment("B", 8, blocks=False),
        ),
        compiled(),
    ),
    # a host store through a let-bound pointer to a view of A: the wrong fix follows one
    # definition step
    "blind2-one-step-alias": Demo(
        stored(
            A8,
            "p",
            increment("A", 8, blocks=False),
            shape="(4,)",
            before=[view("U", "(8,)", "A.data"), "p = U.data"],
        ),
        compiled(),
    ),
    # VALID: a disable_lower_builtin tensor written by a host loop (analysis): the wrong fix needs
    # device_type kDLCPU
    "blind3-disable-lower-builtin-ignored": Demo(stack_buffer(ONE), verified()),
    # the host stores through a view at B's fifth element, its address an offset of B.data
    "blind7-offset-not-followed": Demo(at_offset("T.handle_add_byte_offset(B.data, 16)"), said),
}

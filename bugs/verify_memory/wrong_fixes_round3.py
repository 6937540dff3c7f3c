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
"""Third blind round: wrong fixes of verify_memory, each one small mistake in its reference fix
(bugs/verify_memory/reference_fix.py), written as an edit of its text (harness/wrong_fixes.py:
EDITS); a mistake an earlier round already made reuses that round's edit."""

from bugs.verify_memory.wrong_fixes import EDITS as FIRST
from bugs.verify_memory.wrong_fixes_round2 import EDITS as SECOND

WRONG_FIXES = {
    "blind3-first-param-only": "keeps the legacy rule: only params[0] counts as caller memory, "
    "not every pointer or buffer parameter",
    "blind3-outer-extent-only": "visits only the value of the thread_extent that opens a kernel "
    "as host code, not the extents of the launches nested in it",
    "blind3-no-shared-dyn-size": "forgets that a kernel's shared.dyn allocation shape is a "
    "launch parameter the host computes",
    "blind3-address-of-counts-access": "no address_of special case: address_of(X[i]) on the host "
    "is taken for an access of X",
    "blind3-address-of-skips-indices": "address_of(X[i]) is skipped whole: its indices (host "
    "code that may read device memory) are not visited",
    "blind3-no-webgpu": "IsGPUDevice is left without kDLWebGPU",
    "blind3-handle-param-not-pointer": "counts only buffer-typed parameters, not pointer "
    "(T.handle) parameters, as caller memory",
    "blind3-disable-lower-builtin-ignored": "a host global allocation counts as host memory only "
    "when annotated device_type kDLCPU, not with disable_lower_builtin",
    "blind3-hostless-entry-skipped": "skips every function whose target has no host, entry "
    "points (with a global_symbol) included",
}


EDITS = {
    "blind3-first-param-only": [
        (
            "(ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType))",
            "p.same_as(self.func.params[0])",
        )
    ],
    "blind3-outer-extent-only": FIRST["blind-nested-extents-in-kernel"],
    "blind3-no-shared-dyn-size": FIRST["launch-extents-only"],
    "blind3-address-of-counts-access": FIRST["address-of-access"],
    "blind3-address-of-skips-indices": FIRST["address-of-index-unchecked"],
    "blind3-no-webgpu": FIRST["no-webgpu"],
    "blind3-handle-param-not-pointer": SECOND["blind2-handle-params-ignored"],
    "blind3-disable-lower-builtin-ignored": [
        (
            '    return value("device_type") == 1 or (value("disable_lower_builtin") or 0) != 0',
            '    return value("device_type") == 1',
        )
    ],
    "blind3-hostless-entry-skipped": FIRST["skip-hostless"],
}

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
"""Second blind round: wrong fixes of verify_memory (patches/0003): each one small mistake in one
step of bugs/verify_memory/reference_fix.py, written as an edit of its text (harness/wrong_fixes.py:
EDITS); a mistake already made in the first round reuses that round's edit."""

from bugs.verify_memory.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind2-one-step-alias": "IsFromFunctionArgs follows one definition step (a view of a "
    "parameter) instead of walking the chain to its end (a view of a view is missed)",
    "blind2-address-of-skipped": "address_of(X[i]) is skipped whole, its indices not visited "
    "either (a host read in the index of an address is missed)",
    "blind2-device-type-presence": "an allocation with any device_type annotation is taken as "
    "host memory, not only one annotated kDLCPU (1)",
    "blind2-access-ptr-operand-0": "tvm_access_ptr is followed through its first operand (the "
    "type annotation) instead of its second (the data pointer)",
    "blind2-nested-extents-device": "only the extent of the launch's outermost thread_extent is "
    "visited as host code; the nested thread_extent values stay device code",
    "blind2-host-less-entry-skipped": "every function whose target has no host is skipped, "
    "entry points (with global_symbol) included, not only the helpers without global_symbol",
    "blind2-handle-params-ignored": "only buffer parameters count as memory passed in; a "
    "pointer parameter (T.handle with a dtype) does not",
}


# apache/tvm-tirx 0.1.0a4's TVMScript has no tvm_access_ptr, so no program written there holds one
# for the wrong fix to follow through its other operand
NOT_ON_TVM_TIRX = {
    "blind2-access-ptr-operand-0": "tvm-tirx's TVMScript has no tvm_access_ptr: no program "
    "written there holds one",
}

_CHAIN = "        while var is not None and var not in seen:"

EDITS = {
    "blind2-one-step-alias": [(_CHAIN, _CHAIN[:-1] + " and len(seen) < 2:")],
    "blind2-address-of-skipped": FIRST["address-of-index-unchecked"],
    "blind2-device-type-presence": FIRST["blind-any-device-type"],
    "blind2-access-ptr-operand-0": FIRST["blind-access-ptr-first-arg"],
    "blind2-nested-extents-device": FIRST["blind-nested-extents-in-kernel"],
    "blind2-host-less-entry-skipped": FIRST["skip-hostless"],
    "blind2-handle-params-ignored": [
        ("(ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType))", "ir.is_buffer_var(p)")
    ],
}

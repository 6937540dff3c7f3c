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
"""Blind round 4: wrong fixes of VerifyMemory's alias tracing (patch 0003), each one mistake in
one step of bugs/verify_memory/reference_fix.py, written as an edit of its text
(harness/wrong_fixes.py: EDITS); each mistake an earlier round made already reuses its edit."""

from bugs.verify_memory.wrong_fixes import EDITS as FIRST
from bugs.verify_memory.wrong_fixes_round2 import EDITS as SECOND
from bugs.verify_memory.wrong_fixes_round3 import EDITS as THIRD

WRONG_FIXES = {
    "blind4-handle-param-not-pointer": "a parameter counts as the caller's memory only when it "
    "is a buffer: a pointer (T.handle) parameter aliased by a decl_buffer is taken for internal",
    "blind4-access-ptr-operand-0": "tvm_access_ptr's pointer is taken from argument 0 (the "
    "type annotation) instead of argument 1, so a view over tvm_access_ptr(t, A.data, ...) "
    "traces to nothing",
    "blind4-address-of-is-access": "address_of(X[i]) is visited as a load of X: a host-side "
    "view T.decl_buffer(data=T.address_of(A[4])) that only a kernel reads is rejected",
    "blind4-address-of-skips-indices": "address_of(X[i]) is skipped whole, its indices "
    "included: a host read of a device buffer inside the index is not seen",
    "blind4-outer-extent-only": "only the extent of the thread environment that opens the "
    "kernel is host code; the extents of the nested launch attributes stay device code",
    "blind4-no-shared-dyn-size": "the shape of a kernel's shared.dyn allocation (the launch's "
    "dynamic shared memory size) is not visited as host code",
    "blind4-ignore-disable-lower-builtin": "a host 'global' allocation stays on the host only "
    "when annotated device_type kDLCPU; disable_lower_builtin is ignored",
    "blind4-one-alias-step": "the definition chain is followed one step only (no fixpoint): "
    "an alias of an alias of a parameter is taken for internal",
    "blind4-no-webgpu": "IsGPUDevice is left without kDLWebGPU: webgpu functions are not checked",
    "blind4-skip-every-hostless": "every function whose target has no host is skipped, entry "
    "points with a global_symbol included",
}


# no program of tvm-tirx tells these apart from the reference fix
NOT_ON_TVM_TIRX = {
    "blind4-access-ptr-operand-0": "tvm-tirx registers no tirx.tvm_access_ptr",
}

EDITS = {
    "blind4-handle-param-not-pointer": SECOND["blind2-handle-params-ignored"],
    "blind4-access-ptr-operand-0": FIRST["blind-access-ptr-first-arg"],
    # _is_address_of_load is False for every node: address_of(X[i]) is walked as a load of X
    "blind4-address-of-is-access": FIRST["address-of-access"],
    "blind4-address-of-skips-indices": FIRST["address-of-index-unchecked"],
    "blind4-outer-extent-only": FIRST["blind-nested-extents-in-kernel"],
    "blind4-no-shared-dyn-size": FIRST["launch-extents-only"],
    "blind4-ignore-disable-lower-builtin": THIRD["blind3-disable-lower-builtin-ignored"],
    "blind4-one-alias-step": SECOND["blind2-one-step-alias"],
    "blind4-no-webgpu": FIRST["no-webgpu"],
    "blind4-skip-every-hostless": FIRST["skip-hostless"],
}

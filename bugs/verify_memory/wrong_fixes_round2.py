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
step of bugs/verify_memory/reference_fix.py."""

from bugs.verify_memory import reference_fix as fix
from bugs.verify_memory.wrong_fixes import (
    _AddressOfIndexUnchecked,
    _blind_host_memory_any_device_type,
    _blind_launch_parameters_outer,
    _checked_skip_hostless,
)
from harness.tvm_line import LINE, ir

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


class _OneStep(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        if self._is_pointer_param(var) or any(var.same_as(a) for a in self.device_allocations):
            return True
        var = fix._definition_source(self.defs.get(var))
        if var is None:
            return False
        return self._is_pointer_param(var) or any(var.same_as(a) for a in self.device_allocations)


class _HandleParamsIgnored(fix._MemoryAccessVerifier):
    def _is_pointer_param(self, var):
        return any(var.same_as(p) and ir.is_buffer_var(p) for p in self.func.params)


PATCHES = {
    "blind2-one-step-alias": {"_MemoryAccessVerifier": _OneStep},
    "blind2-address-of-skipped": {"_MemoryAccessVerifier": _AddressOfIndexUnchecked},
    "blind2-device-type-presence": {"_annotated_host_memory": _blind_host_memory_any_device_type},
    "blind2-access-ptr-operand-0": {
        "_POINTER_OPERAND": {**fix._POINTER_OPERAND, "tirx.tvm_access_ptr": 0}
    },
    "blind2-nested-extents-device": {"_launch_parameters": _blind_launch_parameters_outer},
    "blind2-host-less-entry-skipped": {"_checked": _checked_skip_hostless},
    "blind2-handle-params-ignored": {"_MemoryAccessVerifier": _HandleParamsIgnored},
}

assert LINE in ("tvm", "tvm_tirx")

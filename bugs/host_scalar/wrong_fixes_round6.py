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
"""Blind round 6 wrong fixes of the host-scalar reference fix."""

import tvm_ffi

from bugs.host_scalar import reference_fix as fix
from harness.tvm_line import allocation, ir, loaded, scope_of
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-count-unchecked": "a kernel load at index 0 is by-value whatever the buffer's size",
    "blind6-first-kernel-only": "kernel uses are collected from the first device region only",
    "blind6-view-decl-host-use": "declaring a view (data=c.data) on the host counts as a host use",
    "blind6-tensor-ignored": "a tensor made of the cell for a call is no device use (not rejected)",
    "blind6-device-id-kept": "S3 relocates the workspace to kDLCPU but keeps the lowered device id",
    "blind6-global-candidate": "global host allocations are classified too, not only local ones",
}


def _index_zero_load(load):
    dtype = tvm_ffi.dtype(str(loaded(load).ty.dtype))
    # mistake: no check that the buffer has a single element
    return dtype.lanes == 1 and all(isinstance(i, ir.IntImm) and i.value == 0 for i in load.indices)


def _host_device_keep_id(alloc):
    device = _REF_HOST_DEVICE(alloc)
    return None if device is None else (device[0], None)  # mistake: the device id stays


_REF_HOST_DEVICE = fix._host_device
_REF_REGIONS = fix._regions


def _first_region(body):
    return _REF_REGIONS(body)[:1]  # mistake: the second kernel is missed


_PATCHES = {
    "blind6-count-unchecked": {"_is_single_element_load": _index_zero_load},
    "blind6-first-kernel-only": {"_regions": _first_region},
    "blind6-view-decl-host-use": {"_view_operands": lambda data: [data]},
    "blind6-tensor-ignored": {"_tensor_data": lambda node: None},
    "blind6-device-id-kept": {"_host_device": _host_device_keep_id},
    "blind6-global-candidate": {
        "_is_candidate": lambda alloc: scope_of(allocation(alloc)[0]) in ("local", "global")
    },
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])

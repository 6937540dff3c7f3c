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
"""Round-7 blind wrong fixes of the host-level scalar fix (patches/0002): one mistake each."""

import tvm_ffi

from bugs.host_scalar import reference_fix as fix
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-count-unchecked": (
        "a kernel load of an array of the host code is by value when its "
        "indices are 0 (element count not checked)"
    ),
    "blind7-lanes-unchecked": (
        "a kernel load of a one-element vector cell is passed by value (lanes not checked)"
    ),
    "blind7-first-extent": (
        "the element count of a host buffer is its first extent, not the product of all"
    ),
    "blind7-view-is-use": (
        "declaring a view of a host buffer on the host counts as a host use of it"
    ),
    "blind7-address-of-by-value": (
        "a kernel's address_of a host cell is treated as a read of its value"
    ),
    "blind7-stack-any-scope": (
        "LowerTVMBuiltin keeps an annotated small buffer on the stack whatever its scope"
    ),
    "blind7-device-id-kept": (
        "LowerTVMBuiltin relocates host memory to kDLCPU but keeps the function's device id"
    ),
    "blind7-any-device-type": (
        "an annotation device_type other than kDLCPU is accepted and lowered as kDLCPU"
    ),
}

# tvm-tirx hands an allocation kept on the stack to LowerTVMBuiltin inside
# T.device_context(1, 0), whose CPU rule still gives a local tensor a kDLCPU workspace: the
# same code as the reference fix's relocation to (kDLCPU, 0).
NOT_ON_TVM_TIRX = {
    "blind7-stack-any-scope": (
        "on tvm-tirx a local cell handed over as CPU memory still gets a (kDLCPU, 0) workspace"
    ),
}


def _single_no_count(load):
    buffer = fix.loaded(load)
    dtype = tvm_ffi.dtype(str(buffer.ty.dtype))
    return dtype.lanes == 1 and all(isinstance(i, ir.IntImm) and i.value == 0 for i in load.indices)


def _single_no_lanes(load):
    buffer = fix.loaded(load)
    return fix._constant_elements(buffer) == 1 and all(
        isinstance(i, ir.IntImm) and i.value == 0 for i in load.indices
    )


def _first_extent(buffer):
    extent = buffer.ty.shape[0]
    return int(extent.value) if isinstance(extent, ir.IntImm) else None


def _view_whole(data):
    return [data]


def _kernel_use_address(node):
    if isinstance(node, ir.LOADS):
        return None if fix._is_single_element_load(node) else "loads an element of"
    if isinstance(node, ir.Store):
        return "stores into"
    if isinstance(node, ir.Call):
        return None
    return "uses the pointer of"


def _stack_any_scope(buffer):
    elements = fix._constant_elements(buffer)
    dtype = tvm_ffi.dtype(str(buffer.ty.dtype))
    nbytes = (dtype.bits * dtype.lanes + 7) // 8
    return elements is not None and 0 < elements * nbytes < fix._MAX_STACK_ALLOCA


def _device_id_kept(alloc):
    return None if fix._DEVICE_TYPE not in fix._annotations(alloc) else (fix._KDLCPU, None)


def _any_device_type(alloc):
    return None if fix._DEVICE_TYPE not in fix._annotations(alloc) else (fix._KDLCPU, 0)


PATCHES = {
    "blind7-count-unchecked": {"_is_single_element_load": _single_no_count},
    "blind7-lanes-unchecked": {"_is_single_element_load": _single_no_lanes},
    "blind7-first-extent": {"_constant_elements": _first_extent},
    "blind7-view-is-use": {"_view_operands": _view_whole},
    "blind7-address-of-by-value": {"_kernel_use": _kernel_use_address},
    "blind7-stack-any-scope": {"_stays_on_stack": _stack_any_scope},
    "blind7-device-id-kept": {"_host_device": _device_id_kept},
    "blind7-any-device-type": {"_host_device": _any_device_type},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, PATCHES[name])

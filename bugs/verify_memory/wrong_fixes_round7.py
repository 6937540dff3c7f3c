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
"""Round-7 blind wrong fixes of the VerifyMemory alias fix (patches/0003): one mistake each."""

from bugs.verify_memory import reference_fix as fix
from harness.tvm_line import POINTER_ARITHMETIC, scope_of
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-webgpu-not-gpu": "IsGPUDevice does not count kDLWebGPU",
    "blind7-first-param-only": (
        "the alias walk stops at a pointer parameter only when it is params[0]"
    ),
    "blind7-offset-not-followed": (
        "the alias walk follows buffer_data but not a byte offset / access_ptr / reinterpret"
    ),
    "blind7-address-of-access": "address_of(X[i]) is still visited as an access of X",
    "blind7-hostless-entry-skipped": (
        "every function whose target has no host is skipped, entry points too"
    ),
    "blind7-local-alloc-device": (
        "a local buffer the host code allocates is taken for device memory too"
    ),
    "blind7-cpu-annotation-ignored": (
        "a global host allocation annotated device_type kDLCPU is still device memory"
    ),
    "blind7-nested-extent-skipped": (
        "only the extent of the thread environment that opens the kernel is host code"
    ),
}


def _first_param_only(self, var):
    params = list(self.func.params)[:1]
    return any(
        var.same_as(p) and (fix.ir.is_buffer_var(p) or isinstance(p.ty, fix.ir.PointerType))
        for p in params
    )


_NO_OFFSETS = {
    "tirx.buffer_data": 0,
    "tirx.tvm_struct_get": 0,
    "tirx.tensor_data_ptr": 0,
    "tirx.decl_tensor": 0,
}
assert set(POINTER_ARITHMETIC) - set(_NO_OFFSETS)


def _no_address_of(_node):
    return False


def _checked_host_only(func):
    attrs = func.attrs
    target = attrs.get("target") if attrs is not None else None
    if target is None:
        return False
    calling_conv = attrs.get("calling_conv")
    if calling_conv is not None and int(calling_conv) != 0:
        return False
    if target.get_target_device_type() not in fix._GPU_DEVICE_TYPES:
        return False
    return target.host is not None


def _device_any_scope(_var, annotations):
    return not fix._annotated_host_memory(annotations)


def _device_global_unannotated(var, _annotations):
    return scope_of(var) == "global"


def _own_extent_only(kernel):
    return fix._thread_extent(kernel)


PATCHES = {
    "blind7-webgpu-not-gpu": {"_GPU_DEVICE_TYPES": (2, 4, 7, 8, 10)},
    "blind7-first-param-only": {},
    "blind7-offset-not-followed": {"_POINTER_OPERAND": _NO_OFFSETS},
    "blind7-address-of-access": {"_is_address_of_load": _no_address_of},
    "blind7-hostless-entry-skipped": {"_checked": _checked_host_only},
    "blind7-local-alloc-device": {},
    "blind7-cpu-annotation-ignored": {},
    "blind7-nested-extent-skipped": {"_launch_parameters": _own_extent_only},
}

_METHODS = {
    "blind7-first-param-only": ("_is_pointer_param", _first_param_only),
    "blind7-local-alloc-device": ("_is_device_allocation", staticmethod(_device_any_scope)),
    "blind7-cpu-annotation-ignored": (
        "_is_device_allocation",
        staticmethod(_device_global_unannotated),
    ),
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in _METHODS:
        return patched_install(fix, PATCHES[name])
    attr, value = _METHODS[name]
    cls = fix._MemoryAccessVerifier
    saved = cls.__dict__[attr]
    setattr(cls, attr, value)
    undo = fix.install()

    def uninstall():
        undo()
        setattr(cls, attr, saved)

    return uninstall

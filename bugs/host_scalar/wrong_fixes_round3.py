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
"""Third blind round: wrong fixes of host_scalar, the host-level scalar report.

Each is the reference fix (bugs/host_scalar/reference_fix.py) with one plausible mistake in one
step."""

from bugs.host_scalar import reference_fix as fix
from bugs.host_scalar.wrong_fixes import _any_lanes_single_element_load
from bugs.host_scalar.wrong_fixes_round2 import _classify_uses_with, _launch_value_initializer
from harness.tvm_line import ir, scope_of

WRONG_FIXES = {
    "blind3-launch-value-initial": (
        "S2 passes each kernel the value the host code first stores into the cell (its "
        "initializer) instead of the value the cell holds at that launch"
    ),
    "blind3-host-view-not-host-use": (
        "S1 counts the host code's loads and stores through a view (decl_buffer at c.data) as "
        "no use of the viewed buffer"
    ),
    "blind3-kernel-view-as-value": (
        "S1 classifies a kernel's single-element load through a view like a load of the buffer "
        "itself (a value), instead of rejecting the view's pointer"
    ),
    "blind3-launched-thread-env-only": (
        "LaunchedFunctions counts a module function as a launched kernel only when it opens a "
        "thread environment, not also when its target's device differs from the host's"
    ),
    "blind3-array-not-candidate": (
        "S1 classifies only one-element local buffers of the host code; a host array stays "
        "device memory"
    ),
    "blind3-any-device-type": (
        "S3 lowers an allocation annotated device_type as CPU memory whatever the value, "
        "instead of rejecting a value other than kDLCPU"
    ),
    "blind3-vector-as-value": (
        "the single-element test ignores the lanes: a kernel's load of a one-element vector "
        "cell is passed by value instead of rejected"
    ),
}


# ---- blind3-launched-thread-env-only


def _launched_thread_env_only(func, mod):
    if mod is None:
        return [], set()
    launched, symbols = [], set()
    for gvar, callee in mod.functions.items():
        if not isinstance(callee, ir.PrimFunc) or callee.same_as(func):
            continue
        target = callee.attrs.get("target") if callee.attrs is not None else None
        if target is None:
            continue
        if fix._has_thread_env(callee):  # the mistake: the device test is missing
            launched.append(gvar)
            symbols.add(str(callee.attrs.get("global_symbol") or gvar.name_hint))
    return launched, symbols


# ---- blind3-array-not-candidate


def _one_element_candidate(alloc):
    buffer = fix.allocation(alloc)[0]
    return scope_of(buffer) == "local" and fix._constant_elements(buffer) == 1


# ---- blind3-any-device-type


def _any_device_type(alloc):
    if fix._DEVICE_TYPE not in fix._annotations(alloc):
        return None
    return fix._KDLCPU, 0  # the mistake: the annotated value is not checked


PATCHES = {
    "blind3-launch-value-initial": {"_launch_value": _launch_value_initializer},
    "blind3-host-view-not-host-use": {"_classify_uses": _classify_uses_with(host_views=False)},
    "blind3-kernel-view-as-value": {
        "_classify_uses": _classify_uses_with(kernel_view_pointer=False)
    },
    "blind3-launched-thread-env-only": {"_launched_functions": _launched_thread_env_only},
    "blind3-array-not-candidate": {"_is_candidate": _one_element_candidate},
    "blind3-any-device-type": {"_host_device": _any_device_type},
    "blind3-vector-as-value": {"_is_single_element_load": _any_lanes_single_element_load},
}

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

Each is the text of bugs/host_scalar/reference_fix.py with one plausible mistake in one step
(harness/wrong_fixes.py: EDITS)."""

from bugs.host_scalar.wrong_fixes import _LAUNCH_LOAD
from bugs.host_scalar.wrong_fixes_round2 import _INITIAL_VALUE

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

EDITS = {
    "blind3-launch-value-initial": [(_LAUNCH_LOAD, _INITIAL_VALUE)],
    "blind3-host-view-not-host-use": [
        (
            "        if _host_use(node):",
            "        if i < len(buffers) and _host_use(node):  # no view",
        )
    ],
    "blind3-kernel-view-as-value": [(' if i < len(buffers) else "uses a view of"', "")],
    "blind3-launched-thread-env-only": [
        (" or int(target.get_target_device_type()) != host_device", "")
    ],
    "blind3-array-not-candidate": [
        (
            '    return scope_of(allocation(alloc)[0]) == "local"',
            '    return scope_of(allocation(alloc)[0]) == "local" and (\n'
            "        _constant_elements(allocation(alloc)[0]) == 1\n"
            "    )",
        )
    ],
    "blind3-any-device-type": [
        (
            "    value = annotations[_DEVICE_TYPE]\n",
            "    return _KDLCPU, 0  # the value is not checked\n",
        )
    ],
    "blind3-vector-as-value": [("dtype.lanes == 1\n        and ", "")],
}

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
"""Blind round 4 wrong fixes of the host-level scalar report (patch 0002): each is the text of
bugs/host_scalar/reference_fix.py with one mistake in one step (harness/wrong_fixes.py:
EDITS)."""

from bugs.host_scalar.wrong_fixes import _LAUNCH_LOAD, _RUNTIMES
from bugs.host_scalar.wrong_fixes_round2 import _INITIAL_VALUE

WRONG_FIXES = {
    "blind4-vector-cell-by-value": "S1's single-element test forgets the lanes: a one-element "
    "host cell of a vector type (float32x4) that kernels read is passed by value as a vector "
    "kernel scalar, which no launch can pass, instead of being rejected",
    "blind4-launch-value-initial": "S2 passes each kernel the value the host stored first "
    "into the cell (its initialisation), not the load at the launch: a second kernel launched "
    "after the host updated the cell gets the stale value",
    "blind4-tensor-is-host-use": "S1 counts a tensor the host code makes of a buffer for a "
    'call (T.call_packed("f", c)) as a host use: a device buffer that kernels write and a '
    "packed call receives as a tensor is rejected",
    "blind4-launch-arg-load-is-kernel": "S1 counts a load in the arguments of a launched "
    "module-function kernel as the kernel's use: the host's own read v[1] of a host array "
    "passed as a kernel argument is rejected as 'a kernel loads an element of'",
    "blind4-any-device-type-annotation": "S3 lowers an allocation annotated with any "
    "device_type as kDLCPU instead of rejecting a value other than kDLCPU (1)",
    "blind4-views-one-level": "S1 follows views of a buffer one level only: a kernel that "
    "stores through a view of a view of a host cell is not seen, and the host cell's pointer "
    "reaches the kernel",
    "blind4-runtime-targets-cuda-opencl-rocm": "S1's device-runtime test lists CUDA, ROCm and "
    "OpenCL only: on Vulkan, Metal and WebGPU a host cell stays device memory written by the "
    "host, as before the fix",
}

EDITS = {
    "blind4-vector-cell-by-value": [("dtype.lanes == 1\n        and ", "")],
    "blind4-launch-value-initial": [(_LAUNCH_LOAD, _INITIAL_VALUE)],
    "blind4-tensor-is-host-use": [
        ("        uses[base(i)][1:] = [True, _TENSOR_USE]", "        uses[base(i)][0] = True")
    ],
    "blind4-launch-arg-load-is-kernel": [
        (
            "(on_use if isinstance(node, ir.LOADS) else on_launch)(i, node)",
            "on_launch(i, node)  # a load in a launch's arguments too",
        )
    ],
    "blind4-any-device-type-annotation": [
        (
            "    value = annotations[_DEVICE_TYPE]\n",
            "    return _KDLCPU, 0  # the value is not checked\n",
        )
    ],
    "blind4-views-one-level": [
        (
            "        tracked = list(buffers) + [view for view, _ in views]",
            "        tracked = list(buffers)  # a view of a view is not followed",
        )
    ],
    "blind4-runtime-targets-cuda-opencl-rocm": [
        (_RUNTIMES, "int(target.get_target_device_type()) in (2, 4, 10)  # CUDA, OpenCL, ROCm")
    ],
}

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
"""Round 9 blind wrong fixes of the host_scalar report (blind9a).

Each is the reference fix (patch 0002: SplitHostDevice classifies the "local" buffers of the
host code, keeps those the host uses in host memory, passes a single element that kernels read
by value, and LowerTVMBuiltin allocates annotated host memory on the CPU) with one step of the
change done wrong.
"""

WRONG_FIXES = {
    "blind9-hs-index-unchecked": "IsSingleElement checks the shape but not the indices: a "
    "kernel's load of a one-element cell at a computed index is passed by value",
    "blind9-hs-first-extent-only": "IsSingleElement checks the first extent only: a kernel's "
    "load of a (1, 2) buffer at [0, 0] is passed by value",
    "blind9-hs-vector-lanes": "IsSingleElement does not check that the dtype is a scalar: a "
    "one-element float32x4 cell is passed to the kernel by value",
    "blind9-hs-tensor-is-host": "a tensor that the host makes of the buffer for a call "
    "(tvm_stack_make_array) counts as a host use: the buffer becomes CPU memory",
    "blind9-hs-view-decl-is-use": "declaring a view in the host code counts as a host use of "
    "the buffer (the view's data is visited as an access)",
    "blind9-hs-view-of-view": "only views of the buffers themselves are traced, not views of "
    "views: a host store through a view of a view is missed",
    "blind9-hs-global-candidate": 'classifies "global" host allocations too, not only "local" ones',
    "blind9-hs-device-id-kept": "LowerTVMBuiltin allocates annotated host memory on kDLCPU with "
    "the function's device id instead of 0",
    "blind9-hs-any-annotation": "LowerTVMBuiltin takes any device_type annotation for kDLCPU "
    "instead of rejecting a value other than 1",
    "blind9-hs-last-kernel-use": "the rejection names the last kernel use that needs the "
    "pointer, not the first",
}

EDITS = {
    "blind9-hs-index-unchecked": [
        (
            "        and _constant_elements(buffer) == 1\n"
            "        and all(isinstance(i, ir.IntImm) and i.value == 0 for i in load.indices)\n",
            "        and _constant_elements(buffer) == 1\n",
        )
    ],
    "blind9-hs-first-extent-only": [
        (
            "        and _constant_elements(buffer) == 1\n",
            "        and int(buffer.ty.shape[0]) == 1\n",
        )
    ],
    "blind9-hs-vector-lanes": [("        dtype.lanes == 1\n        and ", "        ")],
    "blind9-hs-tensor-is-host": [
        ("uses[base(i)][1:] = [True, _TENSOR_USE]", "uses[base(i)][0] = True")
    ],
    "blind9-hs-view-decl-is-use": [
        ("if host_only and _points_into(data, buffers) >= 0:", "if False:")
    ],
    "blind9-hs-view-of-view": [
        (
            "        tracked = list(buffers) + [view for view, _ in views]\n        i = _points",
            "        tracked = list(buffers)\n        i = _points",
        )
    ],
    "blind9-hs-global-candidate": [
        (
            'return scope_of(allocation(alloc)[0]) == "local"',
            'return scope_of(allocation(alloc)[0]) in ("local", "global")',
        )
    ],
    "blind9-hs-device-id-kept": [("    return _KDLCPU, 0\n", "    return _KDLCPU, None\n")],
    "blind9-hs-any-annotation": [
        (
            "if not isinstance(value, int | ir.IntImm) or int(value) != _KDLCPU:",
            "if not isinstance(value, int | ir.IntImm):",
        )
    ],
    "blind9-hs-last-kernel-use": [
        ("if how is not None and entry[2] is None:", "if how is not None:")
    ],
}

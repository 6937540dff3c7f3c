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
"""Blind round 5 wrong fixes of the host-level scalar report (patches/0002), each the reference
fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind5-vector-cell-by-value": "the by-value test forgets the lanes: a one-element vector "
    "cell read by a kernel is passed as a vector scalar instead of rejected",
    "blind5-views-untraced": "views of a host cell are not collected: a kernel reading the cell "
    "through a host-declared view is not seen, the cell becomes host memory",
    "blind5-tensor-is-host-use": "a tensor made of the cell for a packed call "
    "(T.call_packed('f', c)) counts as a host use",
    "blind5-first-kernel-only": "kernel uses are collected in the first device region only, "
    "not over the whole function",
    "blind5-stack-limit-inclusive": "the CPU stack rule keeps an annotated allocation of "
    "exactly kMaxStackAlloca bytes on the stack (<= instead of <)",
    "blind5-any-device-type": "any device_type annotation is lowered as kDLCPU instead of "
    "rejecting values other than 1",
    "blind5-free-keeps-device": "the workspace allocation is moved to (kDLCPU, 0) but its "
    "TVMBackendFreeWorkspace keeps the function's device",
    "blind5-kernel-address-by-value": "a kernel's address_of(c[0]) is taken for a read of its "
    "value: the cell is passed by value instead of rejected",
}

UNSEEN = {
    "blind5-stack-limit-inclusive": "a step of the Python stand-in only: the stack rule is "
    "LowerTVMBuiltin's own unchanged line (constant_size * nbytes < kMaxStackAlloca), to which "
    "patch 0002 hands an annotated allocation as kDLCPU; a C++ fix does not restate it (proof: "
    "test_host_allocation's 1024-byte cases kill the stand-in's copy)",
}

EDITS = {
    "blind5-vector-cell-by-value": [
        (
            "        dtype.lanes == 1\n        and _constant_elements(buffer) == 1\n",
            "        _constant_elements(buffer) == 1\n",
        )
    ],
    "blind5-views-untraced": [
        ("    return views", "    return []  # the aliases of the cells are not collected")
    ],
    "blind5-tensor-is-host-use": [
        ("        on_tensor=on_tensor,\n", "        on_tensor=on_host,\n")
    ],
    "blind5-first-kernel-only": [
        (
            "            regions.append(node)\n",
            "            if not regions:  # the later kernels are not looked at\n"
            "                regions.append(node)\n",
        )
    ],
    "blind5-stack-limit-inclusive": [
        ("elements * nbytes < _MAX_STACK_ALLOCA", "elements * nbytes <= _MAX_STACK_ALLOCA")
    ],
    "blind5-any-device-type": [
        (
            "    value = annotations[_DEVICE_TYPE]\n",
            "    return _KDLCPU, 0  # the annotation's value is not checked\n",
        )
    ],
    "blind5-free-keeps-device": [
        ("[(ir.Stmt, on_stmt), (ir.Call, on_call)]", "[(ir.Stmt, on_stmt)]")
    ],
    "blind5-kernel-address-by-value": [
        ('        return "takes the address of"', "        return None")
    ],
}

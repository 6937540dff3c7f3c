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
"""Blind round 6 wrong fixes of the host-scalar reference fix, each the reference fix's own
text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind6-count-unchecked": "a kernel load at index 0 is by-value whatever the buffer's size",
    "blind6-first-kernel-only": "kernel uses are collected from the first device region only",
    "blind6-view-decl-host-use": "declaring a view (data=c.data) on the host counts as a host use",
    "blind6-tensor-ignored": "a tensor made of the cell for a call is no device use (not rejected)",
    "blind6-device-id-kept": "S3 relocates the workspace to kDLCPU but keeps the lowered device id",
    "blind6-global-candidate": "global host allocations are classified too, not only local ones",
}

EDITS = {
    "blind6-count-unchecked": [("        and _constant_elements(buffer) == 1\n", "")],
    "blind6-first-kernel-only": [
        ("    return regions", "    return regions[:1]  # the later kernels are missed")
    ],
    "blind6-view-decl-host-use": [
        ("    return pointer_operands(data, VIEW_OPERANDS)", "    return [data]")
    ],
    "blind6-tensor-ignored": [
        ("        return node.args[0] if node.args else None\n", "        return None\n")
    ],
    "blind6-device-id-kept": [("    return _KDLCPU, 0", "    return _KDLCPU, None")],
    "blind6-global-candidate": [
        (
            '    return scope_of(allocation(alloc)[0]) == "local"',
            '    return scope_of(allocation(alloc)[0]) in ("local", "global")',
        )
    ],
}

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
"""Blind round 6 wrong fixes of the VerifyMemory reference fix, each the reference fix's own
text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind6-first-param-only": "the alias walk accepts only params[0] as a parameter (legacy rule)",
    "blind6-no-webgpu": "IsGPUDevice is left without kDLWebGPU (15)",
    "blind6-address-of-accesses": "address_of(X[i]) is visited as a load of X (no Call visitor)",
    "blind6-helper-checked": "a no-global_symbol function of a host-less target is still checked",
    "blind6-local-alloc-device": "every host AllocBuffer counts as device memory, local cells too",
    "blind6-nested-extent-device": "only the kernel-opening thread_extent's value is host code",
}

EDITS = {
    "blind6-first-param-only": [
        ("for p in self.func.params", "for p in list(self.func.params)[:1]  # the first handle")
    ],
    "blind6-no-webgpu": [("10, 15)", "10)")],
    "blind6-address-of-accesses": [
        (
            "            for index in node.args[0].indices:\n"
            '                walk(index, self._on_node, order="pre")\n'
            "            return WalkResult.SKIP",
            "            return WalkResult.ADVANCE  # the load inside address_of is visited",
        )
    ],
    "blind6-helper-checked": [
        (
            'return target.host is not None or attrs.get("global_symbol") is not None',
            "return True  # no rule 5",
        )
    ],
    "blind6-local-alloc-device": [(' == "global"', ' in ("global", "local")')],
    "blind6-nested-extent-device": [
        (
            "    found = []\n\n    def visit(node):\n        if ir.is_thread_env(node):\n"
            "            found.extend(_thread_extent(node))\n",
            "    found = list(_thread_extent(kernel))  # nested extents stay device code\n\n"
            "    def visit(node):\n",
        )
    ],
}

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
"""Blind round 5 wrong fixes of the VerifyMemory report (patches/0003), each the reference fix's
own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind5-first-param-only": "the alias walk stops at params[0] only (the legacy rule): an "
    "alias of the second buffer parameter is taken for an internal allocation",
    "blind5-address-of-is-access": "address_of(X[i]) is visited as a load of X: a host view "
    "at an address that only a kernel reads is rejected",
    "blind5-webgpu-unchecked": "kDLWebGPU is not added to the GPU devices: webgpu host "
    "accesses still pass",
    "blind5-outer-extent-only": "only the extent of the thread environment that opens the "
    "kernel is host code; nested thread_extent values stay device code",
    "blind5-disable-lower-builtin-ignored": "a host global allocation annotated "
    "disable_lower_builtin is still counted as device memory (only device_type kDLCPU exempts)",
    "blind5-alias-one-step": "the definition chain is followed one step, not to a fixpoint: a "
    "view of a view of a parameter is not traced",
    "blind5-device-helpers-checked": "functions with neither a host nor a global_symbol "
    "(device helpers) are still checked",
    "blind5-local-alloc-as-device": "every host allocation, local ones included, is counted as "
    "device memory, not only global ones",
}

EDITS = {
    "blind5-first-param-only": [
        ("for p in self.func.params", "for p in list(self.func.params)[:1]  # the legacy rule")
    ],
    "blind5-address-of-is-access": [
        ("if _is_address_of_load(node):", "if False:  # address_of(X[i]) is no special case")
    ],
    "blind5-webgpu-unchecked": [("10, 15)", "10)")],
    "blind5-outer-extent-only": [
        (
            "    found = []\n\n    def visit(node):\n        if ir.is_thread_env(node):\n"
            "            found.extend(_thread_extent(node))\n",
            "    found = list(_thread_extent(kernel))  # the opening environment's only\n\n"
            "    def visit(node):\n",
        )
    ],
    "blind5-disable-lower-builtin-ignored": [
        (' or (value("disable_lower_builtin") or 0) != 0', "  # device_type alone")
    ],
    "blind5-alias-one-step": [
        ("var not in seen:", "var not in seen and len(seen) < 2:  # one step")
    ],
    "blind5-device-helpers-checked": [
        (
            'return target.host is not None or attrs.get("global_symbol") is not None',
            "return True  # device helpers are checked too",
        )
    ],
    "blind5-local-alloc-as-device": [('scope_of(var) == "global" and not', "not")],
}

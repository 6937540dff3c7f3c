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
"""The bug reports this repository tests, and how their xfail marks name them.

Every strict xfail of an upstream test file carries a reason that contains its report's
phrase (case-insensitive). The root conftest, export_to_tvm.py and their tests read this
table; nothing else spells the phrases out.
"""

# report key -> the phrase every xfail reason for that report contains
BUG_REPORTS = {
    "host_scalar": "host-level scalar",
    "allocate_workspace": "apache/tvm#20479",
    "verify_memory": "VerifyMemory",
    "narrow_scalar": "narrow kernel scalar",
    "printer_cell": "TVMScript scalar sugar",
    "split_host_device_inplace": "SplitHostDevice changes its input",
    "annotate_entry_func_inplace": "AnnotateEntryFunc changes its input",
    "uint64_scalar": "uint64 kernel scalar",
    "printer_param_data": "one-element buffer parameter prints",
    "bfloat16_scalar": "bfloat16 host scalar",
    "lower_iket_inplace": "LowerIket changes its input",
}

# reports without a reference fix (no small fix exists; the reason): their bug tests stay
# strict xfails under --reference-fixes, and no wrong fixes are written for them
NO_REFERENCE_FIX = {}
# the reports with a Python reference fix (bugs/<key>/reference_fix.py)
REFERENCE_FIXED = tuple(key for key in BUG_REPORTS if key not in NO_REFERENCE_FIX)
# the reports whose C++ fix is in patches/ (the patch number; check_patches.PATCH_TABLE): what
# a patched source build carries, and what --expect-fixed alone means
PATCHED = {
    "allocate_workspace": "0001",
    "host_scalar": "0002",
    "verify_memory": "0003",
    "narrow_scalar": "0004",
    "printer_cell": "0005",
    "split_host_device_inplace": "0006",
    "annotate_entry_func_inplace": "0006",
    "uint64_scalar": "0007",
    "printer_param_data": "0008",
    "bfloat16_scalar": "0009",
    "lower_iket_inplace": "0010",
}


def report_of(text):
    """The key of the report ``text`` names, or None."""
    for key, phrase in BUG_REPORTS.items():
        if phrase.lower() in text.lower():
            return key
    return None

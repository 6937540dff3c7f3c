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
}


def report_of(text):
    """The key of the report ``text`` names, or None."""
    for key, phrase in BUG_REPORTS.items():
        if phrase.lower() in text.lower():
            return key
    return None

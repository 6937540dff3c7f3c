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
"""Blind round 6 wrong fixes of the narrow kernel scalar reference fix, each the reference
fix's own text with one step changed (harness/wrong_fixes.py: EDITS), an edit of wrong_fixes.py's
where the mistake is the same."""

from bugs.narrow_scalar.wrong_fixes import EDITS as FIRST
from bugs.narrow_scalar.wrong_fixes import INT_RULE

WRONG_FIXES = {
    "blind6-signed-to-uint32": "signed ints below 32 bits are widened to uint32 instead of int32",
    "blind6-bool-kept": "bool is left out of the widened dtypes (only int/uint/float16/bfloat16)",
    "blind6-bfloat16-kept": "only float16 is widened to float32; bfloat16 stays a 16-bit parameter",
    "blind6-int16-kept": "ints are widened only below 16 bits (int8/uint8), int16/uint16 kept",
    "blind6-symbol-call-offset": "call_ffi_kernel launches cast args[i], not args[1+i]",
    "blind6-entry-after-body": "the kernel's Bind(scalar, Cast(narrow, wide)) goes after the body",
}

EDITS = {
    "blind6-signed-to-uint32": [('        return "int32"', '        return "uint32"')],
    "blind6-bool-kept": FIRST["skip-bool"],
    "blind6-bfloat16-kept": FIRST["no-bfloat16"],
    "blind6-int16-kept": [
        (
            INT_RULE,
            f"    if code in (_INT, _UINT) and t.bits >= 16:\n        return None\n{INT_RULE}",
        )
    ],
    "blind6-symbol-call-offset": FIRST["blind-symbol-args-offset"],
    "blind6-entry-after-body": [
        ("ir.SeqStmt([*entry, *rest])", "ir.SeqStmt([*rest, *entry])"),
    ],
}

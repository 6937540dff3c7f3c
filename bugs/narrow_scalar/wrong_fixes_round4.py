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
"""Blind round 4 wrong fixes of the narrow kernel scalar report (patch 0004): each makes one
mistake in one step of bugs/narrow_scalar/reference_fix.py.

Each is the reference fix's text with that step changed (harness/wrong_fixes.py: EDITS),
an edit of wrong_fixes.py's or an earlier round's where the mistake is the same.
"""

from bugs.narrow_scalar.wrong_fixes import EDITS as FIRST
from bugs.narrow_scalar.wrong_fixes import INT_RULE, RUNTIME
from bugs.narrow_scalar.wrong_fixes_round2 import EDITS as ROUND2

WRONG_FIXES = {
    "blind4-bfloat16-kept": "W1's type rule widens float16 but forgets bfloat16: a bfloat16 "
    "kernel scalar stays a parameter no device runtime can pass",
    "blind4-other-floats-widened": "W1's type rule sends every narrow type that is not an "
    "int, uint or bool to float32: a float8 kernel scalar, which the patch leaves alone, is "
    "widened with a float8 -> float32 cast on the host",
    "blind4-int-widths-8-16": "W1's type rule widens the 8- and 16-bit integers only: an int4 "
    "kernel scalar stays narrow",
    "blind4-cpu-kernels-widened": "W1 widens the narrow scalars of every kernel, also of those "
    "called as functions (CPU targets), which keep their narrow parameters",
    "blind4-module-kernels-kept": "W1 widens only the kernels SplitHostDevice splits out: a "
    "kernel written as a module function keeps its narrow parameter",
    "blind4-symbol-launch-offset": "W1's call-site rewrite counts a launch named by its symbol "
    "(call_ffi_kernel) from its first argument, the symbol: the cast lands on the argument "
    "before the narrow scalar",
    "blind4-kernel-uses-wide-param": "W1 substitutes the widened parameter into the kernel "
    "body instead of binding the narrow scalar to Cast(narrow, wide) at the entry: the body "
    "computes in 32 bits",
}


EDITS = {
    "blind4-bfloat16-kept": FIRST["no-bfloat16"],
    "blind4-other-floats-widened": ROUND2["blind2-other-floats-to-float32"],
    "blind4-int-widths-8-16": [
        (
            INT_RULE,
            f"    if code == _INT and t.bits not in (8, 16):\n        return None\n{INT_RULE}",
        )
    ],
    "blind4-cpu-kernels-widened": [(RUNTIME, "    return True")],
    "blind4-module-kernels-kept": FIRST["split-kernels-only"],
    "blind4-symbol-launch-offset": FIRST["blind-symbol-args-offset"],
    "blind4-kernel-uses-wide-param": FIRST["no-narrowing"],
}

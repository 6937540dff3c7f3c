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
"""Round-7 blind wrong fixes of the narrow kernel scalar fix (patches/0004): one mistake each.

Each is the reference fix's text with one step changed (harness/wrong_fixes.py: EDITS), an edit
of wrong_fixes.py's or an earlier round's where the mistake is the same.
"""

from bugs.narrow_scalar.wrong_fixes import EDITS as FIRST
from bugs.narrow_scalar.wrong_fixes_round3 import EDITS as ROUND3

WRONG_FIXES = {
    "blind7-bool-kept": (
        "a bool kernel scalar is not widened (only int, uint and float codes checked)"
    ),
    "blind7-float16-as-int": (
        "a 16-bit float is widened to int32 (the generic below-32-bit branch is tested first)"
    ),
    "blind7-uint-as-int": "an unsigned scalar below 32 bits is widened to int32, not uint32",
    "blind7-threshold-16": (
        "only scalars below 16 bits are widened: int16, uint16, float16, bfloat16 stay"
    ),
    "blind7-wide-substituted": (
        "the kernel body uses the wide parameter in place of the scalar, with no narrowing Bind"
    ),
    "blind7-symbol-offset": (
        "a call that names the kernel by symbol gets its casts one argument "
        "early (symbol not skipped)"
    ),
    "blind7-first-only": "only the first narrow parameter of a kernel is widened",
    "blind7-module-kernel-missed": (
        "a kernel written as a module function (kDeviceKernelLaunch) "
        "is not widened, only split-out ones"
    ),
}


EDITS = {
    "blind7-bool-kept": FIRST["skip-bool"],
    "blind7-float16-as-int": ROUND3["blind3-integer-rule-first"],
    "blind7-uint-as-int": FIRST["blind-unsigned-as-int32"],
    "blind7-threshold-16": [("t.bits >= 32:", "t.bits >= 16:")],
    "blind7-wide-substituted": FIRST["no-narrowing"],
    "blind7-symbol-offset": FIRST["blind-symbol-args-offset"],
    # the parameters after the first narrow one keep their type (and get no Bind)
    "blind7-first-only": [
        (
            "        wide = _wide_dtype(dtype) if dtype is not None else None\n",
            "        wide = _wide_dtype(dtype) if dtype is not None and not widened else None\n",
        )
    ],
    "blind7-module-kernel-missed": FIRST["split-kernels-only"],
}

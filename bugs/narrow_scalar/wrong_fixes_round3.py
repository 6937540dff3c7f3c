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
"""Third blind round: wrong fixes of narrow_scalar, the narrow kernel scalar report.

Each is the reference fix (bugs/narrow_scalar/reference_fix.py) with one plausible mistake in one
step.

Each is the reference fix's text with that step changed (harness/wrong_fixes.py: EDITS),
an edit of wrong_fixes.py's or an earlier round's where the mistake is the same.
"""

from bugs.narrow_scalar.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind3-bfloat16-kept": (
        "NarrowScalarLaunchType widens float16 only: a bfloat16 kernel scalar keeps its type"
    ),
    "blind3-wide-in-body": (
        "the kernel's body uses the 32-bit parameter itself instead of binding the narrow "
        "scalar to Cast(narrow, wide) at its entry: its arithmetic no longer wraps at the "
        "narrow width"
    ),
    "blind3-symbol-args-from-zero": (
        "the launch's argument casts count positions from 0 in a call that names the kernel "
        "by its symbol (call_ffi_kernel), whose first argument is the symbol: the cast lands "
        "on the argument before the narrow one"
    ),
    "blind3-split-kernels-only": (
        "only the kernels SplitHostDevice splits out are widened; a kernel written as a module "
        "function keeps its narrow parameters"
    ),
    "blind3-integer-rule-first": (
        "the signed-integer rule (narrower than 32 bits -> int32) is tested before the float "
        "one and catches float16 and bfloat16: they travel as int32 and lose their fraction"
    ),
    "blind3-every-target": (
        "the widening is applied to every kernel, those called as functions (a CPU kernel "
        "target) included, instead of those launched through a device runtime"
    ),
}


EDITS = {
    "blind3-bfloat16-kept": FIRST["no-bfloat16"],
    "blind3-wide-in-body": FIRST["no-narrowing"],
    "blind3-symbol-args-from-zero": FIRST["blind-symbol-args-offset"],
    "blind3-split-kernels-only": FIRST["split-kernels-only"],
    "blind3-integer-rule-first": [('return "float32"', 'return "int32"')],
    "blind3-every-target": FIRST["cpu-kernels-too"],
}

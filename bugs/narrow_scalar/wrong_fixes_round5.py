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
"""Blind round 5 wrong fixes of the narrow kernel scalar report (patches/0004), each the
reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS), an edit of
wrong_fixes.py's or an earlier round's where the mistake is the same."""

from bugs.narrow_scalar.wrong_fixes import EDITS as FIRST
from bugs.narrow_scalar.wrong_fixes_round2 import EDITS as ROUND2

WRONG_FIXES = {
    "blind5-unsigned-as-int32": "uint8/uint16 scalars are widened to int32 instead of uint32",
    "blind5-bool-kept-narrow": "bool is left out of the widening (only int codes become int32)",
    "blind5-bfloat16-kept-narrow": "only float16 is widened to float32; bfloat16 stays narrow",
    "blind5-named-launch-offset-0": "a launch by symbol (call_ffi_kernel) casts args[i], "
    "forgetting the symbol at args[0]",
    "blind5-kernel-keyed-by-name-only": "widened kernels are looked up by GlobalVar name only, "
    "not by global_symbol: a launch naming a module kernel's own symbol is not cast",
    "blind5-widen-non-cpu-devices": "kernels are widened on every non-CPU device "
    "(ext_dev, Hexagon too), not only those a device runtime launches",
    "blind5-first-call-site-only": "each widened kernel's call sites are consumed: only its "
    "first launch gets the casts",
    "blind5-entry-after-decls": "the kernel's Bind(x, Cast(narrow, x_wide)) goes after its "
    "leading buffer declarations instead of before them",
}

EDITS = {
    "blind5-unsigned-as-int32": FIRST["blind-unsigned-as-int32"],
    "blind5-bool-kept-narrow": FIRST["skip-bool"],
    "blind5-bfloat16-kept-narrow": FIRST["no-bfloat16"],
    "blind5-named-launch-offset-0": FIRST["blind-symbol-args-offset"],
    "blind5-kernel-keyed-by-name-only": FIRST["blind-name-not-symbol"],
    "blind5-widen-non-cpu-devices": ROUND2["blind2-non-cpu-widened"],
    "blind5-first-call-site-only": [
        ("kernels.get(symbol)", "kernels.pop(symbol, None)"),
    ],
    "blind5-entry-after-decls": ROUND2["blind2-entry-after-decls"],
}

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
mistake in one step of bugs/narrow_scalar/reference_fix.py."""

import tvm_ffi

from bugs.narrow_scalar import reference_fix as fix
from bugs.narrow_scalar.wrong_fixes import _cast_args_from_zero, _no_narrowing, _split_out_only
from bugs.narrow_scalar.wrong_fixes_round2 import _wide_other_floats
from bugs.narrow_scalar.wrong_fixes_round3 import _no_bfloat16

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

_REFERENCE_WIDE_DTYPE = fix._wide_dtype


def _wide_int_8_16(dtype):
    t = tvm_ffi.dtype(dtype)
    if int(t.type_code) == fix._INT and t.bits not in (8, 16):  # the mistake: int4, int1 ...
        return None
    return _REFERENCE_WIDE_DTYPE(dtype)


def _launched_by_anything(kernel):
    return kernel.attrs is not None and kernel.attrs.get("target") is not None


PATCHES = {
    "blind4-bfloat16-kept": {"_wide_dtype": _no_bfloat16},
    "blind4-other-floats-widened": {"_wide_dtype": _wide_other_floats},
    "blind4-int-widths-8-16": {"_wide_dtype": _wide_int_8_16},
    "blind4-cpu-kernels-widened": {"_launched_by_runtime": _launched_by_anything},
    "blind4-module-kernels-kept": {"_launched_from_host": _split_out_only},
    "blind4-symbol-launch-offset": {"_cast_args": _cast_args_from_zero},
    "blind4-kernel-uses-wide-param": {"_kernel_entry": _no_narrowing},
}

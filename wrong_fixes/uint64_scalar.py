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
"""Wrong fixes of the uint64-kernel-scalar report: variants of reference_fixes/uint64_scalar.py."""

from reference_fixes import uint64_scalar as fix
from wrong_fixes import patched_install

WRONG_FIXES = {
    "every-target": "kernels run on the CPU are rejected too, though no runtime packs their "
    "scalars",
}


def _any_split_kernel(gvar, func, known):
    del func
    return gvar.name_hint not in known


_PATCHES = {"every-target": {"_kernel_launched_by_runtime": _any_split_kernel}}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])

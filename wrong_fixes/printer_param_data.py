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
"""Wrong fixes of the one-element-parameter printer report: variants of
reference_fixes/printer_param_data.py."""

import tvm
from reference_fixes import printer_param_data as fix
from wrong_fixes import patched_install

WRONG_FIXES = {
    "every-name": "every `X.buffer.` is rewritten, scalar cells included (their name is their "
    "value, only `c.buffer.data` reaches their buffer)",
    "functions-only": "only a printed PrimFunc is rewritten, not an IRModule (what a pass returns)",
}


def _every_scalar_parameter(obj):
    return fix.scalar_parameters(obj) | fix.scalar_declarations(obj)


def _function_parameters_only(obj):
    if not isinstance(obj, tvm.tirx.PrimFunc):
        return set()
    return fix.scalar_parameters(obj) - fix.scalar_declarations(obj)


_PATCHES = {
    "every-name": {"names_to_rewrite": _every_scalar_parameter},
    "functions-only": {"names_to_rewrite": _function_parameters_only},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])

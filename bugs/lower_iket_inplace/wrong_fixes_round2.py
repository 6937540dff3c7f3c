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
"""Second blind round: wrong fixes of lower_iket_inplace (patches/0010): each one small mistake in
one step of bugs/lower_iket_inplace/reference_fix.py."""

from bugs.lower_iket_inplace import reference_fix as fix
from bugs.lower_iket_inplace.wrong_fixes import (
    _blind_alone_under_immutable_option,
    _blind_enabled_by_attribute_only,
    _strip_branch_only,
    _strip_into,
)
from harness import input_copy as _input_copy

WRONG_FIXES = {
    "blind2-enabled-per-function": "the instrumenting branch too lowers each kernel alone in a "
    "module of its own (so event ids restart at every kernel instead of being module-wide)",
    "blind2-enabled-attr-only": "IketEnabled is read from the module attribute only: a verified "
    "run-iket child's environment is not taken as enabled, so its kernels are instrumented one "
    "by one",
    "blind2-attr-equals-one": "the module attribute enables IKET only when it equals 1, not when "
    "it is any nonzero value (HasNonzeroAttr)",
    "blind2-result-not-cloned": "the stripping branch writes the lowered functions into the "
    "caller's module instead of a copy of it",
    "blind2-enabled-no-copy": "the instrumenting branch runs the pass on the caller's module, "
    "not on a copy (CopyOnWrite only in the stripping branch)",
    "blind2-enabled-unguarded": "the instrumenting branch runs the pass on a copy but still "
    "under testing.immutable_module, which then trips on the copy the pass writes",
    "blind2-alone-unguarded": "a kernel alone is lowered on its one-function module directly, "
    "under testing.immutable_module too, which then trips on that module being written",
}


def _enabled_equals_one(mod):
    flag = mod.attrs.get(fix.ENABLED_ATTR) if mod.attrs is not None else None
    if flag is not None and int(flag) == 1:
        return True
    return fix.child_env()


def _per_function(inner, mod, result=None):
    return _strip_into(mod.clone() if result is None else result, inner, mod)


def _run_always_per_function(inner, mod):
    return _per_function(inner, mod)


def _run_result_not_cloned(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    return _per_function(inner, mod, result=mod)


def _run_enabled_unguarded(inner, mod):
    if fix.enabled(mod):
        return inner(mod.clone())
    return _per_function(inner, mod)


PATCHES = {
    "blind2-enabled-per-function": {"run": _run_always_per_function},
    "blind2-enabled-attr-only": {"enabled": _blind_enabled_by_attribute_only},
    "blind2-attr-equals-one": {"enabled": _enabled_equals_one},
    "blind2-result-not-cloned": {"run": _run_result_not_cloned},
    "blind2-enabled-no-copy": {"run": _strip_branch_only},
    "blind2-enabled-unguarded": {"run": _run_enabled_unguarded},
    "blind2-alone-unguarded": {"alone": _blind_alone_under_immutable_option},
}

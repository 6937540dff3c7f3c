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
"""The check both lowering fixes share: a module the fix must leave alone compiles to the
same host LLVM IR and CUDA source with and without it (this repository only); the test that
makes it over a list of modules, and the fixture that installs the fix for such a test
module."""

import re

import pytest

import tvm


def installed(fix):
    """A module-scoped autouse fixture installing the reference fix ``fix`` (its ``install()``
    returns the undo) for the tests of the module that binds it: a no-op when the session
    already runs with --reference-fixes."""

    @pytest.fixture(scope="module", autouse=True)
    def installed_fix():
        undo = fix.install()
        yield
        undo()

    return installed_fix


def compiled_sources(mod, target):
    """(host LLVM IR, [CUDA sources]) of ``tvm.compile(mod, target)``."""
    lib = tvm.compile(mod, target=target)
    host = re.sub(r"0x[0-9a-f]{8,}", "0x?", lib.mod.inspect_source("ll"))  # TBAA node addresses
    device = [m.inspect_source() for m in lib.mod.imports if m.kind == "cuda"]
    return host, device


def assert_compiled_code_unchanged(mod, target, unfixed):
    """``mod`` compiles alike with the fix installed and inside ``unfixed()``."""
    fixed = compiled_sources(mod, target)
    with unfixed():
        released = compiled_sources(mod, target)
    assert fixed[1] == released[1], "the fix changes the CUDA kernel source"
    assert fixed[0] == released[0], "the fix changes the host LLVM IR"
    if target == "cuda":
        assert fixed[1], "no CUDA kernel was generated"


def unchanged_test(fix, cases):
    """The test ``test_compiled_code_is_unchanged`` of a fix's no-regression module: each of
    ``cases`` (pytest params of a module and a target) compiles alike with ``fix`` installed
    and inside ``fix.unfixed()``. Bind it to that name in the module."""

    @pytest.mark.parametrize("mod, target", cases)
    def test_compiled_code_is_unchanged(mod, target):
        """The module compiles to the same code with the fix as without it"""
        assert_compiled_code_unchanged(mod, target, fix.unfixed)

    return test_compiled_code_is_unchanged

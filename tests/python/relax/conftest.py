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
# Not an upstream file: this repository's stand-in for TVM's tests/python/relax/conftest.py,
# so that the relax tests here run under the same fixture as in TVM's CI. Every pass runs
# under WellFormedInstrument (before and after); the marks
# skip_well_formed_check_before_transform / skip_well_formed_check_after_transform turn one
# side off. An ill-formed pass output therefore fails with the instrument's AssertionError
# before the test's own check, exactly as in TVM's tree. (TVM's fixture of 2026-08 still
# checks after the pass when only the "after" mark is set; here that mark is honoured too.)
import pytest

import tvm
from tvm.relax.ir.instrument import WellFormedInstrument

_SKIP_BEFORE = "skip_well_formed_check_before_transform"
_SKIP_AFTER = "skip_well_formed_check_after_transform"


def pytest_configure(config):
    config.addinivalue_line("markers", f"{_SKIP_BEFORE}: no well-formed check before a pass")
    config.addinivalue_line("markers", f"{_SKIP_AFTER}: no well-formed check after a pass")


class _BeforeOnly(WellFormedInstrument):
    def run_after_pass(self, mod, pass_info):
        pass


@pytest.fixture(autouse=True)
def apply_instrument_well_formed(request):
    marks = {mark.name for mark in request.node.iter_markers()}
    check_before = _SKIP_BEFORE not in marks
    check_after = _SKIP_AFTER not in marks
    current = tvm.transform.PassContext.current()
    instruments = list(current.instruments)
    if check_after:
        instruments.append(WellFormedInstrument(validate_before_transform=check_before))
    elif check_before:
        instruments.append(_BeforeOnly())
    context = tvm.transform.PassContext(
        opt_level=current.opt_level,
        required_pass=current.required_pass,
        disabled_pass=current.disabled_pass,
        instruments=instruments,
        config=current.config,
    )
    with context:
        yield

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
"""A cell printed in full keeps the annotations the printer is asked for (proof only).

Printing a function whose one-element cell the scalar sugar would change (patch 0005), the
reference fix prints with a copy of the caller's PrinterConfig that has the sugar off. A
mutant of bugs/printer_cell/reference_fix.py (scripts/mutants.py) that leaves the copy's
``obj_to_annotate`` and ``path_to_annotate`` out survived every other test: none prints such
a function with annotations. Both cells the sugar would change are printed: one outside local
scope, one with annotations of its own. The printer writes an annotation as a comment after the
annotated statement, the only place the text shows it.
"""

import os

import pytest
import tvm_ffi

import tvm
import tvm.testing
from harness.blind_printer import one_cell

# the two cells the sugar would change: outside local scope, and with annotations
CELLS = {
    "shared": one_cell("int32", scope="shared", plus_one=False)(),
    "annotated": one_cell("int32", annotations={"note": 1}, plus_one=False)(),
}


def store_of(func):
    """The one BufferStore of ``func``"""
    stores = []
    tvm_ffi.structural_walk(
        func.body, lambda n: stores.append(n) if isinstance(n, tvm.tirx.BufferStore) else None
    )
    (store,) = stores
    return store


def _printer_param_data_stand_in():
    fixes = os.environ.get("TVM_REFERENCE_FIXES", "").split(",")
    wrong = os.environ.get("TVM_WRONG_FIX", "")
    return "printer_param_data" in fixes or wrong.startswith("printer_param_data:")


@pytest.mark.skipif(
    _printer_param_data_stand_in(),
    reason="the Python stand-in of patch 0008 cannot print with annotations (CannotPrint)",
)
@pytest.mark.parametrize("cell", CELLS)
def test_printed_cell_keeps_the_requested_annotation(cell):
    """The statement annotated through obj_to_annotate carries its comment in the text."""
    func = CELLS[cell]
    text = func.script(obj_to_annotate={store_of(func): "stored"})
    # the store prints as ``c[0] = x``, ``c = x`` or ``c: T.int32 = x``: its right side is x
    annotated = [line.rpartition(" = ")[2] for line in text.splitlines() if "#" in line]
    assert [line for line in annotated if line.endswith("# stored")] == ["x  # stored"]


if __name__ == "__main__":
    tvm.testing.main()

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
"""Second blind round: wrong fixes of the host-level scalar report, each the text of
bugs/host_scalar/reference_fix.py with one plausible mistake in one step of S1-S3
(harness/wrong_fixes.py: EDITS)."""

from bugs.host_scalar.wrong_fixes import (
    _HOST_USE,
    _LAUNCH_LOAD,
    _REGION_VALUES,
    _RUNTIMES,
    _STORED_VALUE,
)

WRONG_FIXES = {
    "blind2-views-of-views": "S1 follows only views declared directly on a cell, not views of "
    "views (one sweep, no fixpoint): a host store through a view of a view is missed",
    "blind2-raw-pointer-not-host-use": "S1 counts loads, stores and address_of as host uses but "
    "not the cell's bare pointer handed to a packed/extern call (`c.data`)",
    "blind2-tensor-is-host-use": "S1 has no tensor rule: the data of a tensor made for a call "
    '(`T.call_packed("f", c)`) counts as a host use of the pointer',
    "blind2-top-level-kernels-only": "S2 rewrites only the kernels among the host body's "
    "top-level statements: a kernel launched inside a host loop/if keeps the cell's pointer",
    "blind2-initial-value": "S2 passes each kernel the value first stored into the cell (its "
    "initializer) instead of the value the cell holds at that launch",
    "blind2-vector-cell-by-value": "S1's single-element test ignores vector lanes: a one-element "
    "float32x4 cell that kernels load is passed by value instead of rejected",
    "blind2-no-metal": "the device-runtime list leaves out Metal (kDLMetal = 8): Metal functions "
    "keep host cells on the device",
    "blind2-free-not-relocated": "S3 moves TVMBackendAllocWorkspace of host memory to (kDLCPU, "
    "0) but leaves its TVMBackendFreeWorkspace on the function's device",
    "blind2-first-kernel-use-decides": "S1 records only the first kernel use of a cell: a later "
    "kernel's store (or address) no longer rejects a cell an earlier kernel only read",
}

# the value the host code first stores into the cell (its initializer), else the load
_INITIAL_VALUE = _STORED_VALUE.format(
    value="values[0] if values else tensor_load(cell, load.indices)"
)

EDITS = {
    "blind2-views-of-views": [
        (
            "        tracked = list(buffers) + [view for view, _ in views]",
            "        tracked = list(buffers)  # a view of a view is not followed",
        )
    ],
    "blind2-raw-pointer-not-host-use": [
        (_HOST_USE, 'every one is."""\n    return not isinstance(_node, ir.Var)  # c.data is none')
    ],
    "blind2-tensor-is-host-use": [("        on_tensor=on_tensor,\n", "        on_tensor=None,\n")],
    "blind2-top-level-kernels-only": [
        (
            _REGION_VALUES + "        return mutator.default_mutate(stmt)",
            _REGION_VALUES
            + "        if stmt.same_as(func.body) and isinstance(stmt, ir.SeqStmt):\n"
            "            return mutator.default_mutate(stmt)\n"
            "        return stmt  # only the body's top-level statements are looked at",
        )
    ],
    "blind2-initial-value": [(_LAUNCH_LOAD, _INITIAL_VALUE)],
    "blind2-vector-cell-by-value": [("dtype.lanes == 1\n        and ", "")],
    "blind2-no-metal": [
        (_RUNTIMES, "int(target.get_target_device_type()) in (2, 4, 7, 10, 15)  # no kDLMetal")
    ],
    "blind2-free-not-relocated": [
        ("[(ir.Stmt, on_stmt), (ir.Call, on_call)]", "[(ir.Stmt, on_stmt)]")
    ],
    "blind2-first-kernel-use-decides": [
        (
            "    entry[1] = True\n",
            "    if entry[1]:\n"
            "        return  # the later kernel uses add nothing\n"
            "    entry[1] = True\n",
        )
    ],
}

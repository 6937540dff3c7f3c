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
"""Reproducer: FlattenBuffer leaves a thread_extent IterVar's dom reading the buffer it replaced.

    python bugs/flatten_buffer_itervar_dom/probe.py          # evidence
    python bugs/flatten_buffer_itervar_dom/probe.py --check  # exit 1 if the bug reproduces

tirx.transform.FlattenBuffer rebuilds a one-element host cell (``cell: T.int32 = n + 1``; it
drops the cell's default layout) and rewrites the loads of the ``thread_extent`` AttrStmt's
value, but not the IterVar's ``dom``, which still loads the old buffer. One layer,
``well-formed``: verify_well_formed on the pass's output. Control: the same kernel with a
constant extent must come out well-formed.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import first_line, judge, needs_tvm, repro_definition, script

BUG = "flatten_buffer_itervar_dom"

with needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import tirx as T


def cell_extent():
    """A blockIdx.x launch whose extent is a host cell: repro.py's function."""
    return repro_definition(__file__, "main")


def constant_extent():
    """The same kernel with a constant blockIdx.x extent (the control)."""

    @T.prim_func
    def main(n: T.int32, A: T.Buffer((8,), "float32")):
        with T.launch_thread("blockIdx.x", 4) as b:
            t = T.launch_thread("threadIdx.x", 2)
            A[b * 2 + t] = A[b * 2 + t] * T.float32(2.0)

    return main


def flattened_error(func):
    """None when FlattenBuffer's output for ``func`` is well-formed, else the first line."""
    mod = tvm.tirx.transform.FlattenBuffer()(tvm.IRModule({"main": func}))
    try:
        tvm.tirx.analysis.verify_well_formed(mod)
    except Exception as err:
        return first_line(err)
    return None


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device

    def control():
        try:
            return flattened_error(constant_extent())
        except Exception as err:  # another TVM: the pass or the verifier is missing
            return first_line(err)

    fixed = "FlattenBuffer's output for a cell-sized thread extent is well-formed"
    return [
        judge(
            BUG,
            "well-formed",
            control,
            lambda: flattened_error(cell_extent()),
            fixed,
            "control (constant extent): ",
        )
    ]


if __name__ == "__main__":
    script(BUG, probe)

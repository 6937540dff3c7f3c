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
"""The tvm-tirx probe of bfloat16_address_of_view: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/bfloat16_address_of_view/probe_tirx.py          # evidence
    python bugs/bfloat16_address_of_view/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/bfloat16_address_of_view/probe_tirx.py --json   # the findings as JSON

A bfloat16 tensor read through a bfloat16 view at ``T.address_of(v[0])``, on llvm.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import judge, repro_definition
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """A bfloat16 tensor read through a bfloat16 view at ``T.address_of(v[0])``, on llvm."""
    bug = "bfloat16_address_of_view"
    views = {"data": lambda v: v.data, "address_of": lambda v: T.address_of(v[0])}

    def read_back(view, at_text, want):
        """None when the view at ``view`` reads 2.0 on llvm, else a line of what it reads."""
        main = repro_definition(__file__, "function")(views[view])  # repro_tirx.py's
        o = tvm_tirx.runtime.empty((1,), "bfloat16")
        tvm_tirx.tirx.compile(main, target="llvm")["main"](o)
        got = float(o.numpy()[0])
        return None if got == 2.0 else f"the view at {at_text} reads {got}{want}"

    @common.needs(script=("alloc_tensor", "decl_tensor", "address_of"))
    def row():
        return judge(
            bug,
            "run",
            control=lambda: read_back("data", "v.data", ""),
            case=lambda: read_back("address_of", "T.address_of(v[0])", " where v[0] = 2.0"),
            fixed="llvm: both views read 2.0",
            untestable="control: ",
            present="llvm: ",
        )

    return [common.run_layer(bug, "run", row)]


if __name__ == "__main__":
    common.script("bfloat16_address_of_view", probe)

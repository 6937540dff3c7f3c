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
"""The tvm-tirx probe of annotate_entry_func_inplace: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/annotate_entry_func_inplace/probe_tirx.py          # evidence
    python bugs/annotate_entry_func_inplace/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/annotate_entry_func_inplace/probe_tirx.py --json   # the findings as JSON

Layer pass: does AnnotateEntryFunc change the module it is given? (control: a module of two
public functions, which it does not change)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import repro_definition
from probe_tirx_common import tvm_tirx


def probe(run_gpu=False):
    def modules():
        """repro_tirx.py's function alone, and the control: it and a copy as two public
        functions, where no entry is inferred."""
        main = repro_definition(__file__, "main")
        other = main.with_attr("global_symbol", "other")
        return tvm_tirx.IRModule({"main": main}), tvm_tirx.IRModule({"main": main, "other": other})

    return common.in_place_layer("annotate_entry_func_inplace", "AnnotateEntryFunc", modules)


if __name__ == "__main__":
    common.script("annotate_entry_func_inplace", probe)

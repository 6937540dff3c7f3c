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
"""The tvm-tirx probe of storage_rewrite_address_of_view: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/storage_rewrite_address_of_view/probe_tirx.py          # evidence
    python bugs/storage_rewrite_address_of_view/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/storage_rewrite_address_of_view/probe_tirx.py --json   # the findings as JSON

Not affected on 0.1.0a4: a CPU tensor used only through a ``T.address_of`` view keeps its
allocation through StorageRewrite, and the compiled function stores through the view.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding, first_line
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """Not affected on 0.1.0a4: a CPU tensor used only through a ``T.address_of`` view keeps its
    allocation through StorageRewrite, and the compiled function stores through the view."""
    bug = "storage_rewrite_address_of_view"

    @T.function
    def main(o: T.Tensor((1,), "float32")):
        v = T.alloc_tensor(ty_args=[T.Tensor((4,), "float32")])
        v_2 = T.decl_tensor(T.address_of(v[2]), ty_args=[T.Tensor((1,), "float32")])
        v_2[0] = T.float32(1.0)
        o[0] = v_2[0]

    def row():
        try:
            lib = tvm_tirx.tirx.compile(main, target="llvm")
        except Exception as err:  # StorageRewrite's failed check, or another error
            return finding(bug, "compile", "present", f"llvm: {first_line(err)}")
        o = tvm_tirx.runtime.empty((1,), "float32")
        lib["main"](o)
        if float(o.numpy()[0]) != 1.0:
            evidence = f"llvm: compiles, but o[0] = {float(o.numpy()[0])}, not 1.0"
            return finding(bug, "compile", "untestable", evidence)
        return finding(
            bug, "compile", "fixed", "llvm: compiles, and the view's store reads back 1.0"
        )

    return [common.run_layer(bug, "compile", row)]


if __name__ == "__main__":
    common.script("storage_rewrite_address_of_view", probe)

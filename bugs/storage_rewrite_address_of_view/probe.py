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
"""Probe: StorageRewrite strips an allocation used only through a T.address_of view.

    python bugs/storage_rewrite_address_of_view/probe.py          # evidence
    python bugs/storage_rewrite_address_of_view/probe.py --check  # exit 1 if the bug reproduces

A CPU function (llvm) allocates ``v`` and uses it only through
``v_k = T.decl_buffer((1,), data=T.address_of(v[k]))``. Layers: ``pass`` (StorageRewrite
alone: PRESENT when it stops at the internal check "Load/Store of buffer v ... occurred before
its declaration") and ``compile`` (``tvm.compile(..., "llvm")`` of the same function).
Control: the same function with one direct store into ``v`` passes both.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import judge, last_line, needs_tvm, script

BUG = "storage_rewrite_address_of_view"

with needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import tirx as T


def function(direct):
    @T.prim_func
    def main(o: T.Buffer((1,), "float32")):
        v = T.alloc_buffer((4,), "float32")
        if direct:
            v[0] = T.float32(0.0)
        v_2 = T.decl_buffer((1,), "float32", data=T.address_of(v[2]))
        v_2[0] = T.float32(1.0)
        o[0] = v_2[0]

    return main


def error_of(step):
    """None when ``step()`` passes, else its last error line (pointer addresses removed)."""
    try:
        step()
    except Exception as err:  # the internal check, or anything else: reported
        return re.sub(r" \(0x[0-9a-f]+\)", "", last_line(err))
    return None


def layers(direct):
    func = function(direct).with_attr("target", tvm.target.Target("llvm"))
    rewrite = tvm.tirx.transform.StorageRewrite()
    return {
        "pass": error_of(lambda: rewrite(tvm.IRModule({"main": func}))),
        "compile": error_of(lambda: tvm.compile(function(direct), target="llvm")),
    }


def probe(run_gpu=False):
    del run_gpu  # a CPU program
    control, errors = layers(direct=True), layers(direct=False)
    passes = "a buffer used only through its view passes"
    untestable = "even with a direct store into v: "
    return [
        judge(BUG, layer, lambda: control[layer], lambda: error, passes, untestable)
        for layer, error in errors.items()
    ]


if __name__ == "__main__":
    script(BUG, probe)

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

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run or is given an unknown argument. ``probe(run_gpu)`` returns the
findings for scripts/check_tvm.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

try:
    import re

    from probe_common import finding, main, run_main

    import tvm
    from tvm.script import tirx as T
except Exception as err:  # no usable TVM: one line, exit 2
    print(f"storage_rewrite_address_of_view/probe.py: cannot import tvm: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "storage_rewrite_address_of_view"
NAME = "storage_rewrite_address_of_view/probe.py"


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
        last = (str(err).strip().splitlines() or [""])[-1]
        return f"{type(err).__name__}: " + re.sub(r" \(0x[0-9a-f]+\)", "", last)
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
    control = layers(direct=True)
    rows = []
    for layer, error in layers(direct=False).items():
        if control[layer] is not None:
            evidence = f"even with a direct store into v: {control[layer]}"
            rows.append(finding(BUG, layer, "untestable", evidence))
        elif error is not None:
            rows.append(finding(BUG, layer, "present", error))
        else:
            rows.append(finding(BUG, layer, "fixed", "a buffer used only through its view passes"))
    return rows


if __name__ == "__main__":
    run_main(NAME, lambda: main(None, NAME, probe))

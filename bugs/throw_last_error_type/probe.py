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
"""Reproducer: ``tvm_throw_last_error`` changes its type through print -> parse.

    python bugs/throw_last_error_type/probe.py          # evidence
    python bugs/throw_last_error_type/probe.py --check  # exit 1 if the bug reproduces

LowerTVMBuiltin writes ``Call(int32, tvm_throw_last_error, [])`` on the failure paths of a
workspace allocation; the printer writes ``T.tvm_throw_last_error()`` without a type, and the
parser builds that call with the op's Python type, void. Layer ``round trip``: the call in
LowerTVMBuiltin's output against the same call after print -> parse. Control: a function
whose ``T.tvm_throw_last_error()`` came from the script (void) must round-trip.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, needs_tvm, repro_definition, script

BUG = "throw_last_error_type"

with needs_tvm(BUG):
    import tvm
    import tvm.script
    import tvm.tirx.transform
    from tvm.script import tirx as T


def lowered():
    """LowerTVMBuiltin's output for repro.py's host function with a workspace allocation."""
    main = repro_definition(__file__, "main")
    return tvm.tirx.transform.LowerTVMBuiltin()(tvm.IRModule({"main": main}))


def throw_types(mod):
    """The type of every ``tvm_throw_last_error`` call of ``mod``'s main, in order."""
    found = []

    def visit(node):
        if isinstance(node, tvm.ir.Call) and node.op.name.endswith("throw_last_error"):
            found.append(str(node.ty) or "void")
        for name in ("value", "then_case", "else_case", "body", "seq"):
            child = getattr(node, name, None)
            for item in list(child) if name == "seq" and child is not None else [child]:
                if isinstance(item, tvm.tirx.Stmt | tvm.ir.Call):
                    visit(item)

    visit(mod["main"].body)
    return found


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device

    @T.prim_func
    def scripted():
        T.evaluate(T.tvm_throw_last_error())

    control = tvm.script.from_source(scripted.script())
    try:
        tvm.ir.assert_structural_equal(scripted, control)
    except ValueError as err:
        evidence = f"even a scripted call does not round-trip: {str(err).splitlines()[0]}"
        return [finding(BUG, "round trip", "untestable", evidence)]
    mod = lowered()
    before = throw_types(mod)
    after = throw_types(tvm.script.from_source(mod.script()))
    if not before:
        return [finding(BUG, "round trip", "untestable", "LowerTVMBuiltin wrote no throw")]
    if before != after:
        evidence = f"LowerTVMBuiltin's call is {before[0]}, {after[0]} after print -> parse"
        return [finding(BUG, "round trip", "present", evidence)]
    evidence = f"LowerTVMBuiltin's {len(before)} calls keep their type ({before[0]})"
    return [finding(BUG, "round trip", "fixed", evidence)]


if __name__ == "__main__":
    script(BUG, probe)

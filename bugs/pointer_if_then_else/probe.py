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
"""Reproducer: MakePackedAPI's output for a tensor argument does not parse back.

    python bugs/pointer_if_then_else/probe.py          # evidence
    python bugs/pointer_if_then_else/probe.py --check  # exit 1 if the bug reproduces

MakePackedAPI reads a tensor argument's handle as ``T.if_then_else(type_index == 70,
T.handle_add_byte_offset(...), T.tvm_struct_get(...))``, a pointer-typed call; the parser's
``T.if_then_else`` takes primitive-typed branches only and refuses it. Layers: ``parse``
(MakePackedAPI's output of a function with a tensor argument through print -> parse) and
``op`` (``T.if_then_else`` of two handles, no pass). Control: MakePackedAPI's output of a
function with a scalar argument only must parse back.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import first_line, judge, needs_tvm, parser_line, repro_definition, script

BUG = "pointer_if_then_else"

with needs_tvm(BUG):
    import tvm
    import tvm.script
    import tvm.tirx.transform
    from tvm.script import tirx as T


def packed(func):
    """MakePackedAPI's output for ``func`` as ``main``: repro.py's ``main(A)`` (a tensor
    argument) or ``scalar_argument()``."""
    return tvm.tirx.transform.MakePackedAPI()(tvm.IRModule({"main": func}))


def scalar_argument():
    """``main(x)`` of a float32 scalar argument only: the control."""

    @T.prim_func
    def main(x: T.float32):
        T.func_attr({"target": T.target({"kind": "llvm", "host": "llvm"})})
        T.evaluate(x)

    return main


def parse_error(text):
    """None when ``text`` parses, else the parser's first ``error:`` line."""
    try:
        tvm.script.from_source(text)
    except Exception as err:  # the parser's DiagnosticError
        return parser_line(err)
    return None


def handle_select_error():
    """None when ``T.if_then_else`` accepts two handle-typed branches, else its complaint."""
    p = tvm.tirx.Var("p", T.handle("float32").ty)
    try:
        T.if_then_else(tvm.tirx.Var("c", "bool"), p, p)
    except Exception as err:  # the FFI's argument check
        return first_line(err)
    return None


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    parsed = judge(
        BUG,
        "parse",
        control=lambda: parse_error(packed(scalar_argument()).script(show_meta=True)),
        case=lambda: parse_error(packed(repro_definition(__file__, "main")).script(show_meta=True)),
        fixed="MakePackedAPI's output parses back (a tensor argument and a scalar one)",
        untestable="even a scalar argument's MakePackedAPI output does not parse: ",
        present="a tensor argument: ",
    )
    if parsed["status"] == "untestable":
        return [parsed]
    takes = "T.if_then_else takes handle branches"
    op = judge(BUG, "op", None, handle_select_error, takes, present="T.if_then_else(c, p, p): ")
    return [parsed, op]


if __name__ == "__main__":
    script(BUG, probe)

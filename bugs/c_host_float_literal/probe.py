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
"""Probe: the C target prints an infinity or a NaN constant as a name C does not define.

    python bugs/c_host_float_literal/probe.py          # evidence
    python bugs/c_host_float_literal/probe.py --check  # exit 1 if the bug reproduces

``A[0] = c`` with ``c`` a float32 or float64 constant +inf, -inf or NaN, compiled for the "c"
target (CodeGenCHost), built by the system C compiler at the first call and run on the CPU.
CodeGenC's PrintConst prints them as ``inff``, ``-inff``, ``nanf`` (float32) and ``inf``,
``-inf``, ``nan`` (float64), which no C compiler takes as a float. One layer, ``run``: a
constant whose source does not build, or whose call stores another value = present. Control:
``A[0] = 0.5`` builds and stores 0.5 (else no C compiler works here: untestable). The
precision of finite literals (seven significant digits) is not judged here.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import first_line, judge, needs_tvm, script

BUG = "c_host_float_literal"

with needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import tirx as T

CASES = (
    ("float32", "inf"),
    ("float32", "-inf"),
    ("float32", "nan"),
    ("float64", "inf"),
    ("float64", "-inf"),
    ("float64", "nan"),
)


def store(dtype, value):
    """``A[0] = value`` as a constant of ``dtype``."""

    @T.prim_func
    def main(A: T.Buffer((1,), dtype)):
        A[0] = tvm.tirx.const(value, dtype)

    return main


def stores(dtype, text):
    """(the literal the C source holds, what the call stores as ``str``, or None when the system
    C compiler refuses the source) for ``store(dtype, float(text))`` compiled for c."""
    lib = tvm.compile(store(dtype, float(text)), target="c")
    match = re.search(r"\[0\] = (.*);", lib.mod.inspect_source())
    literal = match.group(1) if match else "no store found"
    a = tvm.runtime.empty((1,), dtype)
    try:
        lib(a)  # the system C compiler builds the source here
    except RuntimeError:  # it refused the source: the finding
        return literal, None
    return literal, str(a.numpy()[0])


def probe(run_gpu=False):
    del run_gpu  # runs on the CPU

    def control():
        try:
            literal, got = stores("float32", "0.5")
        except Exception as err:  # another TVM, or its build stops elsewhere
            return f"A[0] = 0.5 does not compile for c: {first_line(err)}"
        if got is None:
            return f"A[0] = 0.5 (`{literal}`) does not compile either: no working C compiler"
        return None if got == "0.5" else f"A[0] = 0.5 (`{literal}`) stores {got}"

    def case():
        refused, wrong = [], []
        for dtype, text in CASES:
            literal, got = stores(dtype, text)
            if got is None:
                refused.append(f"{dtype} {text} as `{literal}`")
            elif got != str(float(text)):
                wrong.append(f"{dtype} {text} as `{literal}` stores {got}")
        found = ([f"does not compile: {', '.join(refused)}"] if refused else []) + wrong
        return "; ".join(found) or None

    fixed = "c: every infinity and NaN constant compiles and stores its value"
    return [judge(BUG, "run", control, case, fixed, "control: ", "c: ")]


if __name__ == "__main__":
    script(BUG, probe)

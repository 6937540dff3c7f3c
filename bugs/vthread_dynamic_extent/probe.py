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
"""Probe: tvm.compile dies by SIGSEGV on a virtual thread whose extent is not a constant.

    python bugs/vthread_dynamic_extent/probe.py          # evidence
    python bugs/vthread_dynamic_extent/probe.py --check  # exit 1 if the bug reproduces

``for v in T.thread_binding(L[0], thread="vthread")`` around a kernel loop, compiled for CUDA
(source only) in a child interpreter, since the failure is a crash. Layer ``compile``:
PRESENT when the child dies by a signal; FIXED when it compiles or refuses the program with an
error. Control: the same program with the constant extent 2 compiles in the child.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

from probe_common import finding, finish, needs_tvm, script, script_constant, start_child

BUG = "vthread_dynamic_extent"

with needs_tvm(BUG, "tvm"):
    import tvm  # noqa: F401  (the child imports the same TVM)


# the report's own program (repro.py), its extent ``L[0]`` replaced by the one each child runs
CHILD = script_constant(Path(__file__).with_name("repro.py"), "CHILD")


def start(extent):
    """The compile of ``extent`` in a child interpreter, started."""
    return start_child(["-c", CHILD.replace("L[0]", extent)])


def outcome(child):
    """(exit status, last output line) of a child of start."""
    out, err = finish(child)
    lines = (out.strip() or err.strip()).splitlines()
    return child.returncode, (lines[-1] if lines else "")


def probe(run_gpu=False):
    del run_gpu  # compiled to source only
    control, dynamic = start("2"), start("L[0]")  # side by side
    status, line = outcome(control)
    if status != 0 or line != "compiled":
        outcome(dynamic)
        evidence = f"even a constant vthread extent does not compile (exit {status}): {line}"
        return [finding(BUG, "compile", "untestable", evidence)]
    status, line = outcome(dynamic)
    if status < 0:
        return [finding(BUG, "compile", "present", f"tvm.compile died by signal {-status}")]
    return [finding(BUG, "compile", "fixed", f"exit {status}: {line}")]


if __name__ == "__main__":
    script(BUG, probe)

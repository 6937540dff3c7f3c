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
"""Probe: tvm.tirx's "default" pipeline calls tirx.transform.LowerInitBlock, which is in s_tir.

    python bugs/tirx_default_pipeline/probe.py          # evidence
    python bugs/tirx_default_pipeline/probe.py --check  # exit 1 if the bug reproduces

``tvm.tirx.compilation_pipeline.PIPELINE_MAP["default"]`` (``default_tir_pipeline``) run on a
one-loop function bound to llvm. Layer ``pipeline``: PRESENT when it raises an AttributeError
(the pass it names is not in ``tvm.tirx.transform``); FIXED when it lowers the module or the
entry is gone. ``get_tir_pipeline("default")`` and ``tvm.compile`` map "default" to "s_tir" and
never reach it. Control: ``PIPELINE_MAP["tirx"]`` lowers the same module.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, last_line, needs_tvm, script

BUG = "tirx_default_pipeline"

with needs_tvm(BUG):
    import tvm
    import tvm.tirx.transform
    from tvm.script import tirx as T
    from tvm.tirx import compilation_pipeline


def module():
    """A one-loop function, bound to llvm with an llvm host as tvm.compile binds it."""

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.float32(0)

    bind = tvm.tirx.transform.BindTarget(tvm.target.Target("llvm", host="llvm"))
    return bind(tvm.IRModule({"main": main}))


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    try:
        compilation_pipeline.PIPELINE_MAP["tirx"]()[0](module())
    except Exception as err:
        evidence = f"even the tirx pipeline does not lower the module: {last_line(err)}"
        return [finding(BUG, "pipeline", "untestable", evidence)]
    factory = compilation_pipeline.PIPELINE_MAP.get("default")
    if factory is None:
        return [finding(BUG, "pipeline", "fixed", "PIPELINE_MAP has no 'default' entry")]
    try:
        factory()[0](module())
    except AttributeError as err:
        return [finding(BUG, "pipeline", "present", f'PIPELINE_MAP["default"] raises: {err}')]
    return [finding(BUG, "pipeline", "fixed", 'PIPELINE_MAP["default"] lowers the module')]


if __name__ == "__main__":
    script(BUG, probe)

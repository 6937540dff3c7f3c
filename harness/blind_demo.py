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
"""What the blind rounds' demos share (bugs/<key>/blind_demos/): run one program under the reference
fix and under a wrong fix, each in a child process of its own, and print both results and whether
they differ.

A demo script defines ``program()`` (returns an IRModule or PrimFunc) and ``observe(mod)``
(returns a printable result: IR text, a launch's values, ...), then calls ``compare(fix, name)``.
A child runs with ``--child ref`` or ``--child wrong:<name>``."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _child(script, mode, report):
    sys.path.insert(0, str(ROOT))
    import importlib

    if getattr(script, "OPENCL", False):  # before the first compile: the codegen needs it
        from harness.reference_fixes import opencl_runtime

        opencl_runtime().load()
    module = importlib.import_module(f"bugs.{report}.reference_fix")
    if mode == "ref":
        module.install()
    else:
        from harness.wrong_fixes import install

        install(f"{report}:{mode.split(':', 1)[1]}")
    try:
        result = script.observe(script.program())
    except Exception as err:  # the result: an error
        result = f"{type(err).__name__}: {message(err)}"
    print("@@RESULT@@" + json.dumps(str(result)))


def message(err):
    """The line of an error's text that says what is wrong (TVM's texts add a traceback and the
    source location)."""
    skip = ("File ", "Traceback", "Location", "Access path", "Error in pass", "#", "@", "class ")
    lines = [x for x in str(err).strip().splitlines() if x.strip()]
    said = [x for x in lines if not x[0].isspace() and not x.startswith(skip)]
    return ((said or lines or [""])[0])[:300]


def main(script, report, name):
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(script, sys.argv[2], report)
        return 0
    out = {}
    for mode in ("ref", f"wrong:{name}"):
        proc = subprocess.run(
            [sys.executable, script.__file__, "--child", mode],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
        )
        text = proc.stdout + proc.stderr
        marks = [x for x in text.splitlines() if x.startswith("@@RESULT@@")]
        out[mode] = (
            json.loads(marks[-1][10:])
            if marks
            else f"child died (rc {proc.returncode}): {text[-400:]}"
        )
    for mode, result in out.items():
        print(f"===== {mode}\n{result}")
    differ = out["ref"] != out[f"wrong:{name}"]
    print("DIFFERENT" if differ else "SAME")
    return 0 if differ else 1


def run_opencl(lib, inputs, outputs):
    """Call ``lib["main"]`` on opencl(0) in a fork; the outputs' values, an error or a signal."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    import tvm
    from harness.reference_fixes import opencl_runtime

    reason = opencl_runtime().load()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            dev = tvm.opencl(0)
            args = [tvm.runtime.tensor(a, dev) if isinstance(a, np.ndarray) else a for a in inputs]
            lib["main"](*args)
            dev.sync()
            res = "values: " + str([args[i].numpy().tolist() for i in outputs])
        except Exception as err:
            res = f"error: {type(err).__name__}: {message(err)}"
        os.write(w, res.encode())
        os._exit(0)
    os.close(w)
    _, status = os.waitpid(pid, 0)
    data = os.read(r, 65536).decode()
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)} (plugin: {reason})"
    return data or f"no result (plugin: {reason})"


def split(func, target="opencl"):
    """``func`` (a PrimFunc) after SplitHostDevice alone, for ``target`` with an llvm host."""
    import tvm

    tgt = tvm.target.Target(target, host="llvm")
    mod = tvm.IRModule({"main": func.with_attr("target", tgt)})
    return tvm.tirx.transform.SplitHostDevice()(mod)


def script_of(mod):
    """The module's TVMScript without its target attributes (they only add noise)."""
    return "\n".join(x for x in mod.script().splitlines() if "func_attr" not in x)


def compile_and_run(func, inputs, outputs, target="opencl"):
    """Compile ``func`` for ``target`` (host llvm) and run it on pocl: values, error or signal."""
    import tvm

    lib = tvm.compile(func, target=tvm.target.Target(target, host="llvm"))
    return run_opencl(lib, inputs, outputs)


def workspace_calls(func, target="opencl"):
    """The host LLVM IR's workspace calls on the CPU (``call ptr %f(i32 1, i32 0, ...)``, as
    TVMBackendAllocWorkspace and TVMBackendFreeWorkspace are called), of ``func`` compiled for
    ``target``."""
    import tvm

    lib = tvm.compile(func, target=tvm.target.Target(target, host="llvm"))
    lines = lib.mod.inspect_source("ll").splitlines()
    return [x.split(", !dbg")[0].strip() for x in lines if "(i32 1, i32 0" in x]

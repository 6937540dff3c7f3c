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
"""What the blind rounds' demos share: the programs on which a bug's reference fix and each of its
blind wrong fixes differ, and the child processes that run one program under each.

Per bug, ``bugs/<key>/demos.py`` (apache/tvm) and ``bugs/<key>/demos_tirx.py`` (apache/tvm-tirx),
the blind rounds' entries under a ``# round N`` comment each, define
``DEMOS = {wrong fix name: Demo(program, observe), ...}``: ``program()`` returns an IRModule or
PrimFunc, ``observe(program)`` a printable result (IR text, a launch's values, an error's line).
A demo runs its program twice, each time in a child process of its own, once with the reference
fix installed and once with the wrong fix; it shows the wrong fix when the two results differ.
scripts/blind_demos.py is the command that runs them.

Each entry is written once: demos_tirx.py takes demos.py's entries where they serve its line,
either demos.py's ``DEMOS`` itself (its programs built on the line that runs them) or the dict
that a function of demos.py returns for this line's program builders, ``without`` the entries
that show on apache/tvm only, and adds or replaces the entries of its own (``only`` takes some
of demos.py's with another observer). ``declared`` reads the names without importing TVM, so
``DEMOS`` is written in the forms it follows: a dict literal (``**`` other dicts inside), a name
bound to one (here or imported from another module of bugs/), a call of a function whose last
statement returns one, ``without(dict, "name", ...)`` and ``only(dict, "name", ...)``."""

import ast
import importlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


class Demo(NamedTuple):
    """One wrong fix's demo: its program, what of the program is compared, and whether the
    OpenCL runtime must be loaded before the first compile (the OpenCL codegen needs it)."""

    program: Callable[[], object]
    observe: Callable[[object], object]
    opencl: bool = False


def modules(report, line):
    """The modules holding ``report``'s demos on ``line`` ("tvm" or "tvm_tirx"): demos.py,
    or demos_tirx.py on tvm-tirx (any bugs/<key>/demos*.py of the line is taken)."""
    files = sorted((ROOT / "bugs" / report).glob("demos*.py"))
    tirx = line == "tvm_tirx"
    return [f"bugs.{report}.{f.stem}" for f in files if f.stem.endswith("_tirx") == tirx]


def declared(report, line):
    """The wrong fixes ``report``'s demos show on ``line``, read from the modules' sources
    (their ``DEMOS`` dicts' keys, in the forms the module's docstring names) without importing
    TVM."""
    names = []
    for name in modules(report, line):
        names += _keys(*_definition(name, "DEMOS"))
    return names


def without(demos, *names):
    """``demos`` ({wrong fix name: Demo}, another line's) less the entries ``names``, those
    that do not show on this line (written out as strings: ``declared`` reads them)."""
    unknown = sorted(set(names) - set(demos))
    if unknown:
        raise KeyError(f"no demos {unknown} to leave out")
    return {name: demo for name, demo in demos.items() if name not in names}


def only(demos, *names, **changes):
    """The entries ``names`` of ``demos`` (another line's), each with the Demo fields
    ``changes`` (``observe``, ``opencl``) replaced: the same programs seen otherwise on this
    line (written out as strings: ``declared`` reads them)."""
    return {name: demos[name]._replace(**changes) for name in names}


def _source(module):
    """The syntax tree of ``module`` (dotted, of this repository)."""
    return ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())


def _definition(module, name):
    """(module, node) defining ``name`` at the top level of ``module``: the value it is assigned
    last, its ``def``, or, for a name imported from a module of bugs/, that module's."""
    found = None
    for node in _source(module).body:
        if isinstance(node, ast.Assign) and name in [getattr(x, "id", "") for x in node.targets]:
            found = (module, node.value)
        elif isinstance(node, ast.FunctionDef) and node.name == name:
            found = (module, node)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bugs."):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    found = _definition(node.module, alias.name)
    if found is None:
        raise ValueError(f"{module}: {name} is not defined where it can be read")
    return found


def _keys(module, node):
    """The keys, in order, of the demos dict that ``node`` of ``module`` evaluates to."""
    if isinstance(node, ast.Dict):
        names = []
        for key, value in zip(node.keys, node.values):
            names += _keys(module, value) if key is None else [key.value]
        return list(dict.fromkeys(names))  # a key given again replaces the entry in its place
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("without", "only"):
        given = [x.value for x in node.args[1:]]
        if node.func.id == "only":
            return given
        return [x for x in _keys(module, node.args[0]) if x not in given]
    if isinstance(node, ast.Name):
        return _keys(*_definition(module, node.id))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        module, func = _definition(module, node.func.id)
        if isinstance(func, ast.FunctionDef) and isinstance(func.body[-1], ast.Return):
            return _keys(module, func.body[-1].value)
    raise ValueError(f"{module}: the demos {ast.unparse(node)} cannot be read without running it")


def demos_of(report, line):
    """``report``'s demos on ``line``: {wrong fix name: Demo}; empty where it has none."""
    sys.path.insert(0, str(ROOT))
    demos = {}
    for name in modules(report, line):
        demos.update(importlib.import_module(name).DEMOS)
    return demos


def child(report, name, mode):
    """Run demo ``name`` of ``report`` in this process under ``mode`` ("ref" or "wrong") and print
    its result after a marker line."""
    from harness.tvm_line import LINE

    demo = demos_of(report, LINE)[name]
    if demo.opencl:
        from harness.reference_fixes import opencl_runtime

        opencl_runtime().load()
    if mode == "ref":
        importlib.import_module(f"bugs.{report}.reference_fix").install()
    else:
        from harness.wrong_fixes import install

        install(f"{report}:{name}")
    try:
        result = demo.observe(demo.program())
    except Exception as err:  # the result: an error
        result = f"{type(err).__name__}: {message(err)}"
    print("@@RESULT@@" + json.dumps(str(result)))


def compare(report, name, python=None):
    """Run demo ``name`` of ``report`` under the reference fix and under the wrong fix, each in a
    child process of ``python``; returns {"ref": result, "wrong": result}."""
    out = {}
    for mode in ("ref", "wrong"):
        proc = subprocess.run(
            [python or sys.executable, "-m", "harness.blind_demo", report, name, mode],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
        )
        text = proc.stdout + proc.stderr
        marks = [x for x in text.splitlines() if x.startswith("@@RESULT@@")]
        out[mode] = json.loads(marks[-1][10:]) if marks else died(proc)
    return out


def died(proc):
    """What a child that printed no result ended with: its signal, or its last line."""
    if proc.returncode < 0:
        return f"child killed by signal {signal.Signals(-proc.returncode).name}"
    lines = [x for x in (proc.stdout + proc.stderr).splitlines() if x.strip()]
    return f"child ended (rc {proc.returncode}): {(lines or [''])[-1][:300]}"


def message(err):
    """The line of an error's text that says what is wrong (TVM's texts add a traceback and the
    source location)."""
    skip = ("File ", "Traceback", "Location", "Access path", "Error in pass", "#", "@", "class ")
    lines = [x for x in str(err).strip().splitlines() if x.strip()]
    said = [x for x in lines if not x[0].isspace() and not x.startswith(skip)]
    return ((said or lines or [""])[0])[:300]


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


def line_package():
    """The package of this process's TVM line: ``tvm`` or ``tvm_tirx``."""
    from harness.tvm_line import LINE

    return importlib.import_module(LINE)


def from_script(text, **names):
    """The function or module of the TVMScript ``text``, written in apache/tvm's spelling
    (``@T.prim_func``, ``T.Buffer``), parsed on this process's line (tvm-tirx's ``@T.function``
    and ``T.Tensor`` in their place); ``names`` are the other variables it reads."""
    package = line_package().__name__
    script = importlib.import_module(f"{package}.script")
    if package == "tvm_tirx":
        text = text.replace("@T.prim_func", "@T.function").replace("T.Buffer(", "T.Tensor(")
    return script.from_source(text, extra_vars={"T": script.tirx, "I": script.ir, **names})


def on(target, func):
    """A module of ``func`` alone, as ``main`` (its symbol too), for ``target``."""
    tvm = line_package()
    func = func.with_attr("target", tvm.target.Target(target)).with_attr("global_symbol", "main")
    return tvm.IRModule({"main": func})


def targeted(mod, host, device):
    """``mod`` with ``main`` for target ``host`` and its other functions for ``device``."""
    tvm = line_package()
    host, device = tvm.target.Target(host), tvm.target.Target(device)
    return tvm.IRModule(
        {
            g: f.with_attr("target", host if g.name_hint == "main" else device)
            for g, f in mod.functions.items()
        }
    )


def split(func, target="opencl"):
    """``func`` (a PrimFunc) after SplitHostDevice alone, for ``target`` with an llvm host."""
    tvm = line_package()
    tgt = tvm.target.Target(target, host="llvm")
    mod = tvm.IRModule({"main": func.with_attr("target", tgt)})
    return tvm.tirx.transform.SplitHostDevice()(mod)


def script_of(mod):
    """The module's TVMScript without its target attributes (they only add noise)."""
    return "\n".join(x for x in mod.script().splitlines() if "func_attr" not in x)


def script_or_error(make):
    """``make()``'s module as script_of prints it, or the error it raises."""
    try:
        return script_of(make())
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


def split_or_error(target="opencl"):
    """Observer: a PrimFunc after SplitHostDevice alone for ``target`` (llvm host), as
    script_or_error prints it."""
    return lambda func: script_or_error(lambda: split(func, target))


def split_module(mod):
    """Observer: a module after SplitHostDevice alone, as script_or_error prints it."""
    return script_or_error(lambda: line_package().tirx.transform.SplitHostDevice()(mod))


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


if __name__ == "__main__":  # a child of compare(): REPORT NAME MODE
    sys.path.insert(0, str(ROOT))
    child(*sys.argv[1:4])

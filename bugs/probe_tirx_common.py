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
"""What the apache/tvm-tirx line's probes share (bugs/<key>/probe_tirx.py, in the API of the
extracted TIRx package, apache-tvm-tirx, module ``tvm_tirx``: ``@T.function``, ``T.Tensor``,
``T.launch_thread``, ``tvm_tirx.tirx.compile``): the guard around that package's import, the
API pieces a layer needs (a TIRx that lacks them gives untestable rows naming what is missing),
running a layer (a crash gives an untestable row with its first line), the cuda target and
compile, the checks several probes make (a pass changing its input, print -> parse, a code
generator's refusal), the gpu run in a child process, and the command line of a probe run on
its own (``--check``, ``--json``, ``--run-gpu`` for a probe with a gpu run layer).

Each probe's ``probe(run_gpu)`` returns its findings per layer in the shape of the apache/tvm
line's probes (rows ``bug``, ``layer``, ``status`` present / fixed / untestable, ``evidence``),
for scripts/check_tvm.py. Without a GPU, the cuda target carries an explicit arch (``sm_80``).
A probe imports this module with ``bugs/`` on ``sys.path`` (scripts/check_tvm.py puts it there;
a probe run as a script puts its folder's parent there), before anything else of
``tvm_tirx``: where that package does not import, one line on stderr and exit 2.
"""

import json
import signal
import subprocess
import sys

from probe_common import (
    bad_arguments,
    finding,
    first_line,
    input_change,
    judge,
    kernel_signature,
    print_findings,
    run_main,
)

try:
    import numpy as np
    import tvm_tirx
    from tvm_tirx.script import tirx as T
except Exception as _err:  # no usable TIRx package: one line, exit 2
    print(f"probe_tirx_common: cannot import tvm_tirx: {_err}", file=sys.stderr)
    raise SystemExit(2) from None

N = 8  # the probes' tensors' length

# what each probe needs of the package: (object, attribute path)
SCRIPT_API = ("function", "Tensor", "launch_thread", "float32", "let")
PACKAGE_API = ("IRModule", "tirx.compile", "target.Target")


def missing(script=(), package=()):
    """The API pieces this TIRx lacks, as ``T.x`` / ``tvm_tirx.x`` names."""
    gone = [f"T.{name}" for name in SCRIPT_API + tuple(script) if not hasattr(T, name)]
    for path in PACKAGE_API + tuple(package):
        obj = tvm_tirx
        for part in path.split("."):
            obj = getattr(obj, part, None)
        if obj is None:
            gone.append(f"tvm_tirx.{path}")
    return gone


def needs(script=(), package=()):
    """Mark a layer's function with the API pieces it needs beyond the base ones (``missing``'s
    arguments): ``run_layer`` gives an untestable row naming those this TIRx lacks instead of
    running it."""

    def mark(func):
        func.needs = {"script": script, "package": package}
        return func

    return mark


def run_layer(bug, layer, func, *args):
    """Run one layer; a crash gives an untestable row with its first line (a function marked
    with ``needs``: an untestable row where this TIRx lacks what it needs)."""
    needs = getattr(func, "needs", None)
    if needs is not None:
        gone = missing(**needs)
        if gone:
            return finding(bug, layer, "untestable", f"this TIRx lacks {', '.join(gone)}")
    try:
        return func(*args)
    except Exception as err:
        return finding(bug, layer, "untestable", f"cannot tell: probe raised {first_line(err)}")


def judged_layer(bug, layer, control, case, fixed, untestable="", present=""):
    """A probe's findings of one layer that ``judge`` gives (its arguments), run by run_layer
    (a crash in the control or the case gives an untestable row)."""

    def row():
        return judge(bug, layer, control, case, fixed, untestable, present)

    return [run_layer(bug, layer, row)]


def cuda_target():
    """The cuda target: the device's own arch where there is one, else sm_80 (without a
    GPU a cuda target needs an explicit arch)."""
    if tvm_tirx.cuda(0).exist:
        return tvm_tirx.target.Target("cuda")
    return tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})


def compile_cuda(func):
    return tvm_tirx.tirx.compile(tvm_tirx.IRModule({"main": func}), target=cuda_target())


def cuda_kernel_signature(lib):
    return "main_kernel" + kernel_signature(lib).split("main_kernel", 1)[-1]


def round_trip_difference(func):
    parse = tvm_tirx.script.from_source
    try:
        tvm_tirx.ir.assert_structural_equal(func, parse(func.script(), extra_vars={"T": T}))
    except ValueError as err:
        lines = [ln for ln in str(err).splitlines() if "caused by" in ln] or [str(err)]
        return lines[0].strip()
    return None


def in_place_row(bug, make_pass, module, control):
    """The ``pass`` row: ``control`` (a module the pass does not change) must stay equal."""
    name = make_pass.__name__
    return judge(
        bug,
        "pass",
        control=lambda: input_change(make_pass, control, tvm_tirx.ir),
        case=lambda: input_change(make_pass, module, tvm_tirx.ir),
        fixed=f"{name}()(mod) leaves mod unchanged",
        untestable="even the control changes: ",
        present=f"after {name}()(mod): ",
    )


def in_place_layer(bug, transform, modules):
    """The findings of a probe of ``tvm_tirx.tirx.transform.<transform>`` writing into its
    input: in_place_row on ``modules()``, (the bug's module, the control), built inside the
    layer (a crash there, or a TIRx without the pass, gives an untestable row)."""

    def row():
        return in_place_row(bug, getattr(tvm_tirx.tirx.transform, transform), *modules())

    return [run_layer(bug, "pass", row)]


def codegen_refusal(func, target):
    """None when ``func`` compiles for ``target``, else (internal, the error's first line):
    internal when the message is a failed check or a fatal type conversion, not a diagnostic."""
    try:
        tvm_tirx.tirx.compile(func, target=target)
    except Exception as err:  # what kind of refusal is the finding
        first = first_line(err)
        internal = any(s in first for s in ("Check failed", "Cannot convert type"))
        return internal, first
    return None


# --------------------------------------------------------------------------------------------
# the gpu run, in a child process (a crash there is evidence, not the end of the probe)


def call_on_cuda(lib, dtype, scalars, expected):
    """The child's side of the gpu run: call ``main(B, C, *scalars)`` of the compiled ``lib``
    on cuda(0), ``B`` = 0..N-1 of ``dtype``; print ``C`` and ``expected`` as JSON."""
    dev = tvm_tirx.cuda(0)
    b = tvm_tirx.runtime.tensor(np.arange(N).astype(dtype), dev)
    c = tvm_tirx.runtime.empty((N,), dtype, dev)
    lib["main"](b, c, *scalars)
    dev.sync()
    print(json.dumps({"result": c.numpy().tolist(), "expected": expected}), flush=True)


def gpu_row(bug, script, case, crash=None, refusal=None, wrong=False):
    """The ``gpu run`` row of ``python script --child case`` (the probe's ``child(case)``): the
    bug where the child is killed by the signal ``crash``, exits with ``refusal`` in its
    stderr, or (``wrong``) prints values other than the expected ones; fixed where they agree;
    else untestable."""
    if not tvm_tirx.cuda(0).exist:
        return finding(bug, "gpu run", "untestable", "no CUDA device here")
    try:
        proc = subprocess.run(
            [sys.executable, str(script), "--child", case],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return finding(bug, "gpu run", "untestable", f"{case}: the child hung (killed after 300 s)")
    if proc.returncode < 0:
        name = signal.Signals(-proc.returncode).name
        status = "present" if name == crash else "untestable"
        return finding(bug, "gpu run", status, f"{case}: killed by {name} at the call")
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        refused = refusal is not None and refusal in proc.stderr
        status = "present" if refused else "untestable"
        return finding(bug, "gpu run", status, f"{case}: child exited {proc.returncode}: {tail}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if out["result"] != out["expected"]:
        evidence = f"{case}: returned {out['result']}, expected {out['expected']}"
        return finding(bug, "gpu run", "present" if wrong else "untestable", evidence)
    return finding(bug, "gpu run", "fixed", f"{case}: returned {out['result']} as numpy does")


def gpu_layer(bug, script, case, run_gpu, **shows):
    """The ``gpu run`` layer: untestable when not requested, else gpu_row's (``shows``: what
    in the child is the bug, gpu_row's keywords)."""
    if not run_gpu:
        evidence = "not requested (--run-gpu runs it on cuda(0), in a child process)"
        return finding(bug, "gpu run", "untestable", evidence)
    return run_layer(bug, "gpu run", lambda: gpu_row(bug, script, case, **shows))


# --------------------------------------------------------------------------------------------
# a probe run as a script


def main(bug, probe, child=None, argv=None):
    """Print ``probe()``'s findings (``--json``: as JSON); with ``--check``, 1 when the bug
    reproduces. A probe with a gpu run layer (``child``) takes ``--run-gpu`` and runs
    ``child(case)`` for ``--child case``."""
    argv = sys.argv[1:] if argv is None else argv
    if child is not None and argv[:1] == ["--child"]:
        child(argv[1])
        return 0
    flags = ("--check", "--json", *(("--run-gpu",) if child is not None else ()))
    status = bad_arguments(argv, f"{bug}/probe_tirx.py", flags)
    if status is not None:
        return status
    rows = probe(run_gpu="--run-gpu" in argv)
    row = "  {layer:<10} {STATUS:<10} {evidence}"
    return print_findings(argv, rows, f"{bug} on tvm_tirx {tvm_tirx.__version__}", row)


def script(bug, probe, child=None):
    """Run the tvm-tirx probe of ``bug`` as a script: ``main``'s exit status."""
    run_main(f"{bug}/probe_tirx.py", lambda: main(bug, probe, child))

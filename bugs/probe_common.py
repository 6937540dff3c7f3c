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
"""What the probes share (bugs/<key>/probe.py, and bugs/<key>/probe_tirx.py on apache-tvm-tirx):
the guard around their imports, a finding row, the command line (``--check``, ``--help``, one line
and exit 2 for anything else), printing the findings and the exit status, one-line errors, and
the checks several probes make (whether a pass changed the module it was given, print ->
parse, a control beside the program, the CUDA kernel's signature, the host's writes into
device workspaces, the value a compiled function stores, a call on cuda(0) in a child
process, children run side by side, the program a report's script runs). A probe holds its
bug's program and what it expects of it; the rest is here.

A probe imports it with ``bugs/`` on ``sys.path`` (scripts/check_tvm.py puts it there; a probe
run as a script puts its own parent folder there), before it imports TVM."""

import ast
import contextlib
import functools
import json
import re
import signal
import subprocess
import sys
import types
from pathlib import Path

import tomllib

# how a probe's main prints a finding (its layer, its status in capitals, its evidence)
ROW = "{layer:<6} {STATUS:<10} {evidence}"
# the probes that also call their program on cuda(0) (host_scalar, narrow_scalar)
GPU_FLAGS = ("--check", "--run")
GPU_ROW = "{layer:<9} {STATUS:<10} {evidence}"
NOT_REQUESTED = "not requested (--run, or probe(run_gpu=True), calls it on cuda(0))"
NO_LLVM = "this TVM has no LLVM: the host module cannot be built"
# the end of ``--help`` for a probe whose docstring does not state its exit codes
EXIT_CODES = (
    "Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line\n"
    "reason when it cannot run or is given an unknown argument. ``probe(run_gpu)`` returns the\n"
    "findings for scripts/check_tvm.py."
)


@contextlib.contextmanager
def needs_tvm(bug, what="tvm/tirx"):
    """Around a probe's imports: when they fail (no usable TVM), one line on stderr and exit 2."""
    try:
        yield
    except Exception as err:
        print(f"{bug}/probe.py: cannot import {what}: {err}", file=sys.stderr)
        raise SystemExit(2) from None


def script_definitions(path):
    """The imports and top-level functions and classes of the standalone script ``path`` (a
    bug's repro.py), run without the rest of it, as a namespace: a probe uses the reproducer's
    own program instead of a copy. Their code keeps the script's file and line numbers, so that
    TVMScript reads their source from the script (for a class, TVMScript finds the script
    through the namespace, which stands in ``sys.modules`` under its name)."""
    tree = ast.parse(open(path).read(), str(path))
    kinds = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)
    code = ast.Module([node for node in tree.body if isinstance(node, kinds)], [])
    namespace = types.ModuleType(f"script:{path}")
    namespace.__file__ = str(path)
    sys.modules[namespace.__name__] = namespace
    exec(compile(code, str(path), "exec"), namespace.__dict__)
    return namespace


def first_line(err):
    """``Type: first line of the message`` of an exception."""
    return f"{type(err).__name__}: {(str(err).strip().splitlines() or [''])[0]}"


def last_line(err):
    """``Type: last line of the message`` (TVM's errors end with the check that failed)."""
    return f"{type(err).__name__}: {(str(err).strip().splitlines() or [''])[-1]}"


def parser_line(err):
    """The parser's first ``error:`` line of a DiagnosticError, else ``first_line(err)``."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip().startswith("error:")]
    return (lines or [first_line(err)])[0]


def input_change(make_pass, module, ir=None):
    """None when ``make_pass()(module)`` leaves ``module`` equal to a copy taken before, else
    one line saying how it changed. ``ir``: the package's ``ir`` (``tvm.ir`` by default; the
    tvm_tirx line passes ``tvm_tirx.ir``)."""
    if ir is None:
        import tvm

        ir = tvm.ir
    copy = module.clone()
    names = sorted(g.name_hint for g in module.get_global_vars())
    make_pass()(module)
    try:
        ir.assert_structural_equal(module, copy)
    except ValueError:
        now = sorted(g.name_hint for g in module.get_global_vars())
        return f"the given module now holds {', '.join(now)} (was {', '.join(names)})"
    return None


def round_trip_error(obj, line=first_line):
    """None when print -> parse gives ``obj`` back, else one line of the complaint (a
    structural difference, or the parser's DiagnosticError): ``line(err)``, by default its
    first line."""
    import tvm
    import tvm.script

    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(obj.script()))
    except Exception as err:
        return line(err)
    return None


def stored_value(build, out, *args, run=True):
    """What the function that ``build()`` compiles stores in ``out[0]`` when called with
    ``(out, *args)``, as a float; or the first line of the error that stops the compile or the
    call, an unlowered ``ir.Op(...)`` named by its name alone. ``run=False``: None once it
    compiles."""
    try:
        lib = build()
        if not run:
            return None
        lib(out, *args)
    except Exception as err:  # the compile's or the call's refusal: the caller's evidence
        return re.sub(r'ir\.Op\(.*?name="([\w.]+)".*', r"\1", first_line(err))
    return float(out.numpy()[0])


def repro_definition(probe_file, name):
    """The function or class ``name`` that the report's script beside ``probe_file`` (a
    probe's ``__file__``: repro.py beside probe.py, repro_tirx.py beside probe_tirx.py)
    defines at its top level (``script_definitions``, a fresh one per call), so that a probe
    runs the program its report shows."""
    probe = Path(probe_file)
    return getattr(script_definitions(probe.with_name(probe.name.replace("probe", "repro"))), name)


def finding(bug, layer, status, evidence):
    return {"bug": bug, "layer": layer, "status": status, "evidence": evidence}


def judge(bug, layer, control, case, fixed, untestable="", present=""):
    """The finding of ``layer`` from a control and the bug's program: ``control()`` and
    ``case()`` each give None when their program behaves, else one line. Untestable when the
    control fails (``untestable`` + its line), else present when the program fails
    (``present`` + its line), else fixed (``fixed``). ``case`` runs only after the control;
    ``control`` None: the layer has none."""
    failure = control() if control is not None else None
    if failure is not None:
        return finding(bug, layer, "untestable", untestable + failure)
    failure = case()
    if failure is not None:
        return finding(bug, layer, "present", present + failure)
    return finding(bug, layer, "fixed", fixed)


def kernel_signature(lib):
    """The ``__global__`` line of the CUDA source of ``tvm.compile(..., target="cuda")``."""
    cuda = lib.mod.imports[0].inspect_source()
    return next(x.strip() for x in cuda.splitlines() if "__global__" in x).rstrip(";{ ")


def host_device_writes(llvm_ir):
    """In a host module's LLVM IR: the workspace allocations with a non-CPU device type, and
    the host's stores into them: ([allocation lines], [store lines])."""
    allocators, device_ptrs, allocs, stores = set(), set(), [], []
    for line in llvm_ir.splitlines():
        load = re.match(r"\s*(%[\w.]+) = load ptr, ptr @__TVMBackendAllocWorkspace\b", line)
        call = re.match(r"\s*(%[\w.]+) = (?:\w+ )*call (?:\w+ )*ptr (%[\w.]+)\(i32 ([^,]+),", line)
        store = re.match(r"\s*store (.+), ptr (%[\w.]+)\b", line)
        if load:
            allocators.add(load.group(1))
        elif call and call.group(2) in allocators and call.group(3) != "1":  # 1 = kDLCPU
            device_ptrs.add(call.group(1))
            allocs.append(line.strip().split(", !dbg")[0])
        elif store and store.group(2) in device_ptrs:
            stores.append(line.strip().split(", !dbg")[0])
    return allocs, stores


def gpu_run(bug, run_gpu, no_device, run):
    """The ``gpu run`` finding: untestable when not requested or without a CUDA device (then
    ``no_device`` says what it would show), else ``run()``'s."""
    import tvm

    if not run_gpu:
        return finding(bug, "gpu run", "untestable", NOT_REQUESTED)
    if not tvm.cuda(0).exist:
        return finding(bug, "gpu run", "untestable", f"no CUDA device here: {no_device}")
    return run()


def run_child(script, arg):
    """``python script --child arg`` (the probe calling its program on cuda(0)): (the value
    its last stdout line holds as JSON, None), or (None, one line saying how it failed); and
    the child's exit status and stderr."""
    proc = subprocess.run(
        [sys.executable, script, "--child", arg],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if proc.returncode < 0:
        failure = f"killed by {signal.Signals(-proc.returncode).name} at the call"
    elif proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        failure = f"child exited {proc.returncode}: {tail}"
    else:
        return json.loads(proc.stdout.strip().splitlines()[-1]), None, proc
    return None, failure, proc


@functools.cache
def facts(key):
    """What bugs/<key>/probe.toml states for scripts/check_tvm.py: the bug's ``title``, the
    ``layers`` of its probe's findings, and under ``tvm_tirx`` what its probe_tirx.py finds on
    the pinned package (``on_pinned``) or why that line is not probed (``outside``: the package
    lacks what the bug is in; ``not_probed``). Read once per process; callers do not change it."""
    with (Path(__file__).resolve().parent / key / "probe.toml").open("rb") as f:
        return tomllib.load(f)


def script_constant(path, name):
    """The string constant ``name`` that the script at ``path`` (a report's repro.py) assigns
    at its top level, read without running the script: a probe that runs the report's own
    program (a child's code) takes it from there."""
    tree = ast.parse(Path(path).read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    raise LookupError(f"{path} assigns no {name}")


def start_child(args, env=None):
    """``python *args`` started with its output piped, for children that run side by side
    (the crash of a program in a child, beside its control); ``finish`` waits for it."""
    pipe = subprocess.PIPE
    return subprocess.Popen([sys.executable, *args], stdout=pipe, stderr=pipe, text=True, env=env)


def finish(child, timeout=300):
    """(stdout, stderr) of a child of start_child once it has ended, killed after
    ``timeout`` seconds."""
    try:
        return child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        return child.communicate()


def print_gpu_run(run, label, call, no_device_label=None):
    """What a probe's ``show`` prints of its call on cuda(0), with ``run`` only: ``label:
    call()`` where a CUDA device is, else ``no_device_label`` (default ``label``): no device."""
    import tvm

    if not run:
        return
    if tvm.cuda(0).exist:
        print(f"{label}: {call()}")
    else:
        print(f"{no_device_label or label}: no CUDA device here")


def call_on_cuda(mod, b, *scalars):
    """The child's side of run_child: compile ``mod`` for cuda, call ``main(B, C, *scalars)``
    on cuda(0) with ``B`` the array ``b`` and ``C`` of its shape and dtype, print ``C``."""
    import tvm

    lib = tvm.compile(mod, target="cuda")
    dev = tvm.cuda(0)
    c = tvm.runtime.empty(b.shape, str(b.dtype), dev)
    lib["main"](tvm.runtime.tensor(b, dev), c, *scalars)
    dev.sync()
    print(json.dumps(c.numpy().tolist()), flush=True)


def bad_arguments(argv, name, flags=("--check",)):
    """The command-line check every probe makes before any work: None when ``argv`` holds
    only ``flags``; else the exit status, after printing the module's docstring (and
    EXIT_CODES where it states none) for ``--help`` (0) or one line naming the flags it takes
    (2)."""
    if "-h" in argv or "--help" in argv:
        doc = (sys.modules["__main__"].__doc__ or name).strip()
        print(doc if "Exit codes:" in doc else f"{doc}\n\n{EXIT_CODES}")
        return 0
    unknown = [a for a in argv if a not in flags]
    if unknown:
        print(
            f"{name}: error: unknown argument(s) {' '.join(unknown)} "
            f"(it takes {', '.join(flags)}, --help)",
            file=sys.stderr,
        )
        return 2
    return None


def report(findings, row=ROW):
    """Print one line per finding, formatted by ``row`` (keys: layer, status, STATUS, evidence)."""
    for f in findings:
        print(row.format(**f, STATUS=f["status"].upper()))


def exit_status(argv, findings):
    """The probe's exit status after printing: 1 with ``--check`` when the bug reproduces."""
    present = any(f["status"] == "present" for f in findings)
    return 1 if "--check" in argv and present else 0


def print_findings(argv, rows, header, row=ROW):
    """Print the findings ``rows``: as JSON with ``--json``, else ``header`` and one line each
    (``row``); the exit status."""
    if "--json" in argv:
        print(json.dumps(rows, indent=2))
    else:
        print(header)
        report(rows, row)
    return exit_status(argv, rows)


def main(argv, name, probe, flags=("--check",), row=ROW, child=None, needs_llvm=False, show=None):
    """Print ``probe()``'s findings; with ``--check``, 1 when the bug reproduces.

    For a probe with more to show: ``flags`` it takes besides ``--check``; ``child(arg)``
    runs for ``--child arg`` (run_child's other side); ``needs_llvm``: exit 2 with one line
    on a TVM without LLVM; ``show(run)`` prints what the probe sees before the findings
    (``run``: whether ``--run`` was given, which ``probe(run_gpu=run)`` then gets)."""
    import tvm

    argv = sys.argv[1:] if argv is None else argv
    if child is not None and argv[:1] == ["--child"]:
        child(argv[1])
        return 0
    status = bad_arguments(argv, name, flags)
    if status is not None:
        return status
    if needs_llvm and not tvm.runtime.enabled("llvm"):
        print(
            f"{name}: this TVM has no LLVM (USE_LLVM=OFF): cannot build the host module",
            file=sys.stderr,
        )
        return 2
    run = "--run" in argv
    print("tvm", tvm.__version__)
    if show is not None:
        show(run)
    findings = probe(run_gpu=run)
    if show is not None:
        print()  # between what it shows and the findings
    report(findings, row)
    return exit_status(argv, findings)


def run_main(name, main_func):
    """``main_func()`` as the script's exit status; an error of TVM's: one line, exit 2."""
    try:
        sys.exit(main_func())
    except Exception as err:  # a TVM this script cannot drive: one line, no traceback
        print(f"{name}: error: {first_line(err)}", file=sys.stderr)
        sys.exit(2)


def script(bug, probe, **how):
    """Run the probe of ``bug`` as a script: ``main``'s exit status (``how``: its options)."""
    name = f"{bug}/probe.py"
    run_main(name, lambda: main(None, name, probe, **how))


def gpu_script(bug, probe, child, show):
    """Run a probe that also calls its program on cuda(0) as a script: it takes ``--run``,
    needs LLVM for the host module, shows what it sees first and runs ``child`` for
    ``--child``."""
    script(bug, probe, flags=GPU_FLAGS, row=GPU_ROW, child=child, needs_llvm=True, show=show)

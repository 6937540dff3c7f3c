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
"""A pytest plugin that records the TVM programs the tests compile and transform, as cases of
the differential run (generator/differential.py)::

    DIFFERENTIAL_CAPTURE=/tmp/cases.jsonl PYTHONPATH=scripts .venv/bin/python -m pytest \\
        -p differential_capture tests/python tests/proof bugs --reference-fixes

Without ``DIFFERENTIAL_CAPTURE`` (the output file: JSON lines, appended) it does nothing. With
it, ``tvm.compile`` and ``tvm.ir.transform.Pass.__call__`` are wrapped for the session, and
only the outermost call counts (a pass inside ``tvm.compile``, or TVM's pass inside a reference
fix's, is not recorded):

* ``tvm.compile`` of a TIR module (a PrimFunc becomes ``{"main": func}``) for a target of
  ``TARGETS``: a ``tir`` case with the target's kind and whether the PassContext sets
  ``testing.immutable_module``; a module with Relax functions is skipped;
* a pass of ``PASSES`` (a reference fix's pass counts as the TVM pass it stands for,
  ``REFERENCE_PASSES``): a ``pass`` case (``relax`` for a Relax pass) of its input module.

The text is printed before the call, by the printer in effect: run it with
``--reference-fixes``, so that the fixed printers print (their text parses with the fixes
installed: the cell printer's builder takes more than the released one). A module the printer
refuses is skipped; identical cases are written once. A test's fork appends its cases too, with
ids of their own (``#n@forkK``), left out of the summary the session ends with (on stderr).
"""

import contextlib
import json
import os
import sys
from collections import Counter
from types import SimpleNamespace

import pytest

TARGETS = ("cuda", "opencl", "metal", "webgpu", "vulkan", "rocm", "llvm", "c")
PASSES = (
    "tirx.SplitHostDevice tirx.AnnotateEntryFunc tirx.VerifyMemory tirx.LowerTVMBuiltin "
    "tirx.MakePackedAPI tirx.BF16ComputeLegalize tirx.BF16StorageLegalize "
    "tirx.LowerDeviceKernelLaunches relax.AllocateWorkspace"
).split()
# the passes' names as the reference fixes (bugs/*/reference_fix.py) and TVM itself spell them
REFERENCE_PASSES = {
    "reference_fixes.SplitHostDeviceOnACopy": "tirx.SplitHostDevice",  # harness/input_copy.py
    "reference_fixes.SplitHostDeviceWithHostValues": "tirx.SplitHostDevice",  # host_scalar
    "reference_fixes.NarrowScalarParams": "tirx.SplitHostDevice",  # narrow_scalar
    "reference_fixes.AnnotateEntryFuncOnACopy": "tirx.AnnotateEntryFunc",  # harness/input_copy.py
    "reference_fixes.LowerTVMBuiltin": "tirx.LowerTVMBuiltin",  # host_scalar
    "reference_fixes.bfloat16_scalar.compute_legalize": "tirx.BF16ComputeLegalize",
    "reference_fixes.bfloat16_scalar.make_packed_api": "tirx.MakePackedAPI",
    "reference_fixes.bfloat16_scalar.storage_legalize": "tirx.BF16StorageLegalize",
    "AllocateWorkspace": "relax.AllocateWorkspace",  # TVM's own name, and the fix's
}
IMMUTABLE = "testing.immutable_module"

S = SimpleNamespace(
    out=None,  # the open output file while active
    depth=0,  # captured calls under way (and printing)
    source=None,  # the nodeid of the test (or collector) running
    saved=(),  # (owner, attribute, original) to restore at the end
    seen=set(),  # (kind, text, target, pass) of the cases written
    per_source=Counter(),
    counts=Counter(),
    summary=None,  # the line printed at the end
    pid=None,  # this process (a fork's cases get ids of their own)
    forks=0,  # the forks this process made
)


def _print(mod):
    S.depth += 1  # nothing the printer runs is captured
    try:
        return mod.script(show_meta=True)
    except Exception:
        S.counts["unprintable"] += 1
        return None
    finally:
        S.depth -= 1


def _write(case):
    key = (case["kind"], case["text"], case.get("target"), case.get("pass"))
    if key in S.seen:
        S.counts["duplicate"] += 1
        return
    S.seen.add(key)
    source = S.source or "<session>"
    S.per_source[source] += 1
    fork = "" if os.getpid() == S.pid else f"@fork{S.forks}"
    record = {"id": f"{source}#{S.per_source[source]}{fork}", **case}
    record.update(families=["test"], source=source)
    S.out.write(json.dumps(record) + "\n")
    S.out.flush()
    S.counts[f"written:{case['kind']}"] += 1


def _target_kind(tvm, mod, target):
    if target is None:  # tvm.tirx.build takes the functions' own target
        attrs = [f.attrs for f in mod.functions.values() if f.attrs is not None]
        target = next((a["target"] for a in attrs if "target" in a), None)
    if target is None:
        return None
    if not isinstance(target, tvm.target.Target):
        target = tvm.target.Target(target)
    return str(target.kind.name)


def _on_compile(mod, target=None, *_args, **_kwargs):
    import tvm

    if isinstance(mod, tvm.tirx.PrimFunc):
        mod = tvm.IRModule({"main": mod})
    if not isinstance(mod, tvm.IRModule):
        return
    if any(isinstance(f, tvm.relax.Function) for f in mod.functions.values()):
        S.counts["relax compile"] += 1
        return
    kind = _target_kind(tvm, mod, target)
    if kind not in TARGETS:
        S.counts["other target"] += 1
        return
    config = tvm.transform.PassContext.current().config
    immutable = bool(config is not None and config.get(IMMUTABLE, False))
    text = _print(mod)
    if text is not None:
        _write({"kind": "tir", "text": text, "target": kind, "immutable": immutable})


def _on_pass(pass_obj, mod, *_args, **_kwargs):
    import tvm

    raw = str(pass_obj.info.name)
    name = raw if raw in PASSES else REFERENCE_PASSES.get(raw)
    if name is None or not isinstance(mod, tvm.IRModule):
        S.counts["unmapped" if raw.startswith("reference_fixes.") else "other pass"] += 1
        return
    text = _print(mod)
    if text is not None:
        kind = "relax" if name.startswith("relax.") else "pass"
        _write({"kind": kind, "text": text, "pass": name})


def _wrap(original, on_call):
    def captured(*args, **kwargs):
        if S.depth == 0 and S.out is not None:
            try:
                on_call(*args, **kwargs)  # before the call: a pass may change its input
            except Exception:
                S.counts["capture error"] += 1
        S.depth += 1
        try:
            return original(*args, **kwargs)
        finally:
            S.depth -= 1

    captured.__wrapped__ = original
    return captured


def pytest_sessionstart(session):
    path = os.environ.get("DIFFERENTIAL_CAPTURE")
    if not path:
        return
    import tvm

    S.out = open(path, "a", encoding="utf-8")  # closed at session end
    S.pid = os.getpid()
    os.register_at_fork(before=lambda: setattr(S, "forks", S.forks + 1))
    pass_cls = tvm.ir.transform.Pass
    S.saved = ((tvm, "compile", tvm.compile), (pass_cls, "__call__", pass_cls.__call__))
    tvm.compile = _wrap(tvm.compile, _on_compile)
    pass_cls.__call__ = _wrap(pass_cls.__call__, _on_pass)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    outer, S.source = S.source, collector.nodeid  # a module's import compiles too
    try:
        return (yield)
    finally:
        S.source = outer


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    S.source = item.nodeid
    try:
        return (yield)
    finally:
        S.source = None


def pytest_sessionfinish(session):
    if S.out is None:
        return
    for owner, attribute, original in S.saved:
        setattr(owner, attribute, original)
    S.out.close()
    S.out = None
    c = S.counts
    kinds = {k[8:]: n for k, n in sorted(c.items()) if k.startswith("written:")}
    S.summary = (  # printed after pytest's own summary line
        f"differential capture: {sum(kinds.values())} case(s) written "
        f"({', '.join(f'{k} {n}' for k, n in kinds.items()) or 'none'}); skipped: "
        f"unprintable {c['unprintable']}, relax compile {c['relax compile']}, unmapped "
        f"{c['unmapped']}; not cases: duplicate {c['duplicate']}, other target "
        f"{c['other target']}, other pass {c['other pass']}, capture error {c['capture error']}"
    )


def pytest_unconfigure(config):
    if S.summary is None:
        return
    capman = config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled() if capman else contextlib.nullcontext():
        print(S.summary, file=sys.stderr)
    S.summary = None

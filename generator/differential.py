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
"""The differential run: what each fix decides, on the source build and under the
stand-ins, program by program.

Four sides run the same corpus: the released wheel (``wheel``), the wheel with the reference
fixes (``wheel+fixes``), the source build at the base commit (``base``) and with patches/
(``patched``). Each side writes, per case, the decisions the fixes make (``decide``):

* ``parse``: the case's text parses (the printers' fixes change nothing here; a base that
  lacks the wheel's syntax shows here);
* ``roundtrip``: the parsed module printed and parsed back (0005, 0008): ``same``,
  ``differs:<field>``, ``reparse-error``, ``print-error:<type>`` or ``cannot-print`` (a
  printer stand-in that refuses: its limit, never compared as a decision);
* ``compile``: ``ok``, or the error's type and where it came (``passes`` or ``codegen``, after
  every pass); a crash of the process is ``crash:signal-N``;
* ``input-changed``: some pass the pipeline runs (outermost) changed the module it was given
  (0006);
* ``kernels``: the parameter types of every kernel (``calling_conv`` 2) in the last module the
  passes made, as a sorted multiset (0002, 0004, 0009);
* ``host-workspaces``: the ``TVMBackendAllocWorkspace`` calls of the host functions in that
  module, (device type, bytes) (0002: a host cell is no device workspace);
* ``split-roundtrip``: the first pass output that has kernels, printed and parsed back (the
  printers on SplitHostDevice's output: names shared between host and kernel);
* Relax (0001): ``pass`` (``ok`` or the error's type), ``well-formed``, the global functions
  and the calls between them by name, ``input-changed``, ``roundtrip`` of the output.

``compare`` puts the four sides side by side: a decision agrees when the fixed sides give the
same value. Where they differ it is explained only when the base and the wheel already differ
without the fixes and each fix has the same effect on its side (it changes the decision on
both sides or on neither); every other difference is listed as a disagreement.
"""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SIDES = ("wheel", "wheel+fixes", "base", "patched")
FIXED = {"wheel": "wheel+fixes", "base": "patched"}
# decisions a stand-in may decline to make (a printer fix that cannot print the wheel's IR)
DECLINED = ("cannot-print",)


# --------------------------------------------------------------------------- the IR
def _tvm():
    import tvm

    return tvm


def _walk(node, visit):
    """Call ``visit`` on every node under ``node`` (the base commit: tirx.stmt_functor, whose
    tvm-ffi walks differently; the wheel: tvm-ffi's structural walk)."""
    try:
        from tvm.tirx import stmt_functor
    except ImportError:  # the wheel
        import tvm_ffi

        tvm_ffi.structural_walk(node, lambda n: visit(n) or True)
        return
    stmt_functor.post_order_visit(node, visit)


def _is_kernel(func):
    attrs = func.attrs
    return attrs is not None and "calling_conv" in attrs and int(attrs["calling_conv"]) == 2


def _param_type(param):
    ty = getattr(param, "ty", None)
    text = str(ty if ty is not None else param.dtype)
    text = text[2:] if text.startswith("T.") else text
    if "handle" in text or "Ptr" in text or "Tensor" in text:
        return "ptr"
    return text


def _kernels(mod):
    tvm = _tvm()
    sigs = []
    for _gv, func in mod.functions.items():
        if isinstance(func, tvm.tirx.PrimFunc) and _is_kernel(func):
            sigs.append(",".join(_param_type(p) for p in func.params))
    return sorted(sigs)


def _host_workspaces(mod):
    tvm = _tvm()
    found = []
    call = getattr(tvm.ir, "Call", None) or tvm.tirx.Call  # the base commit: tirx.Call

    def visit(node):
        if isinstance(node, call) and getattr(node.op, "name", "") == (
            "tirx.TVMBackendAllocWorkspace"
        ):
            args = node.args
            try:
                found.append(f"{int(args[0])}:{int(args[2])}")
            except (TypeError, ValueError):
                found.append("dynamic")

    for _gv, func in mod.functions.items():
        if isinstance(func, tvm.tirx.PrimFunc) and not _is_kernel(func):
            _walk(func.body, visit)
    return sorted(found)


def _has_kernels(mod):
    tvm = _tvm()
    return any(
        isinstance(f, tvm.tirx.PrimFunc) and _is_kernel(f) for _gv, f in mod.functions.items()
    )


def _has_host(mod):
    tvm = _tvm()
    return any(
        isinstance(f, tvm.tirx.PrimFunc) and not _is_kernel(f) for _gv, f in mod.functions.items()
    )


def _parse(text):
    tvm = _tvm()
    from tvm.script import ir as I
    from tvm.script import tirx as T

    extra = {"T": T, "I": I, "tvm": tvm}
    try:
        from tvm.script import relax as R

        extra["R"] = R
    except ImportError:  # pragma: no cover
        pass
    return tvm.script.from_source(text, extra_vars=extra)


def _field(where):
    """The field a structural mismatch is at, without indices and names: a stable key."""
    path = re.sub(r"\[[^\]]*\]", "", where)
    parts = [p for p in path.split(".") if p and not p.startswith("<root>")]
    return ".".join(parts[-2:]) or "root"


def roundtrip(mod):
    import tvm_ffi

    try:
        text = mod.script(show_meta=True)
    except NotImplementedError:
        return "cannot-print"
    except Exception as err:
        return f"print-error:{type(err).__name__}"
    try:
        back = _parse(text)
    except Exception:
        return "reparse-error"
    found = tvm_ffi.get_first_structural_mismatch(mod, back, map_free_vars=True)
    if found is None:
        return "same"
    return f"differs:{_field(str(found[0]))}"


# --------------------------------------------------------------------------- one case
def _target(kind):
    tvm = _tvm()
    if kind == "cuda":
        return tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
    return tvm.target.Target(kind)


def _pipeline(run, immutable):
    """Run ``run()`` under an instrument: (the outputs of the passes the pipeline runs, whether
    one of them changed its input, the error or None, where it came)."""
    import tvm_ffi

    tvm = _tvm()
    outputs, changed = [], [False]
    wrappers = ("sequential", "_pipeline")

    @tvm.instrument.pass_instrument
    class Watch:
        def run_before_pass(self, m, info):
            self_stack.append((info.name, m, tvm_ffi.structural_hash(m)))

        def run_after_pass(self, m, info):
            name, before, digest = self_stack.pop()
            outer = [n for n, _m, _d in self_stack if n not in wrappers]
            if name in wrappers or outer:
                return
            if tvm_ffi.structural_hash(before) != digest:
                changed[0] = True
            outputs.append(m)

    self_stack = []
    config = {"testing.immutable_module": True} if immutable else {}
    error = None
    try:
        with tvm.transform.PassContext(instruments=[Watch()], config=config):
            run()
    except Exception as err:
        error = err
    running = [n for n, _m, _d in self_stack if n not in wrappers]
    return outputs, changed[0], error, ("passes" if running else "codegen")


def _error(err):
    """The error's class: InternalError for a failed check (both builds, the wheel), the Python
    type of a user-facing error (ValueError, TypeError, ...), as the stand-ins raise them."""
    return type(err).__name__


def _parsed(case):
    """(module, decisions): the case's text parsed, with the parse's and the print -> parse
    decisions; (None, the parse's error) where it does not parse."""
    try:
        mod = _parse(case["text"])
    except Exception as err:
        return None, {"parse": f"error:{_error(err)}"}
    return mod, {"parse": "ok", "roundtrip": roundtrip(mod)}


def decide_tir(case):
    tvm = _tvm()
    mod, out = _parsed(case)
    if mod is None:
        return out
    if case["kind"] == "pass":
        make = _pass_constructor(case["pass"])
        target = case.get("target")
        if target:
            mod = tvm.tirx.transform.BindTarget(_target(target))(mod)
        outputs, changed, error, _where = _pipeline(lambda: make()(mod), False)
        out["compile"] = "ok" if error is None else _error(error)
    else:
        outputs, changed, error, where = _pipeline(
            lambda: tvm.compile(
                mod,
                target=_target(case["target"]),
                tir_pipeline=case.get("tir_pipeline", "default"),
            ),
            case.get("immutable"),
        )
        out["compile"] = "ok" if error is None else f"{_error(error)}:{where}"
    out["input-changed"] = changed
    if outputs:
        # tvm.compile ends with a host module and a device module, lowered apart: the last
        # output with kernels and the last with a host function
        kernels = [m for m in outputs if _has_kernels(m)]
        hosts = [m for m in outputs if _has_host(m)]
        out["kernels"] = _kernels(kernels[-1]) if kernels else []
        out["host-workspaces"] = _host_workspaces(hosts[-1]) if hosts else []
        split = kernels[0] if kernels else None
        if split is not None:
            out["split-roundtrip"] = roundtrip(split)
    return out


def _pass_constructor(name):
    """The constructor of pass ``name`` ("tirx.X" or "relax.X") on this TVM."""
    space, _, short = name.partition(".")
    if space == "relax":
        from tvm import relax

        return getattr(relax.transform, short)
    return getattr(_tvm().tirx.transform, short)


def _relax_graph(mod):
    from tvm import relax

    tvm = _tvm()
    names, calls = [], set()
    for gv, func in mod.functions.items():
        names.append(gv.name_hint)
        if not isinstance(func, relax.Function):
            continue

        def visit(node, caller=gv.name_hint):
            if isinstance(node, tvm.ir.GlobalVar):
                calls.add(f"{caller}->{node.name_hint}")

        relax.analysis.post_order_visit(func, visit)
    return sorted(names), sorted(calls)


def _relax_signatures(mod):
    """``name(param types)`` of every Relax function: the workspace parameters."""
    from tvm import relax

    found = []
    for gv, func in mod.functions.items():
        if isinstance(func, relax.Function):
            types = []
            for param in func.params:
                ty = getattr(param, "ty", None) or getattr(param, "struct_info", None)
                types.append(re.sub(r"\s+", "", str(ty)))
            found.append(f"{gv.name_hint}({', '.join(types)})")
    return sorted(found)


def decide_relax(case):
    import tvm_ffi

    from tvm import relax

    mod, out = _parsed(case)
    if mod is None:
        return out
    digest = tvm_ffi.structural_hash(mod)
    make = _pass_constructor(case.get("pass") or "relax.AllocateWorkspace")
    try:
        after = make()(mod)
    except Exception as err:
        out["pass"] = _error(err)
        return out
    out["pass"] = "ok"
    out["input-changed"] = tvm_ffi.structural_hash(mod) != digest
    try:
        relax.analysis.well_formed(after)
        out["well-formed"] = True
    except Exception:
        out["well-formed"] = False
    out["functions"], out["calls"] = _relax_graph(after)
    out["signatures"] = _relax_signatures(after)
    out["output-roundtrip"] = roundtrip(after)
    return out


def decide(case):
    if case["kind"] == "relax":
        return decide_relax(case)
    return decide_tir(case)


# --------------------------------------------------------------------------- compare
def _effect(released, fixed):
    return released != fixed


# Disagreements explained one by one: (case id, decision, {side: value}, why). A row is
# explained only while every side named still gives that value.
EXPLAINED = [
    (
        "bugs/host_scalar/proof/test_host_scalar_lowering.py::test_only_local_allocations_are_marked#1",
        decision,
        {"wheel+fixes": "same", "patched": "differs:extent.value"},
        "a stand-in's limit over an open defect: the module holds a global cell, which "
        "printer_cell's stand-in (0005's P1) can only express by printing the whole module "
        "without sugar, where the C++ drops the sugar of that declaration alone; so only the "
        "patched build prints its T.decl_scalar view of A as A.view(1), which parses back "
        "with another layout (the report printer_view_layout: the stand-in and the C++ print "
        "and fail alike once the module has no such cell)",
    )
    for decision in ("roundtrip", "split-roundtrip")
]


def _explained(cid, key, vals):
    for case, decision, want, _why in EXPLAINED:
        if case == cid and decision == key and all(vals[s] == v for s, v in want.items()):
            return True
    return False


def compare(records):
    """``records``: {side: {case id: decisions}}. Returns (rows, counts): a row per differing
    (case, decision): (case id, decision, {side: value}, verdict) with verdict ``explained``
    (the base and the wheel differ without the fixes, the fixes have the same effect) or
    ``disagreement``; counts per verdict and the number of decisions compared."""
    rows = []
    counts = {
        "cases": 0,
        "decisions": 0,
        "agree": 0,
        "explained": 0,
        "disagreement": 0,
        "explained by hand": 0,
        "declined": 0,
        "missing": 0,
        "unparsed-by-base": 0,
    }
    wheel, fixed_w = records["wheel"], records["wheel+fixes"]
    base, fixed_b = records["base"], records["patched"]
    for cid in sorted(fixed_b):
        if cid not in fixed_w or cid not in wheel or cid not in base:
            counts["missing"] += 1
            continue
        if (
            wheel[cid].get("parse") == "ok"
            and base[cid].get("parse") != "ok"
            and fixed_b[cid].get("parse") != "ok"
        ):
            # written in syntax the wheel has and the base commit lacks: nothing to compare
            counts["unparsed-by-base"] += 1
            continue
        counts["cases"] += 1
        keys = sorted(set(fixed_w[cid]) | set(fixed_b[cid]))
        for key in keys:
            vals = {
                "wheel": wheel[cid].get(key),
                "wheel+fixes": fixed_w[cid].get(key),
                "base": base[cid].get(key),
                "patched": fixed_b[cid].get(key),
            }
            counts["decisions"] += 1
            if vals["wheel+fixes"] == vals["patched"]:
                counts["agree"] += 1
                continue
            if vals["wheel+fixes"] in DECLINED:
                counts["declined"] += 1
                continue
            same_effect = _effect(vals["wheel"], vals["wheel+fixes"]) == _effect(
                vals["base"], vals["patched"]
            )
            if vals["wheel"] != vals["base"] and same_effect:
                verdict = "explained"
            elif _explained(cid, key, vals):
                verdict = "explained by hand"
            else:
                verdict = "disagreement"
            counts[verdict] += 1
            rows.append((cid, key, vals, verdict))
    return rows, counts


def load(path):
    records = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                item = json.loads(line)
                records[item["id"]] = item["decisions"]
    return records


# --------------------------------------------------------------------------- the corpus
FAMILIES = {
    "host_scalar": "a host-level value in memory (cell, buffer, array, shared) a kernel reads",
    "verify_memory": "device memory at host level, or a kernel reading through an alias",
    "narrow_scalar": "a value narrower than 32 bits a kernel reads",
    "printer": "a one-element buffer (cell, assignment, buffer, parameter) or a thread index",
    "inplace": "compiled under testing.immutable_module",
    "uint64_scalar": "a uint64 value a kernel reads",
    "bfloat16_scalar": "a bfloat16 value",
    "allocate_workspace": "a Relax module of Codegen and Composite functions",
}
NARROW = ("int8", "int16", "uint8", "uint16", "bool", "float16", "bfloat16")


def families(program):
    """The rule families a generated program exercises (FAMILIES)."""
    from generator import program as P

    read = {r for k in program.kernels for r in k.reads}
    values = program.values
    have = set()
    if any(values[i].spelling in ("cell", "assign", "buffer", "array", "shared") for i in read):
        have.add("host_scalar")
    if any(v.spelling in P.DEVICE for v in values) or any(
        values[i].alias != "direct" for i in read
    ):
        have.add("verify_memory")
    if any(values[i].dtype in NARROW for i in read):
        have.add("narrow_scalar")
    if any(v.spelling in ("cell", "assign", "buffer", "param") for v in values) or (
        program.index_var
    ):
        have.add("printer")
    if program.immutable:
        have.add("inplace")
    if any(values[i].dtype == "uint64" for i in read):
        have.add("uint64_scalar")
    if any(v.dtype == "bfloat16" for v in values):
        have.add("bfloat16_scalar")
    return sorted(have)


def generated_corpus(seed_value, per_family, limit=20000):
    """[case]: the sentinels, then generated programs (the campaign's strategies, batches
    seeded from ``seed_value``) until every family has ``per_family`` of them, then as many
    distinct Relax modules (relax_cases: the report's shapes and call graphs)."""
    from generator import program as P
    from generator import relax_cases as RC
    from generator import sentinels as SN
    from generator import strategies as S

    cases = []
    for name, report, case in SN.for_line("tvm"):
        item = _case_of(case, f"sentinel:{name}")
        if item is not None:
            item["families"] = [report]
            cases.append(item)
    count = dict.fromkeys(FAMILIES, 0)
    drawn, batch, seen = [], 0, set()

    def short():
        return [f for f in FAMILIES if f != "allocate_workspace" and count[f] < per_family]

    def one(program):
        text = P.render(program, "tvm")
        if (text, program.target, program.immutable) in seen:
            return
        seen.add((text, program.target, program.immutable))
        have = families(program)
        # a program only of families that have enough is left out (the corpus stays
        # about the families still short)
        if have and any(count[f] < per_family for f in have):
            for f in have:
                count[f] += 1
            drawn.append((program, have))

    while short() and len(drawn) < limit:
        S.draw_batch(S.programs("tvm", P.TARGETS), seed_value, batch, 50, one)
        batch += 1
    for i, (program, have) in enumerate(drawn):
        item = _case_of(program, f"program:{i + 1}")
        item["families"] = have
        cases.append(item)
    relax, texts = [], set()

    def one_relax(case):
        text = RC.render(case)
        if text not in texts and len(relax) < per_family:
            texts.add(text)
            relax.append(text)

    for batch in range(1000):
        if len(relax) >= per_family:
            break
        S.draw_batch(RC.relax_cases(), seed_value, batch, 100, one_relax)
    for i, text in enumerate(relax):
        cases.append(
            {
                "id": f"relax:{i + 1}",
                "kind": "relax",
                "text": text,
                "families": ["allocate_workspace"],
            }
        )
    count["allocate_workspace"] = per_family
    return cases, count


def _case_of(case, cid):
    from generator import program as P
    from generator import relax_cases as RC
    from generator import sentinels as SN

    if isinstance(case, P.Program):
        return {
            "id": cid,
            "kind": "tir",
            "text": P.render(case, "tvm"),
            "target": case.target,
            "immutable": case.immutable,
            "invalid": P.invalid(case, "tvm"),
        }
    if isinstance(case, SN.Text):
        return {
            "id": cid,
            "kind": "tir",
            "text": case.text("tvm"),
            "target": case.target,
            "tir_pipeline": case.tir_pipeline,
        }
    if isinstance(case, SN.PassCase):
        return {
            "id": cid,
            "kind": "pass",
            "text": P.render(case.program, "tvm"),
            "target": case.program.target,
            "pass": f"tirx.{case.pass_name}",
        }
    if isinstance(case, RC.RelaxCase):
        return {"id": cid, "kind": "relax", "text": RC.render(case)}
    return None


# --------------------------------------------------------------------------- the command
def _read_cases(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def _child(corpus, out, start, fixes):
    """Decide the cases from index ``start`` on, appending to ``out``; ``out``.progress holds
    the index being decided (the parent places a crash with it)."""
    import contextlib
    import io
    import os
    import sys

    if fixes:
        from harness import reference_fixes

        reference_fixes.install(list(reference_fixes.available()))
    cases = _read_cases(corpus)
    with open(out, "a") as sink:
        for index in range(start, len(cases)):
            case = cases[index]
            if index and index % 250 == 0:
                print(f"differential: {index} of {len(cases)}", file=sys.stderr, flush=True)
            with open(out + ".progress", "w") as p:
                p.write(str(index))
            quiet = io.StringIO()
            try:
                with contextlib.redirect_stdout(quiet):
                    decisions = decide(case)
            except Exception as err:  # the tool's own failure on this case, kept apart
                decisions = {"tool-error": f"{type(err).__name__}: {err}"[:200]}
            sink.write(json.dumps({"id": case["id"], "decisions": decisions}) + "\n")
            sink.flush()
            os.fsync(sink.fileno())


def record(corpus, out, fixes, python=None):
    """Every case of ``corpus`` through this interpreter's TVM (``python``: another one), a
    child process at a time: a case that kills its child is recorded as ``crash`` and the
    next child starts after it."""
    import os
    import subprocess
    import sys

    cases = _read_cases(corpus)
    total = len(cases)
    open(out, "w").close()
    start = 0
    while start < total:
        cmd = [
            python or sys.executable,
            "-m",
            "generator.differential",
            "_child",
            corpus,
            out,
            str(start),
        ] + (["--reference-fixes"] if fixes else [])
        proc = subprocess.run(cmd, cwd=ROOT)
        if proc.returncode == 0:
            break
        try:
            index = int(open(out + ".progress").read())
        except (OSError, ValueError):
            raise SystemExit("differential: the child failed before its first case (above)")
        case = cases[index]
        signal = -proc.returncode if proc.returncode < 0 else proc.returncode
        with open(out, "a") as sink:
            sink.write(json.dumps({"id": case["id"], "decisions": {"crash": f"signal-{signal}"}}))
            sink.write("\n")
        print(
            f"differential: {case['id']} ended its process (signal {signal}); going on",
            file=sys.stderr,
        )
        start = index + 1
    if os.path.exists(out + ".progress"):
        os.remove(out + ".progress")
    return sum(1 for _ in open(out))


def _value(v):
    if isinstance(v, list):
        return "[" + "; ".join(v) + "]"
    return "-" if v is None else str(v)


def report(directory, markdown=False):
    """The comparison of the four sides' records in ``directory`` as text; (text, counts)."""
    import os

    cases = {c["id"]: c for c in _read_cases(os.path.join(directory, "corpus.jsonl"))}
    records = {side: load(os.path.join(directory, f"{side}.jsonl")) for side in SIDES}
    rows, counts = compare(records)
    fam = {}
    for cid, case in cases.items():
        for f in case.get("families", []):
            fam[f] = fam.get(f, 0) + 1
    tool = {side: sum("tool-error" in d for d in recs.values()) for side, recs in records.items()}
    lines = []
    lines.append(
        f"cases: {counts['cases']} ({len(cases)} in the corpus; missing on a side: "
        f"{counts['missing']}; in syntax the base commit lacks, parsed by the wheel only: "
        f"{counts['unparsed-by-base']})"
    )
    lines.append("per family: " + ", ".join(f"{k} {v}" for k, v in sorted(fam.items())))
    lines.append(
        f"decisions compared: {counts['decisions']}; the fixed sides agree on "
        f"{counts['agree']}; explained by the base and the wheel differing already: "
        f"{counts['explained']}; explained by hand (EXPLAINED): {counts['explained by hand']}; "
        f"declined by a stand-in: {counts['declined']}; disagreements: {counts['disagreement']}"
    )
    lines.append("tool errors per side: " + ", ".join(f"{k} {v}" for k, v in tool.items()))
    changed = {}
    for cid, decisions in records["patched"].items():
        for key, value in decisions.items():
            if cid in records["base"] and records["base"][cid].get(key) != value:
                changed[key] = changed.get(key, 0) + 1
    lines.append(
        "decisions the patches change on the build (base -> patched), per decision: "
        + ", ".join(f"{k} {n}" for k, n in sorted(changed.items(), key=lambda i: -i[1]))
    )
    declined = {}
    for cid, decisions in records["wheel+fixes"].items():
        for key, value in decisions.items():
            if value in DECLINED and cid in records["patched"]:
                got = _value(records["patched"][cid].get(key))
                declined[got] = declined.get(got, 0) + 1
    if declined:
        lines.append(
            "declined by a stand-in, what the patched build decides there: "
            + ", ".join(f"{v} {n}" for v, n in sorted(declined.items(), key=lambda i: -i[1]))
        )
    groups = {}
    for cid, key, vals, verdict in rows:
        pattern = (verdict, key, tuple(_value(vals[s]) for s in SIDES))
        groups.setdefault(pattern, []).append(cid)
    if markdown:
        lines += [
            "",
            "| verdict | decision | " + " | ".join(SIDES) + " | cases | e.g. |",
            "|---|---|" + "---|" * len(SIDES) + "---|---|",
        ]
    for (verdict, key, vals), ids in sorted(groups.items(), key=lambda g: (g[0][0], -len(g[1]))):
        if markdown:
            cells = " | ".join(v.replace("|", "/")[:60] for v in vals)
            lines.append(f"| {verdict} | {key} | {cells} | {len(ids)} | `{ids[0]}` |")
        else:
            lines.append(
                f"{verdict}: {key}: "
                + " / ".join(f"{s}={v[:70]}" for s, v in zip(SIDES, vals))
                + f"  ({len(ids)}: {ids[0]}"
                + (f", {ids[1]}" if len(ids) > 1 else "")
                + ")"
            )
    return "\n".join(lines), counts


def main(argv=None):
    import argparse
    import os
    import sys

    parser = argparse.ArgumentParser(
        prog="python -m generator.differential", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("corpus", help="write DIR/corpus.jsonl (the wheel's interpreter)")
    c.add_argument("directory")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--per-family", type=int, default=500)
    c.add_argument(
        "--tests", help="cases captured from the tests (scripts/differential_capture.py)"
    )
    r = sub.add_parser("record", help="decide every case of DIR/corpus.jsonl on one side")
    r.add_argument("directory")
    r.add_argument("--side", choices=SIDES, required=True)
    r.add_argument("--python", help="the interpreter of that side (default: this one)")
    p = sub.add_parser("compare", help="the four sides side by side; exit 1 on a disagreement")
    p.add_argument("directory")
    p.add_argument("--markdown", action="store_true")
    ch = sub.add_parser("_child")
    ch.add_argument("corpus")
    ch.add_argument("out")
    ch.add_argument("start", type=int)
    ch.add_argument("--reference-fixes", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "_child":
        _child(args.corpus, args.out, args.start, args.reference_fixes)
        return 0
    if not os.path.isdir(args.directory):
        if args.command != "corpus":
            print(f"differential: no such directory: {args.directory}", file=sys.stderr)
            return 2
        os.makedirs(args.directory)
    corpus = os.path.join(args.directory, "corpus.jsonl")
    if args.command == "corpus":
        cases, count = generated_corpus(args.seed, args.per_family)
        if args.tests:
            for case in _read_cases(args.tests):
                case.setdefault("families", ["test"])
                cases.append(case)
        with open(corpus, "w") as f:
            for case in cases:
                f.write(json.dumps(case) + "\n")
        print(
            f"differential: {len(cases)} cases; generated per family: "
            + ", ".join(f"{k} {v}" for k, v in count.items()),
            file=sys.stderr,
        )
        return 0
    if not os.path.exists(corpus):
        print(f"differential: no corpus in {args.directory} (run corpus first)", file=sys.stderr)
        return 2
    if args.command == "record":
        out = os.path.join(args.directory, f"{args.side}.jsonl")
        n = record(corpus, out, args.side == "wheel+fixes", args.python)
        print(f"differential: {args.side}: {n} cases decided", file=sys.stderr)
        return 0
    text, counts = report(args.directory, args.markdown)
    print(text)
    return 1 if counts["disagreement"] or counts["missing"] else 0


if __name__ == "__main__":
    raise SystemExit(main())

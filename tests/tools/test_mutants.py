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
"""Tests of the mutation tool (scripts/mutants.py, mutants/): mutant ids, the seeded sample,
the reviewed table, verdicts, installing a mutant and the plugin's timeout, on toy modules;
no TVM runs (this repository only)."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import mutants  # noqa: E402
from bug_reports import present  # noqa: E402
from harness import wrong_fixes  # noqa: E402

_spec = importlib.util.spec_from_file_location("mutants_command", ROOT / "scripts" / "mutants.py")
command = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(command)

TOY = """
def wide(bits, lanes):
    if lanes != 1 or bits >= 32:
        return None
    return bits * 2
"""


def toy_mutants(key, lines):
    return [
        command.Mutant(key, "core/NumberReplacer", i, line, 0, "x") for i, line in enumerate(lines)
    ]


def tool_or_skip():
    python = os.environ.get("MUTANTS_PYTHON") or command.TOOL_VENV / "bin" / "python"
    if not Path(python).exists():
        pytest.skip("no mutation tool interpreter: run scripts/mutants.py --list once")
    return str(python)


def test_generated_ids_are_stable_and_name_operator_file_line_occurrence(tmp_path):
    """Two listings of a file give the same ids, each <file>:<line>:<operator>:<k>, unique."""
    python = tool_or_skip()
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "reference_fix.py").write_text(TOY)
    first = command.generate(python, ["toy"], tmp_path)["toy"]
    again = command.generate(python, ["toy"], tmp_path)["toy"]
    ids = [m.id for m in first]
    assert ids == [m.id for m in again]
    assert len(set(ids)) == len(ids)
    assert "toy.py:3:ReplaceComparisonOperator_NotEq_Eq:0" in ids
    # two mutants of each number (+1, -1), two numbers on the line: k tells the four apart
    assert {f"toy.py:3:NumberReplacer:{k}" for k in range(4)} <= set(ids)
    assert "toy.py:3:NumberReplacer:4" not in ids


def test_apply_writes_the_mutant_elsewhere_and_leaves_the_file(tmp_path):
    """A mutant's source is written to the output folder; the mutated file is unchanged."""
    python = tool_or_skip()
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "reference_fix.py").write_text(TOY)
    (out := tmp_path / "out").mkdir()
    found = command.generate(python, ["toy"], tmp_path)["toy"]
    mutant = next(m for m in found if m.id == "toy.py:3:ReplaceComparisonOperator_NotEq_Eq:0")
    command.apply(python, [mutant], out, tmp_path)
    assert (tmp_path / "toy" / "reference_fix.py").read_text() == TOY
    assert mutant.mutation == "if lanes != 1 or bits >= 32: -> if lanes == 1 or bits >= 32:"
    assert "if lanes == 1 or bits >= 32:" in Path(mutant.source).read_text()


def test_sample_is_seeded_per_fix_and_independent_of_other_fixes():
    """The same seed draws the same mutants of a fix, whatever the other fixes hold."""
    found = {"a": toy_mutants("a", range(1, 40)), "b": toy_mutants("b", range(1, 5))}
    one = command.sample(found, 3, seed=7)
    two = command.sample({"a": found["a"], "b": toy_mutants("b", range(1, 90))}, 3, seed=7)
    assert [m.id for m in one["a"]] == [m.id for m in two["a"]]
    assert len(one["a"]) == 3 and len(command.sample(found, 10, 7)["b"]) == 4
    assert [m.id for m in command.sample(found, 3, seed=8)["a"]] != [m.id for m in one["a"]]
    assert command.sample(found, None, 7)["a"] == found["a"]


def test_reviewed_table_marks_equivalent_mutants_and_flags_stale_entries():
    """An entry whose recorded mutation is the mutant's makes it equivalent; another is stale."""
    same, moved = toy_mutants("a", [3, 4])
    for m in (same, moved):
        m.before, m.after = "x = 1", "x = 2"
    table = {
        same.id: {"mutation": "x = 1 -> x = 2", "reason": "dead branch"},
        moved.id: {"mutation": "y = 1 -> y = 2", "reason": "log message"},
    }
    stale = command.review([same, moved], table)
    assert (same.verdict, same.why) == ("equivalent", "dead branch")
    assert moved.verdict == "" and list(stale) == [moved.id]


@pytest.mark.parametrize("line, equivalent", [("apache/tvm", False), ("apache/tvm-tirx", True)])
def test_an_entry_of_one_line_is_equivalent_on_that_line_only(line, equivalent):
    """An entry naming a TVM line marks the mutant equivalent when that line runs, not the other."""
    (mutant,) = toy_mutants("a", [3])
    mutant.before, mutant.after = "x = 1", "x = 2"
    entry = {"mutation": "x = 1 -> x = 2", "reason": "the other line's branch"}
    command.review([mutant], {mutant.id: {**entry, "line": "apache/tvm-tirx"}}, line)
    assert (mutant.verdict == "equivalent") is equivalent


def test_verdicts_follow_the_wrong_fix_kill_rule():
    """Two failing tests kill; one of them upstream is the wrong-fix rule; fewer survive."""
    up, proof = "tests/python/t.py::a", "tests/proof/t.py::b"
    cases = {
        (up, proof): "killed-upstream",
        (proof, proof + "2"): "killed",
        (up,): "survived",
        (): "survived",
    }
    for names, verdict in cases.items():
        (mutant,) = toy_mutants("a", [1])
        command.judge(mutant, names, "tests/python/")
        assert mutant.verdict == verdict, names


def test_table_counts_each_verdict_once_per_fix():
    """Rows count killed (upstream or not), equivalent, no verdict and survivors; each
    survivor is listed with its mutation."""
    found = {"a": toy_mutants("a", range(1, 10))}
    chosen = {"a": found["a"][:6]}
    for m, v in zip(
        chosen["a"],
        ["killed-upstream", "killed", "equivalent", "timeout", "crash", "survived"],
        strict=True,
    ):
        m.verdict = v
    chosen["a"][5].before, chosen["a"][5].after = "y = a | b", "y = a & b"
    assert command.rows(found, chosen)[0] == ["a", 9, 5, 2, 1, 1, 2, 1]
    text = command.markdown(found, chosen)
    assert "| `a` | 9 | 5 | 2 | 1 | 1 | 2 | 1 |" in text
    # a survivor's row, its mutation's own | escaped
    assert "| `a.py:6:NumberReplacer:0` | `y = a \\| b -> y = a & b` | no test fails |" in text


def test_journal_verdicts_count_for_the_same_mutation_on_the_same_line(tmp_path):
    """A journal entry gives its verdict to the mutant of its id, mutation and TVM line only"""
    judged, moved, other_line, equivalent = toy_mutants("a", [3, 4, 5, 6])
    for m in (judged, moved, other_line, equivalent):
        m.before, m.after = "x = 1", "x = 2"
    equivalent.verdict = "equivalent"
    journal = tmp_path / "journal.jsonl"
    entries = [
        (judged, "x = 1 -> x = 2", "apache/tvm", "survived"),
        (judged, "x = 1 -> x = 2", "apache/tvm", "killed"),  # a later entry wins
        (moved, "y = 1 -> y = 2", "apache/tvm", "killed"),
        (other_line, "x = 1 -> x = 2", "apache/tvm-tirx", "killed"),
        (equivalent, "x = 1 -> x = 2", "apache/tvm", "killed"),
    ]
    journal.write_text(
        "".join(
            json.dumps({"id": m.id, "mutation": t, "line": ln, "verdict": v, "tests": ["t"]}) + "\n"
            for m, t, ln, v in entries
        )
    )
    mutants_ = [judged, moved, other_line, equivalent]
    taken = command.from_journal(mutants_, command.journal_verdicts(journal, "apache/tvm"))
    assert taken == 1 and (judged.verdict, judged.tests) == ("killed", ["t"])
    assert [m.verdict for m in mutants_[1:]] == ["", "", "equivalent"]


def test_journal_with_a_line_that_is_no_entry_is_refused(tmp_path):
    """A journal line that is not an entry is an error naming the file and line, before any run"""
    journal = tmp_path / "journal.jsonl"
    journal.write_text('{"id": "a.py:1:NumberReplacer:0"}\n')
    with pytest.raises(command.Error, match=r"journal.jsonl:1: not a journal entry"):
        command.journal_verdicts(journal, "apache/tvm")


def test_install_executes_the_mutant_as_the_module_and_restores_it(tmp_path, monkeypatch):
    """The mutant is the package's module while installed; uninstall brings the original back."""
    pkg = tmp_path / "toyfixes"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("calls = []\n")
    (pkg / "thing.py").write_text("VALUE = 1\ndef install():\n    return lambda: None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import toyfixes.thing

    calls = toyfixes.calls
    source = (
        "import toyfixes\nVALUE = 2\ndef install():\n    toyfixes.calls.append('in')\n"
        "    return lambda: toyfixes.calls.append('out')\n"
    )
    undo = mutants.install({"report": "thing", "id": "x", "source": source}, "toyfixes.{}")
    assert sys.modules["toyfixes.thing"].VALUE == 2 and calls == ["in"]
    assert sys.modules["toyfixes.thing"].__file__ == str(pkg / "thing.py")
    undo()
    assert sys.modules["toyfixes.thing"] is toyfixes.thing and calls == ["in", "out"]
    assert sys.modules["toyfixes"].thing.VALUE == 1


def test_wrong_fixes_take_the_mutant_of_its_report_only(tmp_path, monkeypatch):
    """With a mutant set, <report>:mutant parses; another report's is refused; others pass on."""
    monkeypatch.setattr(wrong_fixes, "parse", wrong_fixes.parse)
    monkeypatch.setattr(wrong_fixes, "install", wrong_fixes.install)
    source = tmp_path / "m.json"
    source.write_text(json.dumps({"report": "narrow_scalar", "id": "x", "source": ""}))
    monkeypatch.setenv(mutants.SOURCE_ENV, str(source))
    mutants.accept_in_wrong_fixes()
    mutants.accept_in_wrong_fixes()  # idempotent
    assert wrong_fixes.parse("narrow_scalar:mutant") == ("narrow_scalar", "mutant")
    with pytest.raises(ValueError, match="of narrow_scalar, not host_scalar"):
        wrong_fixes.parse("host_scalar:mutant")
    assert wrong_fixes.parse("narrow_scalar:skip-bool") == ("narrow_scalar", "skip-bool")


def _session_of_one_test(tmp_path, body):
    """A pytest session with the plugin and --mutant-timeout=1 of one test running ``body``."""
    (tmp_path / "test_slow.py").write_text(f"import signal, time\ndef test_slow():\n    {body}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "mutants.plugin",
            "--mutant-timeout=1",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_plugin_timeout_ends_the_session_with_its_exit_code(tmp_path):
    """A session past --mutant-timeout exits with TIMEOUT_EXIT and says so."""
    proc = _session_of_one_test(tmp_path, "time.sleep(30)")
    assert proc.returncode == mutants.TIMEOUT_EXIT
    assert "mutant timed out after 1 s" in proc.stderr


def test_plugin_timeout_ends_a_session_the_alarm_cannot_reach(tmp_path):
    """A session spinning where the alarm cannot act ends at its CPU limit, not never."""
    body = "signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])\n    while True: pass"
    assert _session_of_one_test(tmp_path, body).returncode == mutants.CPU_LIMIT_EXIT


def test_bad_input_is_one_line_and_exit_2():
    """Unknown options and fixes, and --ci with a selection, exit 2 with one line."""
    for args in (
        ["--bogus"],
        ["--fix", "nope"],
        ["--ci", "--fix", "host_scalar"],
        ["--sample", "0"],
        ["--journal", "/proc/no-such-folder/journal.jsonl"],
        ["--markdown", "/proc/no-such-folder/table.md"],
    ):
        proc = subprocess.run(
            [sys.executable, "scripts/mutants.py", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 2, args
        assert proc.stderr.startswith("mutants: error: ") and proc.stderr.count("\n") == 1, args


def test_reviewed_table_is_well_formed_and_matches_the_reference_fixes():
    """Every entry names a reference fix's line whose text is the mutation's left side (the
    entries of a retired report, its folder gone, are left alone)."""
    reviewed = mutants.reviewed()
    for mid, entry in present(reviewed, report=lambda mid: mid.split(".py:")[0]).items():
        file, line, operator, k = mid.split(":")
        assert operator and k.isdigit(), mid
        path = ROOT / "bugs" / file.removesuffix(".py") / "reference_fix.py"
        text = path.read_text().splitlines()[int(line) - 1]
        assert entry["mutation"].startswith(text.strip() + " -> "), mid


def test_first_tests_are_the_killers_of_the_reports_wrong_fixes_once_each():
    """The tests run first for a fix's mutants: its wrong fixes' recorded killers, deduplicated."""
    record = {
        "apache/tvm": {
            "a:one": ["t1", "t2"],
            "a:two": ["t2", "t3"],
            "ab:one": ["t9"],
        },
        "apache/tvm-tirx": {"a:one": ["t7"]},
    }
    assert command.first_tests(record, "apache/tvm", "a") == ["t1", "t2", "t3"]
    assert command.first_tests(record, "apache/tvm-tirx", "a") == ["t7"]
    assert command.first_tests(record, "apache/tvm", "b") == []


def test_ci_mode_is_the_seeded_sample_over_every_fix():
    """--ci: every fix, 2 per fix, seed 1, a 120 s timeout unless one is given."""
    args = command.parse_args(["--ci"])
    assert (args.sample, args.seed, args.timeout) == (2, 1, 120.0)
    assert args.keys == list(command.reference_fixes.KNOWN)
    assert command.parse_args(["--ci", "--timeout", "300"]).timeout == 300.0
    assert command.parse_args([]).timeout == command.DEFAULT_TIMEOUT

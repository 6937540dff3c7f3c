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
"""Mutants of a Python file, made by cosmic-ray's operators (run by the mutation tool's own
interpreter: scripts/mutants.py starts it; nothing of this repository is imported here).

    python mutants/generate.py list FILE [FILE ...]        # every mutant of each file
    python mutants/generate.py apply OUT_DIR FILE:OPERATOR:OCCURRENCE ...

``list`` prints one JSON object per mutant: file, operator (cosmic-ray's name, e.g.
core/ReplaceComparisonOperator_Eq_NotEq), occurrence (cosmic-ray's index of the mutation
among the operator's positions in the file), line, ``k`` (the index among the operator's
positions on that line: with file and line it names the mutant across edits elsewhere) and
the original line. ``apply`` makes each named mutant (cosmic-ray's own mutate_code, on the
text: no file is changed) and writes its source to OUT_DIR/<n>.py, printing one JSON object
per mutant with the lines it changed before and after. Every operator that takes no
arguments is used (the two that take arguments need a configuration this tool does not
give). Exit 2 on bad input, with one line on standard error.
"""

import json
import sys
from pathlib import Path

import cosmic_ray.plugins
from cosmic_ray.ast import ast_nodes, get_ast
from cosmic_ray.mutating import mutate_code


def operators():
    """[(name, operator instance)] of cosmic-ray's operators that take no arguments, sorted."""
    found = []
    for name in sorted(cosmic_ray.plugins.operator_names()):
        cls = cosmic_ray.plugins.get_operator(name)
        if not cls.arguments():
            found.append((name, cls()))
    return found


def positions(source):
    """[(operator name, occurrence, line, k)] of every mutant of ``source``."""
    tree = get_ast(source)
    nodes = list(ast_nodes(tree))
    found = []
    for name, op in operators():
        per_line = {}
        occurrence = 0
        for node in nodes:
            for (line, _), _end in op.mutation_positions(node):
                k = per_line.get(line, 0)
                per_line[line] = k + 1
                found.append((name, occurrence, line, k))
                occurrence += 1
    return found


def changed(before, after):
    """(first line, the changed lines before, after) between two sources."""
    old, new = before.splitlines(), after.splitlines()
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    return start + 1, "\n".join(old[start:end_old]), "\n".join(new[start:end_new])


def main(argv):
    if len(argv) < 2 or argv[0] not in ("list", "apply"):
        print(
            "generate: error: usage: list FILE... | apply OUT_DIR FILE:OPERATOR:OCCURRENCE...",
            file=sys.stderr,
        )
        return 2
    if argv[0] == "list":
        for path in argv[1:]:
            source = Path(path).read_text()
            lines = source.splitlines()
            for name, occurrence, line, k in positions(source):
                print(
                    json.dumps(
                        {
                            "file": path,
                            "operator": name,
                            "occurrence": occurrence,
                            "line": line,
                            "k": k,
                            "text": lines[line - 1].strip(),
                        }
                    )
                )
        return 0
    out = Path(argv[1])
    ops = dict(operators())
    for n, spec in enumerate(argv[2:]):
        path, _, rest = spec.partition(":")
        name, _, occurrence = rest.rpartition(":")
        if name not in ops or not occurrence.isdigit():
            print(f"generate: error: bad mutant {spec!r}", file=sys.stderr)
            return 2
        source = Path(path).read_text()
        mutated = mutate_code(source, ops[name], int(occurrence))
        if mutated is None:
            print(f"generate: error: no mutant {spec!r}", file=sys.stderr)
            return 2
        target = out / f"{n}.py"
        target.write_text(mutated)
        line, before, after = changed(source, mutated)
        print(
            json.dumps(
                {
                    "spec": spec,
                    "source": str(target),
                    "line": line,
                    "before": before,
                    "after": after,
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

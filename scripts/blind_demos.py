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
"""Run the blind rounds' demos: does each wrong fix change its program's result?

Per wrong fix, its program runs under the reference fix and under the wrong fix, each in a child
process, and the two results are compared.

    python scripts/blind_demos.py [--bug KEY ...] [--only KEY:NAME ...] [--show] [--list]

The demos are in bugs/<key>/demos.py (apache/tvm) and bugs/<key>/demos_tirx.py (apache/tvm-tirx;
run this command with that line's interpreter, e.g. .venv-tirx/bin/python): harness/blind_demo.py
says what a demo is. Prints one row per demo as it finishes (wrong fix, DIFFERENT or SAME);
``--show`` prints both results too; ``--list`` names the demos without running them.

Exit codes: 0 every demo run differs; 1 a demo gives the same result under both; 2 cannot run
(bad option, an unknown bug or wrong fix, no TVM line importable).
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness import blind_demo  # noqa: E402


def fail(text):
    print(f"blind_demos: error: {text}", file=sys.stderr)
    return 2


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="append", default=[], help="only this bug (repeatable)")
    parser.add_argument(
        "--only", action="append", default=[], help="only this demo, KEY:NAME (repeatable)"
    )
    parser.add_argument("--show", action="store_true", help="print both results of each demo")
    parser.add_argument("--list", action="store_true", help="name the demos, run nothing")
    args = parser.parse_args(argv)
    try:
        from harness.tvm_line import LINE
    except ImportError:
        return fail(f"{sys.executable} imports neither tvm nor tvm_tirx")
    keys = sorted(p.parent.name for p in (ROOT / "bugs").glob("*/reference_fix.py"))
    wanted = [tuple(x.split(":", 1)) for x in args.only]
    for bug in args.bug + [k for k, *_ in wanted]:
        if bug not in keys:
            return fail(f"no bug {bug!r} (bugs with a reference fix: {', '.join(keys)})")
    if any(len(w) != 2 for w in wanted):
        return fail("--only takes KEY:NAME")
    chosen = []
    for key in args.bug or sorted({k for k, _ in wanted}) or keys:
        demos = blind_demo.demos_of(key, LINE)
        names = [n for k, n in wanted if k == key] or ([] if wanted and not args.bug else demos)
        for name in names:
            if name not in demos:
                return fail(f"{key} has no demo {name!r} on {LINE}")
            chosen.append((key, name))
    if args.list:
        for key, name in chosen:
            print(f"{key}:{name}")
        return 0
    same = 0
    width = max((len(f"{k}:{n}") for k, n in chosen), default=10)
    print(f"{'demo'.ljust(width)}  verdict", flush=True)
    for key, name in chosen:
        out = blind_demo.compare(key, name)
        differ = out["ref"] != out["wrong"]
        same += not differ
        print(f"{f'{key}:{name}'.ljust(width)}  {'DIFFERENT' if differ else 'SAME'}", flush=True)
        if args.show:
            print(f"  reference fix: {out['ref']}\n  wrong fix:     {out['wrong']}", flush=True)
    print(f"{len(chosen) - same} of {len(chosen)} demos differ ({LINE})")
    return 1 if same else 0


if __name__ == "__main__":
    sys.exit(main())

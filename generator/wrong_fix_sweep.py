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
"""The campaign's sentinels (generator/sentinels.py) under wrong fixes, each in a fork.

    python -m generator.wrong_fix_sweep --line tvm|tirx --known FILE SPEC [SPEC ...]

SPEC is "REPORT:NAME" (a wrong fix, installed instead of its report's reference fix, the
other reference fixes installed) or "reference" (the reference fixes alone). For each, a fork
of this process (TVM imported once) installs it and judges the sentinels of its report (all
of them for "reference") as the campaign worker does (clause (f)'s round trips only for the
reports whose regressions show there, sentinels.ROUNDTRIP_REPORTS); prints one JSON object
{SPEC: [the classes found that FILE's KNOWN does not accept]}. What ``campaign.py --wrong-fix SPEC``
finds in its sentinels, at a fraction of the cost (tests/tools/test_campaign.py).
"""

import argparse
import functools
import importlib.util
import json
import os
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _campaign():
    spec = importlib.util.spec_from_file_location("campaign", ROOT / "scripts" / "campaign.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _new_classes(line, spec, known, known_reason):
    from generator import program as P
    from generator import sentinels as SN
    from generator import worker as W
    from generator.oracle import Oracle

    wrong = None if spec == "reference" else spec
    installed = W.install_fixes(True, wrong)
    if wrong and wrong.split(":")[0] in installed:
        raise SystemExit(f"{wrong}: its report's reference fix is still installed")
    launchable = P.LAUNCHABLE + (("uint64",) if "uint64_scalar" in installed else ())
    reports = None if wrong is None else {wrong.split(":")[0]}
    roundtrip = reports is None or bool(reports & set(SN.ROUNDTRIP_REPORTS))
    oracle = Oracle(line, roundtrip=roundtrip, launchable=launchable)
    keys = set()
    for _name, _report, case in SN.for_line(line, reports):
        verdict = W._quiet(W._judge_case, oracle, case, line)
        keys |= {key for _, key, _ in verdict.violations}
    return sorted(k for k in keys if known_reason(k, known, line) is None)


def in_forks(items, work, jobs, on_done=None):
    """{item: work(item)} with each call in a fork of its own, ``jobs`` at a time (what the
    parent imported is shared); a call that raises or dies gives {"error": why}. ``on_done``
    is called with (item, result) as each ends."""
    results, running, pending = {}, {}, list(items)
    while pending or running:
        while pending and len(running) < max(1, jobs):
            item = pending.pop(0)
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read)
                try:
                    found = work(item)
                except BaseException as err:
                    found = {"error": f"{type(err).__name__}: {err}"[:300]}
                os.write(write, json.dumps(found).encode())
                os._exit(0)
            os.close(write)
            running[pid] = (item, read)
        pid, status = os.wait()
        item, read = running.pop(pid)
        with os.fdopen(read) as f:
            text = f.read()
        results[item] = json.loads(text) if text else {"error": f"wait status {status}"}
        if on_done is not None:
            on_done(item, results[item])
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--line", choices=("tvm", "tirx"), required=True)
    parser.add_argument("--known", required=True)
    parser.add_argument("specs", nargs="+")
    args = parser.parse_args(argv)
    known = runpy.run_path(args.known)["KNOWN"]
    known_reason = _campaign().known_reason
    # what every fork needs, imported once here
    from generator import oracle  # noqa: F401

    work = functools.partial(_new_classes, args.line, known=known, known_reason=known_reason)
    results = in_forks(args.specs, work, max(1, os.cpu_count() or 1))
    print(json.dumps(results))
    return 0 if all(isinstance(v, list) for v in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())

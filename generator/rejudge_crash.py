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
"""A program a campaign worker died on, judged again alone and minimized (this repository only).

    python -m generator.rejudge_crash --line tvm|tirx --case REPR [--reference-fixes]
                              [--wrong-fix SPEC] [--calls N]

scripts/campaign.py starts this in a fresh process when its worker dies (a signal). Each
judgement runs in a fork of this process (TVM imported once), which reports where it is (the
pass it runs, the round trip of a pass's output, the replay) through a pipe, so a death is
placed: ``<pass>``, ``roundtrip:<pass>``, ``replay`` or ``codegen``. The program is judged
once: if the fork dies, the crash is reproduced alone, and the program is minimized (the
worker's greedy reducer, each candidate in a fork of its own, at most ``--calls``) keeping the
signal and the place. Prints one JSON object: reproduced, signal, where, the minimal program's
text and repr, the forks run.
"""

import argparse
import json
import os
import signal
import sys

from generator import program as P
from generator import relax_cases as RC
from generator import sentinels as SN
from generator import worker as W
from generator.oracle import WRAPPERS, Oracle

CALLS = 30


def _evaluate(text):
    return eval(text, {**vars(P), **vars(RC), **vars(SN)})


class Placed:
    """Runs one judgement in a fork; returns (signal or 0, where it was)."""

    def __init__(self, oracle, line):
        self.oracle, self.line = oracle, line

    def run(self, case):
        died, where, _keys = self.judge(case)
        return died, where

    def judge(self, case):
        """(signal or 0, where it was, the verdict's class keys; none when it died or the
        oracle raised)."""
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the fork: judge, say where it is before each step
            os.close(read)

            def tell(event):
                os.write(write, (event + "\n").encode())

            self.oracle.on_event = tell
            try:
                verdict = W._quiet(W._judge_case, self.oracle, case, self.line)
                tell("V " + json.dumps([key for _clause, key, _message in verdict.violations]))
            except BaseException:
                pass
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as f:
            events = f.read().splitlines()
        _, status = os.waitpid(pid, 0)
        died = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
        keys = [json.loads(e[2:]) for e in events if e.startswith("V ")]
        where = _where([e for e in events if not e.startswith("V ")])
        return died, where, (keys[-1] if keys and not died else [])


def _where(events):
    """The place of the last event: the innermost pass running, a round trip, the replay."""
    stack, phase = [], None
    for event in events:
        kind, _, name = event.partition(" ")
        if kind == "+":
            stack.append(name)
            phase = None
        elif kind == "-":
            if stack:
                stack.pop()
            phase = None
        else:
            phase = f"{kind}:{name}" if name else kind
    running = [n for n in stack if n not in WRAPPERS]
    if phase:
        return phase
    return running[-1] if running else "codegen"


def rerun(line, case, calls=CALLS):
    launchable = P.LAUNCHABLE + (("uint64",) if "uint64_scalar" in _INSTALLED else ())
    placed = Placed(Oracle(line, launchable=launchable), line)
    died, where = placed.run(case)
    result = {"reproduced": bool(died), "signal": died, "where": where, "forks": 1}
    best = case
    if died and isinstance(case, P.Program):
        budget, improved = calls, True
        while improved and budget > 0:
            improved = False
            for cand in W._candidates(best):
                if budget <= 0:
                    break
                if W._size(cand) >= W._size(best):
                    continue
                budget -= 1
                result["forks"] += 1
                if placed.run(cand) == (died, where):
                    best, improved = cand, True
                    break
    text_of = W._text_of(W._kind_of(best), line)
    result.update(text=text_of(best), repr=repr(best))
    return result


_INSTALLED = ()


def main(argv=None):
    global _INSTALLED
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--line", choices=("tvm", "tirx"), required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("--reference-fixes", action="store_true")
    parser.add_argument("--wrong-fix")
    parser.add_argument("--calls", type=int, default=CALLS)
    args = parser.parse_args(argv)
    _INSTALLED = W.install_fixes(args.reference_fixes, args.wrong_fix)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print(json.dumps(rerun(args.line, _evaluate(args.case), args.calls)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

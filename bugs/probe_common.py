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
"""What the one-layer probes of bugs/<key>/probe.py share: a finding row, the command line
(``--check``), one-line errors, and whether a pass changed the module it was given.

A probe imports it with ``bugs/`` on ``sys.path`` (scripts/check_tvm.py puts it there; a probe
run as a script puts its own parent folder there)."""

import sys


def input_change(make_pass, module):
    """None when ``make_pass()(module)`` leaves ``module`` equal to a copy taken before, else
    one line saying how it changed."""
    import tvm

    copy = module.clone()
    names = sorted(g.name_hint for g in module.get_global_vars())
    make_pass()(module)
    try:
        tvm.ir.assert_structural_equal(module, copy)
    except ValueError:
        now = sorted(g.name_hint for g in module.get_global_vars())
        return f"the given module now holds {', '.join(now)} (was {', '.join(names)})"
    return None


def round_trip_error(obj):
    """None when print -> parse gives ``obj`` back, else the first line of the complaint (a
    structural difference, or the parser's DiagnosticError)."""
    import tvm
    import tvm.script

    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(obj.script()))
    except Exception as err:
        return f"{type(err).__name__}: {(str(err).strip().splitlines() or [''])[0]}"
    return None


def finding(bug, layer, status, evidence):
    return {"bug": bug, "layer": layer, "status": status, "evidence": evidence}


def bad_arguments(argv, name, flags=("--check",)):
    """The command-line check every probe makes before any work: None when ``argv`` holds
    only ``flags``; else the exit status, after printing the module's docstring for
    ``--help`` (0) or one line naming the flags it takes (2)."""
    if "-h" in argv or "--help" in argv:
        print((sys.modules["__main__"].__doc__ or name).strip())
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


def main(argv, name, probe):
    """Print ``probe()``'s findings; with ``--check``, 1 when the bug reproduces."""
    import tvm

    argv = sys.argv[1:] if argv is None else argv
    status = bad_arguments(argv, name)
    if status is not None:
        return status
    print("tvm", tvm.__version__)
    findings = probe()
    for f in findings:
        print(f"{f['layer']:<6} {f['status'].upper():<10} {f['evidence']}")
    if "--check" in argv and any(f["status"] == "present" for f in findings):
        return 1
    return 0


def run_main(name, main_func):
    """``main_func()`` as the script's exit status; an error of TVM's: one line, exit 2."""
    try:
        sys.exit(main_func())
    except Exception as err:  # a TVM this script cannot drive: one line, no traceback
        first = (str(err).strip().splitlines() or [""])[0]
        print(f"{name}: error: {type(err).__name__}: {first}", file=sys.stderr)
        sys.exit(2)

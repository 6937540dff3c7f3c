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
"""Tests of scripts/opencl_runtime.py (the OpenCL runtime plugin) and scripts/device_runs.py's
command line (this repository only)."""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "opencl_runtime.py"


def run(*args, env=None, script=SCRIPT):
    proc = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _module():
    """A fresh instance of scripts/opencl_runtime.py (its process state its own)."""
    spec = importlib.util.spec_from_file_location("opencl_runtime_under_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _another_tvm(tmp_path):
    """TVM_LIBRARY_PATH naming a link to this TVM's libtvm_runtime.so (a wheel's or a source
    build's): a TVM no plugin is built for."""
    lib = _module().layout()["libs"][0] / "libtvm_runtime.so"
    (tmp_path / "libtvm_runtime.so").symlink_to(lib)
    return {"TVM_LIBRARY_PATH": str(tmp_path)}


def test_missing_prerequisite_is_one_line_naming_the_packages(tmp_path):
    """Without a compiler nothing is built: exit 3 and one line saying what to install."""
    rc, out, err = run(env={**_another_tvm(tmp_path), "CXX": "no-such-compiler"})
    assert rc == 3, err
    assert out.count("\n") == 1
    assert "no C++ compiler" in out
    assert "apt-get install pocl-opencl-icd ocl-icd-opencl-dev opencl-headers g++" in out


def test_check_says_whether_the_plugin_of_this_tvm_is_built(tmp_path):
    """--check: exit 1 and 'not built' for a TVM without a plugin, never building one."""
    rc, out, _ = run("--check", env=_another_tvm(tmp_path))
    assert rc == 1
    assert out.startswith("opencl runtime: not built: ")
    assert not Path(out.split(": ")[-1].strip()).exists()


def test_bad_arguments_exit_2():
    """Both tools refuse an unknown option with exit 2 and a usage error."""
    for script in (SCRIPT, ROOT / "scripts" / "device_runs.py"):
        rc, out, err = run("--no-such-option", script=script)
        assert rc == 2, script
        assert out == ""
        assert "unrecognized arguments: --no-such-option" in err.strip().splitlines()[-1]


def _appending(line):
    return lambda path, text: text + line


def test_a_runtime_variant_is_a_build_of_its_own():
    """A Variant (a changed src/runtime header: the uint64 fix's runtime) builds into a folder
    of its own, one per change, apart from the plain plugin's."""
    module = _module()
    where = module.layout()
    if where["kind"] != "wheel":
        pytest.skip("a checkout builds its own files: no variants")
    one = module.Variant("v", ["pack_args.h"], _appending("// one\n"))
    two = module.Variant("v", ["pack_args.h"], _appending("// two\n"))
    keys = {module.key(where), module.key(where, one), module.key(where, two)}
    assert len(keys) == 3
    assert module.key(where, one).startswith(module.key(where) + "-v-")


@pytest.mark.parametrize("kind, why", [("wheel", "does not change"), ("checkout", "checkout")])
def test_a_variant_that_changes_nothing_or_a_checkout_is_refused(kind, why):
    """A Variant must change the header it names, and only a wheel takes one: a one-line
    Failed otherwise, before anything is built."""
    module = _module()
    same = module.Variant("same", ["pack_args.h"], lambda path, text: text)
    with pytest.raises(module.Failed, match=why):
        same.texts({**module.layout(), "kind": kind})


def test_select_refuses_another_variant_once_a_plugin_is_loaded():
    """The plugin a process loads stays: selecting another one after it is a Failed."""
    module = _module()
    variant = module.Variant("v", ["pack_args.h"], _appending("//\n"))
    module.select(variant)
    assert module.selected() is variant
    module._loaded["done"] = "the plain plugin"
    with pytest.raises(module.Failed, match="loaded already"):
        module.select(None)


def test_sources_a_variant_links_from_the_plain_build_hold_nothing_of_its_headers():
    """A variant that changes only headers of USED_BY links the plain build's objects of the
    other sources: none of those objects defines or calls a function of such a header."""
    module = _module()
    if (
        module.layout()["kind"] != "wheel"
        or subprocess.run(
            [sys.executable, str(SCRIPT), "--check"], capture_output=True, check=False
        ).returncode
    ):
        pytest.skip("no plain plugin built for this wheel (scripts/setup.sh builds it)")
    objects = module.library_for().parent / "objects"
    for header, users in module.USED_BY.items():
        text = (module.layout()["runtime"] / header).read_text()
        names = set(re.findall(r"^inline [\w:<>, ]+? (\w+)\(", text, re.M))
        assert names, header
        for source in set(module.SOURCES) - set(users):
            symbols = subprocess.run(
                ["nm", "-C", str(objects / f"{source}.o")],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            assert not [n for n in names if re.search(rf"\b{n}\b", symbols)], source

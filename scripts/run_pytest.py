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
"""Run pytest as ``python -m pytest`` does, without the cost TVMScript pays under ``-m``.

    python scripts/run_pytest.py [PYTEST ARGS]   # the arguments and exit codes of pytest

TVMScript's decorators (``T.prim_func``, ``I.ir_module``) call ``inspect.stack()``, which looks
up the module of every frame on the stack. Under ``python -m pytest`` the two bottom frames are
runpy's frozen ones, which belong to no module file, so every lookup for them scans all of
``sys.modules`` (about 2,000 entries once TVM is imported): each parse of a TVMScript function
costs tens of milliseconds more, and this suite about half as much again. Started from this
file, the bottom frame is a file that ``inspect`` caches. The working directory comes first on
``sys.path``, as under ``-m``. Two more such frames are common here: importlib's frozen
bootstrap, under every TVMScript function parsed while pytest imports a test module, and code
that TVMScript's evaluator compiles as ``<ast>``. ``inspect`` caches file -> module name but
not "no module", so each lookup of theirs scans ``sys.modules`` again to find none; they are
entered under a name that no module has, which gives the same answer (None) without the scan.

Once collection ends, the objects that exist then (TVM, the collected modules and their
parsed IR) are moved out of the garbage collector's reach (``gc.freeze()``): they live until
the end of the session anyway, and every collection after that (tvm_tirx's testing plugin
runs one after each test) only scans what the tests make. That halves the tvm-tirx line.
Nothing a test sees changes.
"""

import gc
import inspect
import os
import sys

import pytest

# frames of code that belongs to no module file (see above): getmodule() returns
# sys.modules.get("<no module>"), None, as its scan would
for _pseudo in ("<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>",
                "<ast>"):  # fmt: skip
    inspect.modulesbyfile.setdefault(_pseudo, "<no module>")


class _FreezeCollected:
    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session):
        gc.freeze()


def main(args=None):
    """pytest.main with the collected objects frozen; the exit code of pytest."""
    return pytest.main(args, plugins=[_FreezeCollected()])


if __name__ == "__main__":
    sys.path[0] = os.getcwd()
    raise SystemExit(main())

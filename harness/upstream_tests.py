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
"""The upstream test files of tests/python as modules, for the proof tests that run their
Before/Expected (or the upstream test itself) over the cases the upstream file leaves out.

Their folders (``tirx-transform``, ...) are no packages, so each file is loaded by its path,
once, under a name of its own: pytest's import of the same file as a test module is another
module object, and nothing the proof side runs is collected twice.
"""

import importlib.util
import sys
from pathlib import Path

PYTHON = Path(__file__).resolve().parents[1] / "tests" / "python"


def load(path):
    """The upstream test file ``tests/python/<path>`` as a module."""
    name = "upstream_" + path.removesuffix(".py").replace("/", "_").replace("-", "_")
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, PYTHON / path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]

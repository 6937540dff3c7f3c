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
"""The child processes of a mutant's run (scripts/mutants.py, mutants/plugin.py put this folder
first on PYTHONPATH): wrong_fixes takes <report>:mutant for the mutant of TVM_MUTANT_SOURCE,
then harness/child_site/sitecustomize.py installs what TVM_REFERENCE_FIXES and TVM_WRONG_FIX
name, as in any wrong-fix run."""

import os
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if os.environ.get("TVM_MUTANT_SOURCE"):
    import mutants

    mutants.accept_in_wrong_fixes()
runpy.run_path(str(ROOT / "harness" / "child_site" / "sitecustomize.py"))

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
"""Installs the reference fixes (TVM_REFERENCE_FIXES) or one wrong fix (TVM_WRONG_FIX) in
child processes started by tests run with --reference-fixes / --wrong-fix (the root conftest
puts this folder on PYTHONPATH and sets the variables). Does nothing otherwise."""

import os

_names = [n for n in os.environ.get("TVM_REFERENCE_FIXES", "").split(",") if n]
if _names:
    from harness import reference_fixes

    reference_fixes.install(_names)
if os.environ.get("TVM_WRONG_FIX"):
    from harness import wrong_fixes

    wrong_fixes.install(os.environ["TVM_WRONG_FIX"])

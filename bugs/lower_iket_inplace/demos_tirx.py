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
"""Programs on which LowerIket's reference fix and blind wrong fixes differ, on apache/tvm-tirx
(harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py --bug
lower_iket_inplace), every round's.

demos.py's entries, their programs built on this line (its kernel, IKET enabled by the module
attribute cuda.iket.enabled, any nonzero value, or by a verified run-iket child's environment,
this line's variables), with demos.py's observers; each entry's comment is there. The wrong
fixes that wrong_fixes.toml marks not_on_tvm_tirx are left out here, and round 7's of a
module's global infos (tvm-tirx 0.1.0a4 registers no GlobalInfo that Python can make)."""

from bugs.lower_iket_inplace.demos import DEMOS as ON_APACHE
from bugs.lower_iket_inplace.demos import LOWERED, TWO, kernels
from harness.blind_demo import Demo, without

DEMOS = {
    # round 1
    "blind-enabled-by-attribute-only": Demo(kernels(TWO, child=True), LOWERED),
    **without(
        ON_APACHE,
        "blind3-result-prim-funcs-only",
        "blind4-result-drops-non-primfuncs",
        "blind7-copy-drops-global-infos",
    ),
}

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
"""Programs on which AnnotateEntryFunc's reference fix and blind wrong fixes differ, on
apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py
--bug annotate_entry_func_inplace), every round's.

demos.py's entries, their programs built on this line, with demos.py's observers; each entry's
comment is there. The demos of a module's global infos of rounds 2, 3 and 7 are not here:
tvm-tirx 0.1.0a4 registers no GlobalInfo that Python can make (round 4's shows the empty
list)."""

from bugs.annotate_entry_func_inplace.demos import DEMOS as ON_APACHE
from harness.blind_demo import without

DEMOS = without(
    ON_APACHE,
    "blind2-copy-drops-global-infos",
    "blind3-copy-drops-global-infos",
    "blind7-copy-drops-global-infos",
)

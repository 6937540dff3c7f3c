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
"""Blind round 9: annotate_entry_func_inplace's round-9 demos on apache/tvm-tirx, the
programs of demos_round9.py parsed on this line. blind9-copy-drops-global-infos is not among
them: apache/tvm-tirx has no concrete GlobalInfo (no ``I.vdevice``, no other kind registered),
so a module's global infos are always empty and a copy that drops them loses nothing."""

from bugs.annotate_entry_func_inplace.demos_round9 import demos
from harness.blind_demo import without

DEMOS = without(demos(), "blind9-copy-drops-global-infos")

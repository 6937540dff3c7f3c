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
"""Blind round 4 demos of annotate_entry_func_inplace (apache/tvm-tirx): the programs of
demos_round4.py made of demos_tirx.py's functions, with its observers."""

from bugs.annotate_entry_func_inplace.demos_tirx import private, public
from harness.blind_demo import Demo
from harness.blind_inplace import (
    annotate_entry_func,
    entries,
    input_after,
    module_info,
    module_of,
    output_of,
    vdevice,
)

INPUT = input_after(annotate_entry_func, entries("input"))
INFO = module_info(annotate_entry_func)
ONE = module_of(main=public)
TWO = module_of(main=public, helper=private)

DEMOS = {
    "blind4-several-functions-writes-input": Demo(TWO, INPUT),
    "blind4-single-function-writes-input": Demo(ONE, INPUT),
    "blind4-several-functions-returns-input": Demo(
        TWO, output_of(annotate_entry_func, entries("output"))
    ),
    "blind4-copy-drops-attrs": Demo(module_of({"system_lib_prefix": "lib_"}, main=public), INFO),
    "blind4-copy-drops-global-infos": Demo(module_of(infos=vdevice, main=public), INFO),
    "blind4-copy-only-under-immutable-option": Demo(TWO, INPUT),
}

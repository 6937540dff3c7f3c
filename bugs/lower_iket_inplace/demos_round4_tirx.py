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
"""Blind round 4 demos of lower_iket_inplace (apache/tvm-tirx): the programs of
demos_round4.py made of demos_tirx.py's kernels, with its observers. The line has no function
but PrimFuncs, so blind4-result-drops-non-primfuncs has no demo here. IKET is enabled by the
module attribute ``cuda.iket.enabled`` (any nonzero value) or a verified run-iket child's
environment, as tvm-tirx 0.1.0a4's IketEnabled reads them."""

from bugs.lower_iket_inplace.demos_tirx import in_run_iket_child, kernels
from harness.blind_demo import Demo
from harness.blind_inplace import iket_calls, input_after, lower_iket, output_of


def events(count):
    """The names and marks of ``count`` kernels: ``k<n>`` marking ``e<n>``."""
    return {f"k{k}": f"e{k}" for k in range(count)}


OUTPUT = output_of(lower_iket, iket_calls)
INPUT = input_after(lower_iket, iket_calls)

DEMOS = {
    "blind4-cow-without-map-handle": Demo(kernels(events(5)), OUTPUT),
    "blind4-strip-writes-input": Demo(kernels(events(1)), INPUT),
    "blind4-instrument-writes-input": Demo(kernels(events(1), 1), INPUT),
    # cuda.iket.enabled = 2: the second kernel's event is 2; the wrong fix takes only 1
    "blind4-enabled-only-one": Demo(kernels(events(2), 2), OUTPUT),
    # a run-iket child's environment, no attribute: the second kernel's event is 2; the wrong
    # fix reads the attribute only and instruments each kernel alone
    "blind4-enabled-ignores-child-env": Demo(in_run_iket_child(kernels(events(2))), OUTPUT),
    # enabled: the second kernel's event is 2; the wrong fix instruments each kernel alone
    "blind4-instrument-per-kernel": Demo(kernels(events(2), 1), OUTPUT),
}

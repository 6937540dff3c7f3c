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
"""Blind round 4 demos of lower_iket_inplace (apache/tvm): modules of demos.py's marked CUDA
kernels as SplitHostDevice leaves them (kernel ``k<n>`` marking event ``e<n>``), and what
LowerIket makes of them and of its input."""

from bugs.lower_iket_inplace.demos import in_run_iket_child, kernels, marked_kernel
from harness.blind_demo import Demo
from harness.blind_inplace import iket_calls, input_after, lower_iket, output_of


def events(count):
    """The names and marks of ``count`` kernels: ``k<n>`` marking ``e<n>``."""
    return {f"k{k}": f"e{k}" for k in range(count)}


def with_relax_main():
    """One marked kernel beside a Relax function ``main``."""
    import tvm
    from tvm import relax

    x = relax.Var("x", relax.TensorType([4], "float32"))
    main = relax.Function([x], x)
    return tvm.IRModule({"k0": marked_kernel("e0"), "main": main})


def names(mod):
    """The functions of LowerIket's output."""
    return sorted(gvar.name_hint for gvar in lower_iket()(mod).get_global_vars())


OUTPUT = output_of(lower_iket, iket_calls)
INPUT = input_after(lower_iket, iket_calls)

DEMOS = {
    "blind4-cow-without-map-handle": Demo(kernels(events(5)), OUTPUT),
    "blind4-strip-writes-input": Demo(kernels(events(1)), INPUT),
    "blind4-instrument-writes-input": Demo(kernels(events(1), 1), INPUT),
    "blind4-enabled-only-one": Demo(kernels(events(2), 2), OUTPUT),
    "blind4-enabled-ignores-child-env": Demo(in_run_iket_child(kernels(events(2))), OUTPUT),
    "blind4-instrument-per-kernel": Demo(kernels(events(2), 1), OUTPUT),
    "blind4-result-drops-non-primfuncs": Demo(with_relax_main, names),
}

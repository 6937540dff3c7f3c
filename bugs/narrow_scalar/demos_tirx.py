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
"""Programs on which the narrow kernel scalar's reference fix and blind wrong fixes differ, on
apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py
--bug narrow_scalar), every round's but the third.

demos.py's entries, their programs built in this line's spelling by demos.py's builders; each
entry's comment is there. No OpenCL runtime runs on this line: what is compared is the module
after SplitHostDevice."""

from tvm_tirx.script import tirx as T

from bugs.narrow_scalar.demos import DEMOS as ON_APACHE
from bugs.narrow_scalar.demos import FLOAT_THEN_INT8, ONE_BOOL, SPLIT
from harness.blind_demo import Demo, split_module, targeted, without


@T.ir_module
class ShapeFromScalar:
    """A host function launches a kernel, written as a module function, whose view's shape is
    an int16 scalar n that the kernel also reads (no match_tensor on this line)."""

    @T.function
    def main(A: T.Tensor((8,), "int32"), n: T.int16):
        ShapeFromScalar.kernel(A.data, n)

    @T.function
    def kernel(A_ptr: T.Ptr(T.int32), n: T.int16):
        A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((n,), T.int32)])
        with T.launch_thread("threadIdx.x", 8) as i:
            if i < T.Cast("int32", n):
                A[i] = i


DEMOS = {
    **without(
        ON_APACHE,
        "blind3-bfloat16-kept",
        "blind3-wide-in-body",
        "blind3-symbol-args-from-zero",
        "blind3-split-kernels-only",
        "blind3-integer-rule-first",
        "blind3-every-target",
    ),
    # the entries whose programs are launched or written otherwise on apache/tvm
    "blind2-launch-arg-off-by-one": Demo(FLOAT_THEN_INT8, SPLIT),
    "blind2-entry-after-decls": Demo(
        lambda: targeted(ShapeFromScalar, "llvm", "opencl"), split_module
    ),
    "blind7-bool-kept": Demo(ONE_BOOL, SPLIT),
}

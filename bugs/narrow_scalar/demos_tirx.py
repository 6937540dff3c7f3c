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

demos.py's programs, built in this line's spelling by demos.py's builders; each entry's
comment is there. No OpenCL runtime runs on this line: what is compared is the module after
SplitHostDevice."""

from tvm_tirx.script import tirx as T

from bugs.narrow_scalar.demos import (
    CUDA,
    DOUBLED,
    FIRST_OF_TWO,
    FLOAT8_AND_FLOAT16,
    FLOAT_THEN_INT8,
    MODULE_INT8,
    ONE_BOOL,
    SPLIT,
    TWICE_BY_SYMBOL,
    TWICE_UINT16,
    UNSIGNED_PAIR,
    kernel,
    module_kernel,
    stored,
)
from harness.blind_demo import Demo, split_module, split_or_error, targeted


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
    # round 2
    "blind2-launch-arg-off-by-one": Demo(FLOAT_THEN_INT8, SPLIT),
    "blind2-split-kernels-only": Demo(
        module_kernel("int8", 'T.Cast("int32", x) * 2', host="llvm"), split_module
    ),
    "blind2-webgpu-forgotten": Demo(DOUBLED, split_or_error("webgpu")),
    "blind2-non-cpu-widened": Demo(DOUBLED, split_or_error("ext_dev")),
    "blind2-other-floats-to-float32": Demo(FLOAT8_AND_FLOAT16, split_or_error(CUDA)),
    "blind2-entry-after-decls": Demo(
        lambda: targeted(ShapeFromScalar, "llvm", "opencl"), split_module
    ),
    "blind2-uint-as-int32": Demo(UNSIGNED_PAIR, SPLIT),
    "blind2-caller-target": Demo(TWICE_UINT16, split_module),
    # round 4
    "blind4-bfloat16-kept": Demo(stored("bfloat16"), split_or_error("cuda")),
    "blind4-other-floats-widened": Demo(stored("float8_e4m3fn"), split_or_error("cuda")),
    "blind4-int-widths-8-16": Demo(stored("int4"), SPLIT),
    "blind4-cpu-kernels-widened": Demo(stored("int8"), split_or_error("llvm")),
    "blind4-module-kernels-kept": Demo(module_kernel(**MODULE_INT8), split_module),
    "blind4-symbol-launch-offset": Demo(stored("uint16"), SPLIT),
    "blind4-kernel-uses-wide-param": Demo(
        kernel([("x", "int8")], 'T.Cast("int32", x * T.int8(3))', out="int32"), SPLIT
    ),
    # round 5
    "blind5-unsigned-as-int32": Demo(kernel([("x", "uint16")], "x", out="uint16"), SPLIT),
    "blind5-bool-kept-narrow": Demo(kernel([("x", "bool")], "x", out="bool"), SPLIT),
    "blind5-bfloat16-kept-narrow": Demo(kernel([("x", "bfloat16")], "x", out="bfloat16"), SPLIT),
    "blind5-named-launch-offset-0": Demo(kernel([("x", "int8")], "x", out="int8"), SPLIT),
    "blind5-kernel-keyed-by-name-only": Demo(TWICE_BY_SYMBOL, split_module),
    "blind5-widen-non-cpu-devices": Demo(
        kernel([("x", "int16")], "x", out="int16"), split_or_error("hexagon")
    ),
    "blind5-first-call-site-only": Demo(TWICE_BY_SYMBOL, split_module),
    "blind5-entry-after-decls": Demo(kernel([("x", "int8")], "x", out="int8"), SPLIT),
    # round 6
    "blind6-signed-to-uint32": Demo(stored("int8"), SPLIT),
    "blind6-bool-kept": Demo(stored("bool"), SPLIT),
    "blind6-bfloat16-kept": Demo(stored("bfloat16"), SPLIT),
    "blind6-int16-kept": Demo(stored("int16"), SPLIT),
    "blind6-symbol-call-offset": Demo(stored("float16"), SPLIT),
    "blind6-entry-after-body": Demo(stored("uint8"), SPLIT),
    # round 7
    "blind7-bool-kept": Demo(ONE_BOOL, SPLIT),
    "blind7-float16-as-int": Demo(stored("float16"), SPLIT),
    "blind7-uint-as-int": Demo(stored("uint16"), SPLIT),
    "blind7-threshold-16": Demo(stored("int16"), SPLIT),
    "blind7-wide-substituted": Demo(kernel([("b", "int8")], 'T.Cast("float32", b + b)'), SPLIT),
    "blind7-symbol-offset": Demo(stored("int8"), SPLIT),
    "blind7-first-only": Demo(FIRST_OF_TWO, SPLIT),
    "blind7-module-kernel-missed": Demo(
        module_kernel(**MODULE_INT8, calling_conv=True), split_module
    ),
}

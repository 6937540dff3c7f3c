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
"""Blind round 6 demos of the narrow kernel scalar wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo, split_or_error


def kernel_of(dtype):
    """A kernel storing a host scalar of ``dtype`` (the parameter after the buffer)."""

    def program():
        import tvm
        from tvm.script import tirx as T

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), x: tvm.tirx.Var("x", dtype)):
            tx = T.launch_thread("threadIdx.x", 8)
            A[tx] = T.Cast("float32", x)

        return main

    return program


DEMOS = {
    "blind6-signed-to-uint32": Demo(kernel_of("int8"), split_or_error()),
    "blind6-bool-kept": Demo(kernel_of("bool"), split_or_error()),
    "blind6-bfloat16-kept": Demo(kernel_of("bfloat16"), split_or_error()),
    "blind6-int16-kept": Demo(kernel_of("int16"), split_or_error()),
    "blind6-symbol-call-offset": Demo(kernel_of("float16"), split_or_error()),
    "blind6-entry-after-body": Demo(kernel_of("uint8"), split_or_error()),
}

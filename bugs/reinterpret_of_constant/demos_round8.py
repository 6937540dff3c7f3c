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
"""Blind round 8: programs on which each wrong fix of round 8 and the reference fix of
the reinterpret-of-a-constant report differ; the result compared is the generated source's
statements (OpenCL kernel, or the C host's function), or the build's error."""

import re

from harness.blind_demo import Demo, from_script, message

KERNEL = """
@T.prim_func
def main(A: T.Buffer((1,), "{dtype}")):
    with T.launch_thread("threadIdx.x", 1) as t:
        A[0] = T.reinterpret("{dtype}", {constant})
"""

# the same constant reinterpreted in a branch and after it
BRANCH_AND_AFTER = """
@T.prim_func
def main(A: T.Buffer((2,), "uint32"), n: T.int32):
    with T.launch_thread("threadIdx.x", 1) as t:
        if n > 0:
            A[0] = T.reinterpret("uint32", T.float32(2.0))
        A[1] = T.reinterpret("uint32", T.float32(2.0))
"""

HOST = """
@T.prim_func
def main(A: T.Buffer((1,), "uint32")):
    A[0] = T.reinterpret("uint32", T.float32(2.0))
"""


def statements(source):
    """The lines of ``source`` that take an address or declare a temporary ``v``."""
    lines = [x.strip() for x in source.splitlines()]
    return "\n".join(x for x in lines if "&(" in x or re.search(r"\bv(_\d+)? = ", x))


def kernel_source(func):
    """Observer: the statements of the OpenCL kernel ``func`` compiles to, or the error."""
    import tvm

    try:
        lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
        return statements(lib.mod.imports[0].inspect_source())
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


def host_source(func):
    """Observer: the statements of the C host code ``func`` compiles to, or the error."""
    import tvm

    try:
        lib = tvm.compile(func, target="c")
        return statements(lib.mod.inspect_source())
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


def kernel(dtype, constant):
    return lambda: from_script(KERNEL.format(dtype=dtype, constant=constant))


DEMOS = {
    "blind8-float-only": Demo(kernel("float32", "T.int32(1078530011)"), kernel_source),
    "blind8-int-only": Demo(kernel("uint32", "T.float32(2.0)"), kernel_source),
    "blind8-temp-of-target-type": Demo(kernel("int32", "T.float32(2.0)"), kernel_source),
    "blind8-scalar-target-only": Demo(kernel("uint8x4", "T.int32(16909060)"), kernel_source),
    "blind8-temp-cached": Demo(lambda: from_script(BRANCH_AND_AFTER), kernel_source),
    "blind8-opencl-only": Demo(lambda: from_script(HOST), host_source),
}

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
"""The C target prints an infinity or a NaN constant as inff / nanf / inf / nan: no C value."""

import re
import sys

import tvm
from tvm.script import tirx as T

failed = []
for dtype, value in (("float32", "0.5"), ("float32", "inf"), ("float32", "-inf"),
                     ("float32", "nan"), ("float64", "inf"), ("float64", "nan")):  # fmt: skip

    @T.prim_func
    def main(A: T.Buffer((1,), dtype)):
        A[0] = tvm.tirx.const(float(value), dtype)

    lib = tvm.compile(main, target="c")
    literal = re.search(r"A\[0\] = (.*);", lib.mod.inspect_source()).group(1)
    a = tvm.runtime.empty((1,), dtype)
    try:
        lib(a)  # the system C compiler builds the source at the first call
        got = str(a.numpy()[0])
    except RuntimeError:  # the C compiler refused the source
        got = "does not compile"
    print(f"{dtype} {value}: A[0] = {literal};  -> {got}")
    if got != str(float(value)):
        failed.append(literal)
if failed:
    sys.exit(f"float constants printed as no C value: {', '.join(failed)}")
print("OK: every constant compiles and keeps its value")

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
"""The "c" target leaves fabs, exp2, exp10 and fmod unlowered: T.abs, T.isinf stop codegen."""

import re
import sys

import tvm
from tvm.script import tirx as T

OPS = {"exp": T.exp, "abs": T.abs, "exp2": T.exp2, "exp10": T.exp10,
       "fmod": lambda x: T.fmod(x, x + x)}  # fmt: skip
failed = []
for dtype in ("float32", "float64"):
    ty = getattr(T, dtype)
    for name, op in OPS.items():

        @T.prim_func
        def main(A: T.Buffer((1,), dtype), x: ty):
            A[0] = T.Cast(dtype, op(x))

        a = tvm.runtime.empty((1,), dtype)
        try:
            tvm.compile(main, target="c")(a, -2.5)  # the C compiler builds it at the call
            print(f"{dtype} T.{name}(-2.5): {a.numpy()[0]:.6g}")
        except Exception as err:
            failed.append(f"{dtype} {name}")
            line = re.sub(r'ir\.Op\(.*?name="([\w.]+)".*', r"\1", str(err).strip().splitlines()[0])
            print(f"{dtype} T.{name}: {type(err).__name__}: {line}")
if failed:
    sys.exit(f"not lowered for the c target: {', '.join(failed)}")
print("OK: every intrinsic compiles for the c target")

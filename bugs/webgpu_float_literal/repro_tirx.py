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
"""tvm-tirx: WebGPU prints an infinity or NaN constant as inff / nanf / infh: no WGSL name."""

import re
import sys

import tvm_tirx
from tvm_tirx.script import tirx as T

bad = []
for dtype in ("float32", "float16"):
    for value in ("0.5", "inf", "-inf", "nan"):

        @T.function
        def main(A: T.Tensor((1,), dtype)):
            with T.launch_thread("threadIdx.x", 1):
                A[0] = T.Cast(dtype, tvm_tirx.tirx.const(float(value), dtype))

        try:  # compiles to WGSL source only: no GPU needed
            source = tvm_tirx.tirx.compile(main, target="webgpu").mod.imports[0].inspect_source()
        except (ValueError, TypeError) as err:  # a refusal the user can act on is fine too
            print(f"{dtype} {value}: refused: {err}")
            continue
        literal = re.search(r"A_ptr\[0i\] = (.*);", source).group(1)
        print(f"{dtype} {value}: A_ptr[0i] = {literal};")
        if re.search(r"\b(inf|nan)[fh]?\b|/\s*0", literal):  # WGSL has no inf/nan names
            bad.append(literal)
if bad:
    sys.exit(f"WGSL defines no {', '.join(bad)}: the shader module is rejected")
print("OK: every infinity and NaN constant prints as WGSL that defines it")

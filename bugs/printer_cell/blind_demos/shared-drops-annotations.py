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
"""printer_cell / blind2-shared-drops-annotations: a one-element shared cell with a device_type
annotation; the printed cell lines and print -> parse."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def main(x: T.float32):
        d = T.alloc_buffer((1,), "float32", scope="shared", annotations={"device_type": 2})
        d[0] = x
        T.evaluate(d[0])

    return main


def observe(func):
    import tvm
    import tvm.script

    text = func.script()
    lines = [x.strip() for x in text.splitlines() if x.startswith("    ")]
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
        rt = "print -> parse: identity"
    except Exception as err:  # a structural difference or the parser's error
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        rt = f"print -> parse: {type(err).__name__}: {said[0][:200] if said else ''}"
    return "\n".join([*lines, rt])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "printer_cell", "blind2-shared-drops-annotations"))

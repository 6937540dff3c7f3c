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
"""printer_param_data / blind2-subscripted-kept: the issue's FlattenBuffer form with layout=None:
A_1 = T.decl_buffer((1,), data=A.data, layout=None) read beside A; the printed lines and
print -> parse."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
        A_1 = T.decl_buffer((1,), data=A.data, layout=None)
        C[0] = A_1[0] + A[0]

    return main


def observe(obj):
    import tvm
    import tvm.script

    try:
        text = obj.script()
    except Exception as err:  # the fix's CannotPrint
        return f"script(): {type(err).__name__}: {str(err).splitlines()[0][:200]}"
    lines = [
        x.strip()
        for x in text.splitlines()
        if x.startswith("    ") and not x.strip().startswith("#")
    ]
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text))
        rt = "print -> parse: identity"
    except Exception as err:  # a structural difference or the parser's error
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        rt = f"print -> parse: {type(err).__name__}: {said[0][:200] if said else ''}"
    return "\n".join([*lines, rt])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "printer_param_data", "blind2-subscripted-kept"))

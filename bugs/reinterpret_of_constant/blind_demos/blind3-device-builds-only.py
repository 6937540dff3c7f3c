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
"""Demo program on which the reference fix and blind3-device-builds-only differ.

Valid host function compiled for the "c" target (no kernel): A[0] = reinterpret(uint32, 2.0f),
exported with gcc and run on the CPU. The wrong fix does not wrap target.build.c: the C source
takes the address of a literal and gcc refuses it."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import tvm
from harness.blind_demo import main, message
from tvm.script import tirx as T


def program():
    @T.prim_func
    def f(A: T.Buffer((2,), "uint32")):
        A[0] = T.reinterpret("uint32", T.float32(2.0))
        A[1] = T.uint32(5)

    return f


def observe(func):
    lib = tvm.compile(func, target="c")
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "lib.so")
        try:
            lib.export_library(path)
        except Exception as err:  # gcc refuses the source
            lines = [x for x in str(err).splitlines() if " error: " in x]
            return f"export failed: {(lines or [message(err)])[0].split(' error: ', 1)[-1][:200]}"
        loaded = tvm.runtime.load_module(path)
        a = tvm.runtime.tensor(np.zeros(2, "uint32"), tvm.cpu(0))
        loaded["f"](a)
        return f"values: {a.numpy().tolist()}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "reinterpret_of_constant", "blind3-device-builds-only"))

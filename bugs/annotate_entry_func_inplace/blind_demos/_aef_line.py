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
"""Shared by the annotate_entry_func_inplace blind2 demos: the functions they build, on either
TVM line (apache/tvm: ``import tvm``; apache/tvm-tirx: ``import tvm_tirx``)."""

try:
    import tvm  # noqa: F401
    from tvm.script import tirx as T
except ImportError:
    from tvm_tirx.script import tirx as T


def api():
    """(line, IRModule, PassContext, transform module)."""
    try:
        import tvm
        import tvm.tirx.transform

        return "tvm", tvm.IRModule, tvm.transform.PassContext, tvm.tirx.transform
    except ImportError:
        import tvm_tirx
        import tvm_tirx.tirx.transform

        return (
            "tvm_tirx",
            tvm_tirx.IRModule,
            tvm_tirx.ir.transform.PassContext,
            tvm_tirx.tirx.transform,
        )


def funcs():
    """{name: function}: ``main`` (public), ``helper`` and ``solo`` (private)."""
    line = api()[0]
    if line == "tvm":

        @T.prim_func
        def main(A: T.Buffer((8,), "float32")):
            for i in range(8):
                A[i] = A[i] + T.float32(1)

        @T.prim_func(private=True)
        def helper(B: T.Buffer((4,), "int32")):
            for j in range(4):
                B[j] = j

        @T.prim_func(private=True)
        def solo(C: T.Buffer((2, 3), "float16")):
            for i, j in T.grid(2, 3):
                C[i, j] = C[i, j] * T.float16(2)

    else:

        @T.function
        def main(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = A[i] + T.float32(1)

        @T.function(private=True)
        def helper(B: T.Tensor((4,), "int32")):
            for j in range(4):
                B[j] = j

        @T.function(private=True)
        def solo(C: T.Tensor((2, 3), "float16")):
            for i in range(2):
                for j in range(3):
                    C[i, j] = C[i, j] * T.float16(2)

    return {"main": main, "helper": helper, "solo": solo}


def attrs_of(mod):
    """{function name: its attributes} of ``mod``."""
    return {
        g.name_hint: dict(f.attrs) if f.attrs is not None else {}
        for g, f in sorted(mod.functions.items(), key=lambda kv: kv[0].name_hint)
    }

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
"""What the LowerIket demos share: two private sm_90a kernels marked "a" and "b" (the module
attributes given), on either TVM line, and that line's LowerIket."""

SM90 = {"kind": "cuda", "arch": "sm_90a"}


def two_marked_kernels(attrs):
    """The module of two kernels marked "a" and "b", with module attributes ``attrs`` (or none)."""
    from harness.tvm_line import LINE

    if LINE == "tvm_tirx":
        return _two_marked_kernels_tirx(attrs)
    import tvm
    from tvm.script import tirx as T

    def kernel(tag):
        @T.prim_func(private=True)
        def func(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target(SM90), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark(tag)
            A[tx] = A[tx] + 1

        return func

    return tvm.IRModule({"ka": kernel("a"), "kb": kernel("b")}, attrs=attrs)


def _two_marked_kernels_tirx(attrs):
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((32,), "int32")):  # two kernels, marked "a" and "b"
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a", "host": "llvm"})})
        with T.launch_thread("threadIdx.x", 32):
            T.cuda.iket_mark("a")
        with T.launch_thread("threadIdx.x", 32):
            T.cuda.iket_mark("b")

    mod = tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))
    return mod if attrs is None else type(mod)(mod.functions, attrs=attrs)


def lower_iket():
    """The LowerIket pass of this process's TVM line."""
    from harness.tvm_line import LINE

    if LINE == "tvm":
        from tvm.backend.cuda.transforms import LowerIket
    else:
        from tvm_tirx.backend.cuda.transform import LowerIket
    return LowerIket()


def iket_lines(mod):
    """(function, line) of every line of ``mod`` that mentions iket, by function name."""
    return [
        (gv.name_hint, line.strip())
        for gv, func in sorted(mod.functions.items(), key=lambda x: x[0].name_hint)
        for line in func.script().splitlines()
        if "iket" in line
    ]

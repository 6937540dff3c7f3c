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
"""Round-7 demos of the narrow kernel scalar fix's blind wrong fixes (apache/tvm)."""

import numpy as np

from harness.blind_demo import Demo, compile_and_run, split_module, split_or_error


def _kernel(scalars, body, out="float32"):
    """A PrimFunc writing A (of dtype ``out``) in a threadIdx.x launch, with the scalar
    parameters ``scalars`` ([(name, dtype)])."""

    def make():
        from tvm.script import from_source
        from tvm.script import tirx as T

        params = "".join(f", {n}: T.{d}" for n, d in scalars)
        src = (
            f'@T.prim_func\ndef main(A: T.Buffer((8,), "{out}"){params}):\n'
            '    tx = T.launch_thread("threadIdx.x", 8)\n'
            f"    A[tx] = {body}\n"
        )
        return from_source(src, extra_vars={"T": T})

    return make


def _bool_run(func):
    """On pocl: A[i] = 1 if the bool scalar is true, else 2, with flag = True."""
    return compile_and_run(func, [np.zeros(8, "int32"), True], [0])


# a host main (opencl with an llvm host) calling a module-level kernel function with an int8
def _module_kernel():
    import tvm
    from tvm.script import from_source
    from tvm.script import ir as I
    from tvm.script import tirx as T

    src = (
        "@I.ir_module\nclass Module:\n"
        "    @T.prim_func\n"
        '    def main(A: T.Buffer((8,), "int32"), x: T.int8):\n'
        '        T.func_attr({"global_symbol": "main"})\n'
        "        Module.kern(A.data, x)\n"
        "    @T.prim_func(private=True)\n"
        '    def kern(a: T.handle("int32", "global"), x: T.int8):\n'
        '        T.func_attr({"calling_conv": 2})\n'
        '        A = T.decl_buffer((8,), "int32", data=a)\n'
        '        tx = T.launch_thread("threadIdx.x", 8)\n'
        '        A[tx] = T.Cast("int32", x)\n'
    )
    mod = from_source(src, extra_vars={"I": I, "T": T})
    tgt = tvm.target.Target("opencl", host="llvm")
    return tvm.IRModule(
        {
            g: f.with_attr("target", tgt if g.name_hint == "main" else tvm.target.Target("opencl"))
            for g, f in mod.functions.items()
        }
    )


_SPLIT = split_or_error()

DEMOS = {
    "blind7-bool-kept": Demo(
        _kernel([("flag", "bool")], "T.Select(flag, 1, 2)", out="int32"), _bool_run, opencl=True
    ),
    "blind7-float16-as-int": Demo(_kernel([("h", "float16")], 'T.Cast("float32", h)'), _SPLIT),
    "blind7-uint-as-int": Demo(_kernel([("u", "uint16")], 'T.Cast("float32", u)'), _SPLIT),
    "blind7-threshold-16": Demo(_kernel([("s", "int16")], 'T.Cast("float32", s)'), _SPLIT),
    "blind7-wide-substituted": Demo(_kernel([("b", "int8")], 'T.Cast("float32", b + b)'), _SPLIT),
    "blind7-symbol-offset": Demo(_kernel([("b", "int8")], 'T.Cast("float32", b)'), _SPLIT),
    "blind7-first-only": Demo(
        _kernel([("b", "int8"), ("h", "float16")], 'T.Cast("float32", b) + T.Cast("float32", h)'),
        _SPLIT,
    ),
    "blind7-module-kernel-missed": Demo(_module_kernel, split_module),
}

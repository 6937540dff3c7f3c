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
"""Blind round 5 demos of the uint64 kernel scalar (apache/tvm): each launches a small kernel on
the OpenCL device (pocl) under the runtime the fix (or wrong fix) selects and prints the values
it stored, or the launch's error or signal."""

from harness.blind_demo import Demo


def scalars_stored(dtypes):
    """A kernel of 4 threads storing each scalar argument ``x<k>`` (of ``dtypes[k]``) into its
    own buffer ``O<k>`` of the same type."""
    import tvm
    from tvm.script.ir_builder import IRBuilder
    from tvm.script.ir_builder import tirx as T

    with IRBuilder() as ib:
        with T.prim_func():
            T.func_name("main")
            outs = [T.arg(f"O{k}", T.buffer((4,), d)) for k, d in enumerate(dtypes)]
            xs = [T.arg(f"x{k}", tvm.tirx.Var(f"x{k}", d)) for k, d in enumerate(dtypes)]
            with T.thread_binding(4, thread="threadIdx.x") as i:
                for out, x in zip(outs, xs):
                    T.buffer_store(out, x, [i])
    return ib.get()


def launched(dtypes, values):
    """Observer: compile for opencl (llvm host), launch with ``values`` for the scalars and
    print what each output buffer holds (or the launch's error or signal)."""

    def observe(func):
        import numpy as np

        from harness.blind_demo import compile_and_run
        from harness.reference_fixes import opencl_runtime

        # loaded here, after the child installed the fix: the fix selects the runtime to load
        # (Demo's opencl=True would load the plain one first)
        opencl_runtime().load()

        inputs = [np.zeros(4, d) for d in dtypes] + list(values)
        return compile_and_run(func, inputs, list(range(len(dtypes))))

    return observe


# a uint64 scalar then an int32 one: the 32-bit holder slot after x0 is x1's
U64_THEN_I32 = (("uint64", "int32"), (2**40 + 3, 7))


def u64_then_i32():
    return scalars_stored(U64_THEN_I32[0])


DEMOS = {
    "blind5-u64-truncated-to-uint32": Demo(u64_then_i32, launched(*U64_THEN_I32)),
    "blind5-u64-value-as-address": Demo(u64_then_i32, launched(*U64_THEN_I32)),
    "blind5-u64-address-of-whole-any": Demo(
        lambda: scalars_stored(("uint64",)), launched(("uint64",), (5,))
    ),
    "blind5-u64-replaces-uint32-line": Demo(
        lambda: scalars_stored(("uint32",)), launched(("uint32",), (2**31 + 9,))
    ),
    "blind5-u64-case-in-float-group": Demo(
        lambda: scalars_stored(("uint64", "uint32")),
        launched(("uint64", "uint32"), (2**33 + 2**20, 11)),
    ),
    "blind5-u64-any-other-uint-as-uint32": Demo(
        lambda: scalars_stored(("uint16",)), launched(("uint16",), (513,))
    ),
}

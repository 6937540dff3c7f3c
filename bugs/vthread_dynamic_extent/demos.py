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
"""Programs on which InjectVirtualThread's reference fix and each blind wrong fix differ
(harness/blind_demo.py; run with scripts/blind_demos.py --bug vthread_dynamic_extent)."""

import numpy as np
import tvm_ffi

import tvm
from harness.blind_demo import Demo, run_opencl
from tvm import tirx
from tvm.script import tirx as T


def injected(mod):
    """The module after InjectVirtualThread alone."""
    return tvm.s_tir.transform.InjectVirtualThread()(mod).script()


def injected_unless_disabled(mod):
    """The module after a Sequential of InjectVirtualThread that disables the pass by its name."""
    with tvm.transform.PassContext(disabled_pass=["s_tir.InjectVirtualThread"]):
        mod = tvm.transform.Sequential([tvm.s_tir.transform.InjectVirtualThread()])(mod)
    return mod.script()


def run_at_opt_level_1(func):
    """``func`` compiled for OpenCL under opt_level 1 and run on pocl: its output's values."""
    with tvm.transform.PassContext(opt_level=1):
        lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
    return run_opencl(lib, [np.zeros(8, "float32")], [0])


@T.prim_func
def constant_vthread(A: T.Buffer((8,), "float32")):
    with T.launch_thread("vthread", 2) as vthread:
        threadIdx_x = T.launch_thread("threadIdx.x", 4)
        A[vthread * 4 + threadIdx_x] = T.Cast("float32", vthread * 4 + threadIdx_x)


@T.prim_func
def loaded_extent(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32")):
    with T.launch_thread("vthread", L[0]) as vthread:  # noqa: F841 (the launch binds it)
        threadIdx_x = T.launch_thread("threadIdx.x", 8)
        B[threadIdx_x] = T.float32(1)


@T.prim_func
def parameter_extent(B: T.Buffer((64,), "float32"), n: T.int32):
    with T.launch_thread("vthread", n) as vthread:  # noqa: F841 (the launch binds it)
        threadIdx_x = T.launch_thread("threadIdx.x", 8)
        B[threadIdx_x] = T.float32(1)


@T.prim_func
def expression_extent(B: T.Buffer((64,), "float32"), n: T.int32):
    with T.launch_thread("vthread", n * 2) as vthread:  # noqa: F841 (the launch binds it)
        threadIdx_x = T.launch_thread("threadIdx.x", 8)
        B[threadIdx_x] = T.float32(1)


@T.prim_func
def nested_parameter_extents(B: T.Buffer((64,), "float32"), n: T.int32, m: T.int32):
    with T.launch_thread("vthread", n) as vthread:  # noqa: F841 (the launch binds it)
        with T.launch_thread("vthread", m) as vthread_1:  # noqa: F841 (the launch binds it)
            threadIdx_x = T.launch_thread("threadIdx.x", 8)
            B[threadIdx_x] = T.float32(1)


@T.prim_func
def bound_vthread(A: T.Buffer((8,), "float32")):
    for v in T.thread_binding(2, thread="vthread"):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            A[v * 4 + i] = T.Cast("float32", v * 4 + i)


def as_cthread(func):
    """``func`` with its virtual threads tagged ``cthread`` (no memory sharing)."""

    def retag(attr):
        if attr.attr_key != "virtual_thread":
            return attr
        iv = attr.node
        node = tirx.IterVar(iv.dom, iv.var, iv.iter_type, "cthread")
        return tirx.AttrStmt(node, attr.attr_key, attr.value, attr.body)

    return func.with_body(tvm_ffi.structural_map(func.body, (tirx.AttrStmt, retag)))


def module(**funcs):
    return lambda: tvm.IRModule(funcs)


DEMOS = {
    # the second function's extent is loaded: the wrong fix checks the first only
    "blind3-first-function-only": Demo(module(a=constant_vthread, b=loaded_extent), injected),
    # a valid kernel under opt_level 1: the wrong fix's pass (opt_level 2) is skipped
    "blind3-opt-level-2": Demo(lambda: bound_vthread, run_at_opt_level_1, opencl=True),
    # nested non-constant extents: the C++ visits the body first and names the inner one
    "blind3-pre-order": Demo(module(main=nested_parameter_extents), injected),
    # disabled by the released name: the wrong fix's pass, named otherwise, still runs
    "blind3-unnamed-pass": Demo(module(main=constant_vthread), injected_unless_disabled),
    # an expression of a parameter: the wrong fix refuses a variable or a load only
    "blind3-var-or-load-only": Demo(module(main=expression_extent), injected),
    # a cthread-tagged virtual thread: the wrong fix looks at vthread tags only
    "blind3-vthread-tag-only": Demo(
        lambda: tvm.IRModule({"main": as_cthread(parameter_extent)}), injected
    ),
}

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
"""Blind round 4 demos of the non-constant vthread extent wrong fixes (apache/tvm): the module
InjectVirtualThread returns (its TVMScript), or its error; a crash of the pass shows as the
child's signal."""

import tvm
from harness.blind_demo import Demo, script_of
from tvm.script import tirx as T


def virtual(tag, extent):
    """A function whose body runs under a virtual_thread attribute ``tag`` of extent
    ``extent(n, L)`` (n a scalar parameter, L a buffer)."""

    @T.prim_func
    def main(A: T.Buffer((8,), "int32"), n: T.int32, L: T.Buffer((1,), "int32")):
        vt = T.int32()
        with T.attr(T.iter_var(vt, None, "ThreadIndex", tag), "virtual_thread", extent(n, L)):
            A[0] = 1

    return main


@T.prim_func
def nested(A: T.Buffer((8,), "int32"), n: T.int32, L: T.Buffer((1,), "int32")):
    vo = T.int32()
    vi = T.int32()
    with T.attr(T.iter_var(vo, None, "ThreadIndex", "vthread"), "virtual_thread", n):
        with T.attr(T.iter_var(vi, None, "ThreadIndex", "vthread"), "virtual_thread", L[0] + 1):
            A[0] = 1


@T.prim_func
def int64_constant(A: T.Buffer((8,), "int32")):
    vt = T.int64()
    with T.attr(T.iter_var(vt, None, "ThreadIndex", "vthread"), "virtual_thread", T.int64(2)):
        A[vt] = T.Cast("int32", vt)  # a valid constant extent of type int64


@T.prim_func
def dynamic_launch(A: T.Buffer((8,), "int32"), n: T.int32):
    tx = T.launch_thread("threadIdx.x", n)  # a kernel of n threads: valid
    vt = T.int32()
    with T.attr(T.iter_var(vt, None, "ThreadIndex", "vthread"), "virtual_thread", 2):
        A[vt] = tx


def two_functions():
    """A valid first function (a constant extent), then one of extent n."""
    return tvm.IRModule(
        {"first": virtual("vthread", lambda n, L: 2), "second": virtual("vthread", lambda n, L: n)}
    )


def inject(program):
    mod = program if isinstance(program, tvm.IRModule) else tvm.IRModule({"main": program})
    return script_of(tvm.s_tir.transform.InjectVirtualThread()(mod))


def inject_disabled(program):
    """The pass inside a Sequential with disabled_pass naming it (the pass is skipped)."""
    mod = tvm.IRModule({"main": program})
    seq = tvm.transform.Sequential([tvm.s_tir.transform.InjectVirtualThread()])
    with tvm.transform.PassContext(disabled_pass=["s_tir.InjectVirtualThread"]):
        return script_of(seq(mod))


DEMOS = {
    "blind4-vthread-tags-only": Demo(lambda: virtual("cthread", lambda n, L: n), inject),
    "blind4-check-before-body": Demo(lambda: nested, inject),
    "blind4-first-function-only": Demo(two_functions, inject),
    "blind4-vars-only": Demo(lambda: virtual("vthread", lambda n, L: L[0]), inject),
    "blind4-int32-only": Demo(lambda: int64_constant, inject),
    "blind4-pass-name": Demo(lambda: virtual("vthread", lambda n, L: n), inject_disabled),
    "blind4-thread-extent-too": Demo(lambda: dynamic_launch, inject),
}

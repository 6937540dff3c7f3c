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
"""Shared by the split_host_device_inplace blind2 demos: their modules, on either TVM line
(apache/tvm: a ``T.attr(target, "target", 0)`` device region; apache/tvm-tirx: a
``T.launch_thread`` or ``T.device_scope`` region)."""

try:
    import tvm  # noqa: F401
    from tvm.script import tirx as T

    LINE = "tvm"
except ImportError:
    import tvm_tirx  # noqa: F401
    from tvm_tirx.script import tirx as T

    LINE = "tvm_tirx"


def api():
    """(IRModule, PassContext, Sequential, transform module)."""
    if LINE == "tvm":
        import tvm.tirx.transform

        return tvm.IRModule, tvm.transform.PassContext, tvm.transform.Sequential, tvm.tirx.transform
    import tvm_tirx.tirx.transform

    t = tvm_tirx.ir.transform
    return tvm_tirx.IRModule, t.PassContext, t.Sequential, tvm_tirx.tirx.transform


def _target():
    if LINE == "tvm":
        return T.target("cuda", host="llvm")
    return T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})


def kernel():
    """``main``: one kernel with 8 threads, launched inside ``if n > 0``."""
    tgt = _target()
    if LINE == "tvm":

        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((8,), "float32"), n: T.int32):
            T.func_attr({"target": tgt})
            if n > 0:
                T.attr(T.target("cuda"), "target", 0)
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = A[i] * T.float32(2)

    else:

        @T.function
        def main(A: T.Tensor((8,), "float32"), n: T.int32):
            T.func_attr({"target": tgt})
            if n > 0:
                with T.launch_thread("threadIdx.x", 8) as i:
                    A[i] = A[i] * T.float32(2)

    return main


def other_kernel():
    """``other``: a kernel of 4 threads on an int32 buffer."""
    tgt = _target()
    if LINE == "tvm":

        @T.prim_func(s_tir=True)
        def other(B: T.Buffer((4,), "int32")):
            T.func_attr({"target": tgt})
            T.attr(T.target("cuda"), "target", 0)
            j = T.launch_thread("threadIdx.x", 4)
            B[j] = B[j] * 3

    else:

        @T.function
        def other(B: T.Tensor((4,), "int32")):
            T.func_attr({"target": tgt})
            with T.launch_thread("threadIdx.x", 4) as j:
                B[j] = B[j] * 3

    return other


def no_threads():
    """``main``: a device region without a thread launch (a single-threaded kernel)."""
    tgt = _target()
    if LINE == "tvm":

        @T.prim_func(s_tir=True)
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": tgt})
            T.attr(T.target("cuda"), "target", 0)
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    else:

        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": tgt})
            with T.device_scope():
                for i in range(8):
                    A[i] = A[i] + T.float32(1)

    return main


def host_only():
    """``a_host``: a function of the CPU, no device region."""
    if LINE == "tvm":

        @T.prim_func(s_tir=True)
        def a_host(B: T.Buffer((4,), "int32")):
            T.func_attr({"target": T.target("llvm")})
            for j in range(4):
                B[j] = j

    else:

        @T.function
        def a_host(B: T.Tensor((4,), "int32")):
            T.func_attr({"target": T.target({"kind": "llvm"})})
            for j in range(4):
                B[j] = j

    return a_host


def names(mod):
    return sorted(g.name_hint for g in mod.get_global_vars())


def split_and_compare(mod):
    """The split's functions, the caller's module after it, and whether it is unchanged."""
    import tvm_ffi

    copy = mod.clone()
    after = api()[3].SplitHostDevice()(mod)
    same = "input unchanged" if tvm_ffi.structural_equal(mod, copy) else "input CHANGED"
    return f"after: {names(after)}; input now: {names(mod)}; {same}"

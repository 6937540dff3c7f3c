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
"""Blind round 5 demos of the VerifyMemory report on apache/tvm: tvm.tirx.analysis.verify_memory
(True: legal) of small functions with a target."""

from harness.blind_demo import Demo


def _targeted(func, target, host="llvm"):
    import tvm

    return func.with_attr("target", tvm.target.Target(target, host=host))


def verdict(func):
    """Observer: verify_memory's verdict on ``func``."""
    import tvm

    return f"verify_memory: {tvm.tirx.analysis.verify_memory(func)}"


def host_store_through_views(depth, target="cuda"):
    """The host stores through ``depth`` (1 or 2) chained views of the second parameter ``B``,
    which a kernel then reads: host access to device memory (rejected by the fix)."""
    from tvm.script import tirx as T

    @T.prim_func
    def one(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        B_1 = T.decl_buffer((8,), "float32", data=B.data)
        B_1[0] = T.float32(1)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = B_1[i]

    @T.prim_func
    def two(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        B_1 = T.decl_buffer((8,), "float32", data=B.data)
        B_2 = T.decl_buffer((8,), "float32", data=B_1.data)
        B_2[0] = T.float32(1)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = B_2[i]

    return _targeted(one if depth == 1 else two, target)


def view_at_address():
    """A host view at ``address_of(A[4])`` that only a kernel reads: legal."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), B: T.Buffer((4,), "float32")):
        V = T.decl_buffer((4,), "float32", data=T.address_of(A[4]))
        with T.launch_thread("threadIdx.x", 4) as i:
            B[i] = V[i]

    return _targeted(main, "cuda")


def nested_extent_from_parameter():
    """A kernel whose nested threadIdx.x extent is read from the parameter ``L`` on the host:
    rejected by the fix."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), L: T.Buffer((1,), "int32")):
        with T.launch_thread("blockIdx.x", 1) as _b:
            with T.launch_thread("threadIdx.x", L[0]) as i:
                A[i] = T.float32(0)

    return _targeted(main, "cuda")


def host_cell(scope, annotations):
    """The host stores into its own allocation of ``scope`` with ``annotations``; a kernel
    writes ``A``."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        C = T.alloc_buffer((1,), "float32", scope=scope, annotations=annotations)
        C[0] = T.float32(2)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = T.float32(1)

    return _targeted(main, "cuda")


def device_helper():
    """A private helper of a cuda device (no host, no global_symbol) writing its pointer
    parameter through a view: device code, legal."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func(private=True)
    def helper(a: T.handle("float32", "global")):
        A = T.decl_buffer((8,), "float32", data=a)
        A[0] = T.float32(1)

    return helper.with_attr("target", tvm.target.Target("cuda"))


DEMOS = {
    "blind5-first-param-only": Demo(lambda: host_store_through_views(1), verdict),
    "blind5-address-of-is-access": Demo(view_at_address, verdict),
    "blind5-webgpu-unchecked": Demo(lambda: host_store_through_views(1, "webgpu"), verdict),
    "blind5-outer-extent-only": Demo(nested_extent_from_parameter, verdict),
    "blind5-disable-lower-builtin-ignored": Demo(
        lambda: host_cell("global", {"disable_lower_builtin": 1}), verdict
    ),
    "blind5-alias-one-step": Demo(lambda: host_store_through_views(2), verdict),
    "blind5-device-helpers-checked": Demo(device_helper, verdict),
    "blind5-local-alloc-as-device": Demo(lambda: host_cell("local", {}), verdict),
}

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
"""Round-7 demos of the VerifyMemory alias fix's blind wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo


def _prim(params, text):
    def make():
        from tvm.script import from_source
        from tvm.script import tirx as T

        src = f"@T.prim_func\ndef main({params}):\n" + text
        return from_source(src, extra_vars={"T": T})

    return make


def _verified(target, host="llvm", symbol=True):
    """Observer: VerifyMemory alone on the function for ``target`` (with ``host``): OK or the
    error's first line."""

    def observe(func):
        import tvm
        from harness.blind_demo import message

        tgt = tvm.target.Target(target, host=host) if host else tvm.target.Target(target)
        func = func.with_attr("target", tgt)
        if symbol:
            func = func.with_attr("global_symbol", "main")
        try:
            tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))
        except Exception as err:
            lines = [x for x in str(err).splitlines() if "Variable" in x]
            return f"{type(err).__name__}: {lines or message(err)}"
        return "OK"

    return observe


_BC = 'B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")'
_LAUNCH = '    tx = T.launch_thread("threadIdx.x", 8)\n'

# the host stores into the second parameter through a view of it
_HOST_VIEW_OF_C = _prim(
    _BC,
    '    C1 = T.decl_buffer((8,), "float32", data=C.data)\n'
    "    C1[0] = T.float32(1)\n" + _LAUNCH + "    C[tx] = B[tx]\n",
)
# the host stores through a view at an access_ptr into B
_HOST_VIEW_AT_OFFSET = _prim(
    _BC,
    '    V = T.decl_buffer((4,), "float32", data=T.tvm_access_ptr(T.type_annotation("float32"),'
    " B.data, 4, 4, 2))\n"
    "    V[0] = T.float32(1)\n" + _LAUNCH + "    C[tx] = B[tx]\n",
)
# the host declares a view at address_of(B[4]) that only the kernel reads
_KERNEL_VIEW_AT_ADDRESS = _prim(
    _BC,
    '    V = T.decl_buffer((4,), "float32", data=T.address_of(B[4]))\n'
    + _LAUNCH
    + "    C[tx] = V[tx % 4]\n",
)
# a host scalar cell the host writes and the kernel reads
_HOST_CELL = _prim(
    _BC,
    '    c = T.alloc_buffer((1,), "float32", scope="local")\n'
    "    c[0] = T.float32(1.5)\n" + _LAUNCH + "    C[tx] = B[tx] + c[0]\n",
)
# a global host buffer annotated kDLCPU, written and read on the host
_HOST_ANNOTATED = _prim(
    _BC + ", n: T.int32",
    '    w = T.alloc_buffer((4,), "float32", annotations={"device_type": 1})\n'
    "    w[0] = T.float32(2)\n" + _LAUNCH + '    C[tx] = B[tx] + T.Cast("float32", n)\n',
)
# the nested thread environment's extent reads a parameter buffer L on the host
_NESTED_EXTENT = _prim(
    _BC + ', L: T.Buffer((1,), "int32")',
    '    bx = T.launch_thread("blockIdx.x", 1)\n'
    '    tx = T.launch_thread("threadIdx.x", L[0])\n'
    "    C[tx] = B[tx]\n",
)


DEMOS = {
    "blind7-webgpu-not-gpu": Demo(_HOST_VIEW_OF_C, _verified("webgpu")),
    "blind7-first-param-only": Demo(_HOST_VIEW_OF_C, _verified("cuda")),
    "blind7-offset-not-followed": Demo(_HOST_VIEW_AT_OFFSET, _verified("cuda")),
    "blind7-address-of-access": Demo(_KERNEL_VIEW_AT_ADDRESS, _verified("cuda")),
    "blind7-hostless-entry-skipped": Demo(_HOST_VIEW_OF_C, _verified("opencl", host=None)),
    "blind7-local-alloc-device": Demo(_HOST_CELL, _verified("rocm")),
    "blind7-cpu-annotation-ignored": Demo(_HOST_ANNOTATED, _verified("metal")),
    "blind7-nested-extent-skipped": Demo(_NESTED_EXTENT, _verified("vulkan")),
}

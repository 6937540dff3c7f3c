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
"""Round-7 demos of the VerifyMemory alias fix's blind wrong fixes (apache/tvm-tirx)."""

from harness.blind_demo import Demo


def _prim(params, text):
    def make():
        from tvm_tirx.script import from_source
        from tvm_tirx.script import tirx as T

        src = f"@T.function\ndef main({params}):\n" + text
        return from_source(src, extra_vars={"T": T})

    return make


_KINDS = {"cuda": {"kind": "cuda", "arch": "sm_80"}}


def _verified(target, host="llvm", symbol=True):
    """Observer: VerifyMemory alone on the function for ``target`` (with ``host``): OK or the
    error's lines naming a variable."""

    def observe(func):
        import tvm_tirx

        from harness.blind_demo import message

        kind = _KINDS.get(target, target)
        tgt = tvm_tirx.target.Target(kind, host=host) if host else tvm_tirx.target.Target(kind)
        func = func.with_attr("target", tgt)
        if symbol:
            func = func.with_attr("global_symbol", "main")
        try:
            tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.IRModule({"main": func}))
        except Exception as err:
            said = [x.strip() for x in str(err).splitlines() if "Variable" in x]
            return f"{type(err).__name__}: {said or message(err)}"
        return "OK"

    return observe


_BC = 'B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")'
_LAUNCH = '    with T.launch_thread("threadIdx.x", 8) as tx:\n'
_T8 = 'ty_args=[T.Tensor((8,), "float32")]'
_T4 = 'ty_args=[T.Tensor((4,), "float32")]'

_HOST_VIEW_OF_C = _prim(
    _BC,
    f"    C1 = T.decl_tensor(C.data, {_T8})\n"
    "    C1[0] = T.float32(1)\n" + _LAUNCH + "        C[tx] = B[tx]\n",
)
_HOST_VIEW_AT_OFFSET = _prim(
    _BC,
    f"    V = T.decl_tensor(T.handle_add_byte_offset(B.data, 16), {_T4})\n"
    "    V[0] = T.float32(1)\n" + _LAUNCH + "        C[tx] = B[tx]\n",
)
_KERNEL_VIEW_AT_ADDRESS = _prim(
    _BC,
    f"    V = T.decl_tensor(T.address_of(B[4]), {_T4})\n" + _LAUNCH + "        C[tx] = V[tx % 4]\n",
)
_HOST_CELL = _prim(
    _BC,
    '    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])\n'
    "    c[0] = T.float32(1.5)\n" + _LAUNCH + "        C[tx] = B[tx] + c[0]\n",
)
_HOST_ANNOTATED = _prim(
    _BC + ", n: T.int32",
    '    w = T.alloc_tensor(ty_args=[T.Tensor((4,), "float32")], attrs={"device_type": 1})\n'
    "    w[0] = T.float32(2)\n" + _LAUNCH + '        C[tx] = B[tx] + T.Cast("float32", n)\n',
)
_NESTED_EXTENT = _prim(
    _BC + ', L: T.Tensor((1,), "int32")',
    '    with T.launch_thread("blockIdx.x", 1) as bx:\n'
    '        with T.launch_thread("threadIdx.x", L[0]) as tx:\n'
    "            C[tx] = B[tx]\n",
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

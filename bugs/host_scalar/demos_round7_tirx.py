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
"""Round-7 demos of the host-level scalar fix's blind wrong fixes (apache/tvm-tirx)."""

import re

from harness.blind_demo import Demo, message, split_or_error


def _prim(text, dtype="float32", n=8):
    def make():
        from tvm_tirx.script import from_source
        from tvm_tirx.script import tirx as T

        src = (
            "@T.function\n"
            f'def main(B: T.Tensor(({n},), "{dtype}"), C: T.Tensor(({n},), "{dtype}")):\n' + text
        )
        return from_source(src, extra_vars={"T": T})

    return make


def _local(name, shape, dtype="float32"):
    return f'    {name} = T.alloc_tensor(ty_args=[T.Tensor({shape}, "{dtype}", scope="local")])\n'


_LAUNCH = '    with T.launch_thread("threadIdx.x", 8) as tx:\n'

_ARRAY = _prim(
    _local("x", "(4,)") + "    x[0] = T.float32(1.5)\n" + _LAUNCH + "        C[tx] = B[tx] + x[0]\n"
)
_VECTOR = _prim(
    _local("c", "(1,)", "float32x4")
    + "    c[0] = T.Broadcast(T.float32(1.5), 4)\n"
    + _LAUNCH
    + "        C[tx] = B[tx] + c[0]\n",
    dtype="float32x4",
)
_TWO_D = _prim(
    _local("x", "(1, 4)")
    + "    x[0, 0] = T.float32(1.5)\n"
    + _LAUNCH
    + "        C[tx] = B[tx] + x[0, 0]\n"
)
_VIEW = _prim(
    _local("c", "(1,)")
    + '    v = T.decl_tensor(c.data, ty_args=[T.Tensor((1,), "float32", scope="local")])\n'
    + _LAUNCH
    + "        c[0] = B[tx]\n        C[tx] = c[0]\n"
)
_ADDRESS = _prim(
    _local("c", "(1,)")
    + "    c[0] = T.float32(1.5)\n"
    + _LAUNCH
    + '        C[tx] = T.call_extern("load_it", T.address_of(c[0]), ty=T.float32)\n'
)
_SCALAR = _prim("    c: T.float32 = T.float32(1.5)\n" + _LAUNCH + "        C[tx] = B[tx] + c\n")


def _annotated():
    """A host function (llvm) with a large global tensor annotated device_type 4 (not kDLCPU)."""
    from tvm_tirx.script import from_source
    from tvm_tirx.script import tirx as T

    src = (
        "@T.function\n"
        'def main(B: T.Tensor((2000,), "float32")):\n'
        '    w = T.alloc_tensor(ty_args=[T.Tensor((2000,), "float32")], attrs={"device_type": 4})\n'
        "    for i in range(2000):\n        w[i] = B[i]\n"
        "    for i in range(2000):\n        B[i] = w[i] + T.float32(1)\n"
    )
    return from_source(src, extra_vars={"T": T})


def _lowered_builtin(func):
    """``func`` for llvm after LowerTVMBuiltin alone: its script, or the error."""
    import tvm_tirx

    from harness.blind_demo import on, script_or_error

    return script_or_error(lambda: tvm_tirx.tirx.transform.LowerTVMBuiltin()(on("llvm", func)))


def _workspace_lines(func):
    """The host LLVM IR's workspace calls (device type, device id) of ``func`` compiled for
    cuda (llvm host), or the error."""
    import tvm_tirx

    try:
        target = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"}, host="llvm")
        lib = tvm_tirx.tirx.compile(func, target=target)
    except Exception as err:
        return f"{type(err).__name__}: {message(err)}"
    text = lib.mod.inspect_source("ll")
    calls = re.findall(r"call \w+ %[\w.]+\((i32 [^,]+, i32 [^,]+), i64", text)
    return f"workspace calls {calls}"


_SPLIT = split_or_error()

DEMOS = {
    "blind7-count-unchecked": Demo(_ARRAY, _SPLIT),
    "blind7-lanes-unchecked": Demo(_VECTOR, _SPLIT),
    "blind7-first-extent": Demo(_TWO_D, _SPLIT),
    "blind7-view-is-use": Demo(_VIEW, _SPLIT),
    "blind7-address-of-by-value": Demo(_ADDRESS, _SPLIT),
    "blind7-device-id-kept": Demo(_SCALAR, _workspace_lines),
    "blind7-any-device-type": Demo(_annotated, _lowered_builtin),
}

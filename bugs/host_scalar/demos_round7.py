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
"""Round-7 demos of the host-level scalar fix's blind wrong fixes (apache/tvm)."""

import re

from harness.blind_demo import Demo, split_or_error

_F = 'T.Buffer((8,), "float32")'


def _prim(text, dtype="float32"):
    def make():
        from tvm.script import from_source
        from tvm.script import tirx as T

        src = (
            "@T.prim_func\n"
            f'def main(B: T.Buffer((8,), "{dtype}"), C: T.Buffer((8,), "{dtype}")):\n' + text
        )
        return from_source(src, extra_vars={"T": T})

    return make


_KERNEL = '    for i in T.thread_binding(8, thread="threadIdx.x"):\n'

# a host array; the kernel (a launch_thread region, as SplitHostDevice sees it) reads element 0
_LAUNCH = '    tx = T.launch_thread("threadIdx.x", 8)\n'
_ARRAY = _prim(
    '    x = T.alloc_buffer((4,), "float32", scope="local")\n'
    "    x[0] = T.float32(1.5)\n" + _LAUNCH + "    C[tx] = B[tx] + x[0]\n"
)
# a one-element vector cell; the kernel reads it
_VECTOR = _prim(
    '    c = T.alloc_buffer((1,), "float32x4", scope="local")\n'
    "    c[0] = T.Broadcast(T.float32(1.5), 4)\n" + _KERNEL + "        C[i] = B[i] + c[0]\n",
    dtype="float32x4",
)
# a 2-D host array of shape (1, 4); the kernel reads element (0, 0)
_TWO_D = _prim(
    '    x = T.alloc_buffer((1, 4), "float32", scope="local")\n'
    "    x[0, 0] = T.float32(1.5)\n" + _LAUNCH + "    C[tx] = B[tx] + x[0, 0]\n"
)
# the host only declares a view of c; only the kernel uses c (stores, then loads)
_VIEW = _prim(
    '    c = T.alloc_buffer((1,), "float32", scope="local")\n'
    '    v = T.decl_buffer((1,), "float32", data=c.data, scope="local")\n'
    + _KERNEL
    + "        c[0] = B[i]\n        C[i] = c[0]\n"
)
# the host writes c; the kernel passes its address to a call
_ADDRESS = _prim(
    '    c = T.alloc_buffer((1,), "float32", scope="local")\n'
    "    c[0] = T.float32(1.5)\n"
    + _KERNEL
    + '        C[i] = B[i] + T.call_extern("float32", "load_it", T.address_of(c[0]))\n'
)
# the repro's host scalar
_SCALAR = _prim("    c: T.float32 = T.float32(1.5)\n" + _KERNEL + "        C[i] = B[i] + c\n")


# a host function (llvm) with a large global buffer annotated with a device_type that is not
# kDLCPU
def _annotated():
    from tvm.script import from_source
    from tvm.script import tirx as T

    src = (
        "@T.prim_func\n"
        'def main(B: T.Buffer((2000,), "float32")):\n'
        '    w = T.alloc_buffer((2000,), "float32", annotations={"device_type": 4})\n'
        "    for i in range(2000):\n        w[i] = B[i]\n"
        "    for i in range(2000):\n        B[i] = w[i] + T.float32(1)\n"
    )
    return from_source(src, extra_vars={"T": T})


def _lowered_builtin(func):
    """``func`` for llvm after LowerTVMBuiltin alone: its script, or the error."""
    import tvm
    from harness.blind_demo import on, script_or_error

    return script_or_error(lambda: tvm.tirx.transform.LowerTVMBuiltin()(on("llvm", func)))


def _workspace_lines(func):
    """The host LLVM IR's workspace calls (device type, device id, ...) of ``func`` compiled
    for opencl, or the error."""
    import tvm

    try:
        lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
    except Exception as err:
        return f"{type(err).__name__}: {str(err).strip().splitlines()[-1][:300]}"
    text = lib.mod.inspect_source("ll")
    calls = re.findall(r"call \w+ %[\w.]+\((i32 [^,]+, i32 [^,]+), i64", text)
    allocas = len(re.findall(r"= alloca ", text))
    return f"workspace calls {calls}; allocas {allocas}"


def _compiled(func):
    """The OpenCL kernels' signatures and the host's workspace calls of ``func``, or the
    error."""
    import tvm

    try:
        lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
    except Exception as err:
        from harness.blind_demo import message

        return f"{type(err).__name__}: {message(err)}"
    kernel = lib.mod.imports[0].inspect_source()
    heads = [x.strip() for x in kernel.splitlines() if "__kernel" in x]
    text = lib.mod.inspect_source("ll")
    calls = re.findall(r"call \w+ %[\w.]+\((i32 [^,]+, i32 [^,]+), i64", text)
    return f"kernels {heads}; workspace calls {calls}"


DEMOS = {
    "blind7-count-unchecked": Demo(_ARRAY, split_or_error()),
    "blind7-lanes-unchecked": Demo(_VECTOR, _compiled),
    "blind7-first-extent": Demo(_TWO_D, split_or_error()),
    "blind7-view-is-use": Demo(_VIEW, _compiled),
    "blind7-address-of-by-value": Demo(_ADDRESS, _compiled),
    "blind7-stack-any-scope": Demo(_SCALAR, _workspace_lines),
    "blind7-device-id-kept": Demo(_SCALAR, _workspace_lines),
    "blind7-any-device-type": Demo(_annotated, _lowered_builtin),
}

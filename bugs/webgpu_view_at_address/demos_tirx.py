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
"""Programs on which WebGPU's reference fix for a kernel's view at an address and each blind wrong
fix differ, on apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python
scripts/blind_demos.py --bug webgpu_view_at_address): demos.py's kernels that this line can tell
apart, each a launch region and each view a ``T.decl_tensor``, compiled for webgpu ("compiles" or
the error's kind and line). The scope and error-kind wrong fixes have no demo here (the
NOT_ON_TVM_TIRX of wrong_fixes_round4.py and wrong_fixes_round5.py)."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo, message

AB4 = 'A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")'
AB8 = 'A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")'
# the type of a float32 pointer (a byte offset's result)
FLOAT_PTR = tvm_tirx.ir.PtrType(tvm_tirx.ir.PrimType("float32"))


def kernels(params, *bodies, threads=4):
    """A function ``main(params)`` with one kernel (a launch of ``threads`` threadIdx.x threads
    ``t``) per body (TVMScript statement lines)."""
    text = f"@T.function\ndef main({params}):\n"
    for body in bodies:
        text += f'    with T.launch_thread("threadIdx.x", {threads}) as t:\n'
        text += "".join(f"        {line}\n" for line in body)
    return tvm_tirx.script.from_source(text, extra_vars={"T": T, "FLOAT_PTR": FLOAT_PTR})


def program(params, *bodies, threads=4):
    """A demo's program: ``kernels(params, *bodies, threads=threads)``."""
    return lambda: kernels(params, *bodies, threads=threads)


def view(name, data, shape="(1,)", scope=""):
    """The statement declaring a float32 view ``name`` of ``shape`` over ``data``."""
    scope = f', scope="{scope}"' if scope else ""
    return f'{name} = T.decl_tensor({data}, ty_args=[T.Tensor({shape}, "float32"{scope})])'


def at(name, element):
    """The statement declaring a one-element view ``name`` at ``element``'s address."""
    return view(name, f"T.address_of({element})")


def compiled(func):
    """Observer: tvm_tirx.tirx.compile for webgpu: "compiles", or the error's kind and line."""
    try:
        tvm_tirx.tirx.compile(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


DEMOS = {
    # round 4
    "blind4-var-only": Demo(
        program(
            AB4,
            [
                view("V", "A.data", "(4,)"),
                at("W", "A[t]"),
                "B[t] = V[t] + W[0]",
            ],  # V: valid
        ),
        compiled,
    ),
    "blind4-params-only": Demo(
        program(
            AB4,
            [
                'S = T.alloc_shared((4,), "float32")',
                view("V", "S.data", "(4,)", "shared"),  # valid
                "V[t] = A[t]",
                at("W", "A[t]"),
                "B[t] = S[t] + W[0]",
            ],
        ),
        compiled,
    ),
    "blind4-first-kernel-only": Demo(
        program(AB4, ["B[t] = A[t]"], [at("W", "A[t]"), "B[t] = B[t] + W[0]"]), compiled
    ),
    "blind4-address-of-only": Demo(
        program(
            AB4,
            [
                view("W", "T.ptr_byte_offset(A.data, t * 4, ty=FLOAT_PTR)"),
                "B[t] = W[0]",
            ],
        ),
        compiled,
    ),
    # round 5
    # a view at A[t], declared and read under an if
    "blind5-skips-if-branches": Demo(
        program(
            f"{AB4}, n: T.int32",
            ["if n > t:", f"    {at('V', 'A[t]')}", "    B[t] = V[0]"],
        ),
        compiled,
    ),
    # the first kernel copies, the second reads through a view at A[t]
    "blind5-first-kernel-only": Demo(
        program(AB4, ["B[t] = A[t]"], [at("V", "A[t]"), "B[t] = V[0]"]), compiled
    ),
    # one thread reads A[0] through a view at A[0] (the report's program)
    "blind5-element-zero-is-array": Demo(
        program(
            'A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float32")',
            [at("V", "A[0]"), "B[0] = V[0]"],
            threads=1,
        ),
        compiled,
    ),
    # a view at A[t] declared and never accessed
    "blind5-accessed-views-only": Demo(program(AB4, [at("V", "A[t]"), "B[t] = A[t]"]), compiled),
    # round 6: A and B of eight elements, kernels of one thread, the first at 0, the second at 1
    "blind6-wva-first-kernel-only": Demo(
        program(AB8, ["B[0] = A[0]"], [at("V0", "A[1]"), "B[1 + 4] = V0[0]"], threads=1),
        compiled,
    ),
    "blind6-wva-any-call-names": Demo(
        program(AB8, [at("V0", "A[0]"), "V0[0] = B[0]"], threads=1), compiled
    ),
    "blind6-wva-scope-check-ignored": Demo(
        program(AB8, [at("V0", "A[0 + 2]"), "B[0] = V0[0]"], threads=1), compiled
    ),
    "blind6-wva-last-view": Demo(
        program(
            AB8,
            [at("V0", "A[0]"), at("V1", "A[0 + 4]"), "B[0] = V0[0] + V1[0]"],
            threads=1,
        ),
        compiled,
    ),
    # round 7: A and B of eight elements, a kernel of eight threads
    # a view over A.data
    "blind7-wva-no-buffer-data": Demo(
        program(AB8, [view("V", "A.data", "(8,)"), "B[t] = V[t]"], threads=8), compiled
    ),
    "blind7-wva-null-accepted": Demo(
        program(AB8, [at("V", "A[t]"), "B[t] = V[0] * T.float32(2)"], threads=8),
        compiled,
    ),
    # a view over another view of A
    "blind7-wva-own-data": Demo(
        program(
            AB8,
            [
                view("V", "A.data", "(8,)"),
                view("W", "V.data", "(4, 2)"),
                "B[t] = W[t // 2, t % 2]",
            ],
            threads=8,
        ),
        compiled,
    ),
}

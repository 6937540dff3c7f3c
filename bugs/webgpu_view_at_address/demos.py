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
fix differ, on apache/tvm (harness/blind_demo.py; run with scripts/blind_demos.py --bug
webgpu_view_at_address): each compiles a small function of kernels for webgpu and shows
"compiles" or the error's kind and line."""

import importlib

from harness.blind_demo import Demo, line_package, message
from harness.tvm_line import LINE

# the parameters of most kernels: A and B, ``n`` float32 elements each
AB4 = 'A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")'
AB8 = 'A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")'


def kernels(params, *bodies, threads=4):
    """A function ``main(params)`` with one kernel of ``threads`` threadIdx.x threads ``t`` per
    body (TVMScript statement lines): a thread_binding loop on apache/tvm, a launch region of a
    ``T.Tensor`` function on apache/tvm-tirx (``FLOAT_PTR`` there the type of a float32
    pointer)."""
    package = line_package()
    script = importlib.import_module(f"{package.__name__}.script")
    names = {"T": script.tirx}
    if LINE == "tvm":
        head, launch = (
            "@T.prim_func",
            f'for t in T.thread_binding({threads}, thread="threadIdx.x"):',
        )
    else:
        head, launch = "@T.function", f'with T.launch_thread("threadIdx.x", {threads}) as t:'
        params = params.replace("T.Buffer(", "T.Tensor(")
        names["FLOAT_PTR"] = package.ir.PtrType(package.ir.PrimType("float32"))
    text = f"{head}\ndef main({params}):\n"
    for body in bodies:
        text += f"    {launch}\n" + "".join(f"        {line}\n" for line in body)
    return script.from_source(text, extra_vars=names)


def program(params, *bodies, threads=4):
    """A demo's program: ``kernels(params, *bodies, threads=threads)``."""
    return lambda: kernels(params, *bodies, threads=threads)


def view(name, data, shape="(1,)", scope=""):
    """The statement declaring a float32 view ``name`` of ``shape`` over ``data`` (in
    ``scope``), in this line's spelling."""
    scope = f', scope="{scope}"' if scope else ""
    if LINE == "tvm":
        return f'{name} = T.decl_buffer({shape}, "float32", data={data}{scope})'
    return f'{name} = T.decl_tensor({data}, ty_args=[T.Tensor({shape}, "float32"{scope})])'


def at(name, element, scope=""):
    """The statement declaring a one-element view ``name`` at ``element``'s address."""
    return view(name, f"T.address_of({element})", scope=scope)


def byte_offset(data, offset):
    """A float32 pointer ``offset`` bytes past ``data``, in this line's spelling."""
    ty = '"float32"' if LINE == "tvm" else "ty=FLOAT_PTR"
    return f"T.ptr_byte_offset({data}, {offset}, {ty})"


def shared_allocation(extent=4):
    """The statement allocating a shared float32 buffer S of ``extent`` elements."""
    if LINE == "tvm":
        return f'S = T.alloc_buffer(({extent},), "float32", scope="shared")'
    return f'S = T.alloc_shared(({extent},), "float32")'


def shared(extent=4):
    """The statements of a shared allocation S that holds A[t]."""
    return [shared_allocation(extent), "S[t] = A[t]"]


def compiled(func):
    """Observer: the line's compile for webgpu: "compiles", or the error's kind and line."""
    package = line_package()
    build = package.compile if LINE == "tvm" else package.tirx.compile
    try:
        build(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


# a shared view at a shared allocation's element, read into B
SHARED_AT_SHARED = program(AB4, [*shared(), at("W", "S[t]", "shared"), "B[t] = W[0]"])
# the first kernel copies, the second reads through a view at A[t]
SECOND_KERNEL = program(AB4, ["B[t] = A[t]"], [at("V", "A[t]"), "B[t] = V[0]"])

DEMOS = {
    # round 4
    "blind4-var-only": Demo(
        program(
            AB4,
            [
                view("V", "A.data", "(4,)"),  # valid: names A's storage
                at("W", "A[t]"),
                "B[t] = V[t] + W[0]",
            ],
        ),
        compiled,
    ),
    "blind4-params-only": Demo(
        program(
            AB4,
            [
                shared_allocation(),
                view("V", "S.data", "(4,)", "shared"),  # valid
                "V[t] = A[t]",
                at("W", "A[t]"),
                "B[t] = S[t] + W[0]",
            ],
        ),
        compiled,
    ),
    "blind4-scope-ignored": Demo(SHARED_AT_SHARED, compiled),
    # refused first for its float64
    "blind4-any-refusal": Demo(
        program(
            'A: T.Buffer((4,), "float64"), B: T.Buffer((4,), "float32")',
            [at("W", "B[t]"), 'B[t] = W[0] + T.Cast("float32", A[t])'],
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
                view("W", byte_offset("A.data", "t * 4")),
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
    "blind5-first-kernel-only": Demo(SECOND_KERNEL, compiled),
    "blind5-typeerror-only": Demo(SHARED_AT_SHARED, compiled),
    # the same with a local allocation and view
    "blind5-shared-scope-only": Demo(
        program(
            AB4,
            [
                'S = T.alloc_buffer((4,), "float32", scope="local")',
                "S[t] = A[t]",
                at("V", "S[t]", "local"),
                "B[t] = V[0]",
            ],
        ),
        compiled,
    ),
    # one thread reads A[0] through a view at A[0] (the report's program)
    "blind5-element-zero-is-array": Demo(
        program(
            'A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")',
            [at("V", "A[0]"), "B[0] = V[0]"],
            threads=1,
        ),
        compiled,
    ),
    # an int64 buffer parameter (which WGSL cannot hold) and a view at B[t] written
    "blind5-any-error-converted": Demo(
        program(
            'A: T.Buffer((4,), "int64"), B: T.Buffer((4,), "float32")',
            [at("V", "B[t]"), 'V[0] = T.Cast("float32", A[t])'],
        ),
        compiled,
    ),
    # a view at A[t] declared and never accessed
    "blind5-accessed-views-only": Demo(program(AB4, [at("V", "A[t]"), "B[t] = A[t]"]), compiled),
    # round 6: A and B of eight elements, each kernel of four threads
    "blind6-wva-first-kernel-only": Demo(
        program(AB8, ["B[t] = A[t]"], [at("V0", "A[t]"), "B[t + 4] = V0[0]"]), compiled
    ),
    # a view at the thread's element, written
    "blind6-wva-any-call-names": Demo(program(AB8, [at("V0", "A[t]"), "V0[0] = B[t]"]), compiled),
    "blind6-wva-scope-check-ignored": Demo(
        program(AB8, [*shared(), at("W", "S[t]", "shared"), "B[t] = W[0]"]), compiled
    ),
    # two views at addresses in one kernel, the first one read first
    "blind6-wva-last-view": Demo(
        program(AB8, [at("V0", "A[t]"), at("V1", "A[t + 4]"), "B[t] = V0[0] + V1[0]"]),
        compiled,
    ),
    # a view of a shared allocation (fine), then one at an address
    "blind6-wva-params-only-named": Demo(
        program(
            AB8,
            [
                *shared(),
                'W = T.decl_buffer((4,), "float32", data=S.data, scope="shared")',
                at("V0", "A[t]"),
                "B[t] = W[t] + V0[0]",
            ],
        ),
        compiled,
    ),
    # a view over a pointer a T.let binds to an element's address (compiles), then a view at an
    # address
    "blind6-wva-let-resolved": Demo(
        program(
            AB8,
            [
                'p: T.let[T.handle("float32")] = T.address_of(A[t])',
                'V0 = T.decl_buffer((1,), "float32", data=p)',
                at("V1", "A[t + 4]"),
                "B[t] = V0[0] + V1[0]",
            ],
        ),
        compiled,
    ),
    # round 7: A and B of eight elements, a kernel of eight threads
    # a view over A.data
    "blind7-wva-no-buffer-data": Demo(
        program(
            AB8,
            [view("V", "A.data", "(8,)"), "B[t] = V[t]"],
            threads=8,
        ),
        compiled,
    ),
    "blind7-wva-null-accepted": Demo(
        program(AB8, [at("V", "A[t]"), "B[t] = V[0] * T.float32(2)"], threads=8),
        compiled,
    ),
    # a view over a shared allocation
    "blind7-wva-params-only": Demo(
        program(
            AB8,
            [
                *shared(8),
                'V = T.decl_buffer((8,), "float32", data=S.data, scope="shared")',
                "B[t] = V[t] + T.float32(1)",
            ],
            threads=8,
        ),
        compiled,
    ),
    # a view over another view of A
    "blind7-wva-no-view-of-view": Demo(
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
    "blind7-wva-check-after": Demo(
        program(AB8, [*shared(8), at("V", "S[t]", "shared"), "B[t] = V[0]"], threads=8),
        compiled,
    ),
    # no view: only the parameters' own declarations
    "blind7-wva-own-data": Demo(program(AB8, ["B[t] = A[t] - T.float32(3)"], threads=8), compiled),
}

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
"""Programs on which the host scalar's reference fix and each blind wrong fix differ, on
apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py
--bug host_scalar): demos.py's entries whose programs serve this line as they are (demos.py's
builders write this line's script: T.function, T.Tensor, alloc_tensor, launch_thread), and the
others in the shapes of demos.py's programs, built and observed by demos.py's builders and
observers.

No OpenCL runtime runs on this line, so a program that demos.py launches is compiled here for a
device that needs none (cuda sm_80, or metal) with an llvm host: what is compared is its
kernels' signatures, the host's workspace calls for the cell ``c`` and the kernel launches that
SplitHostDevice leaves in the host function; or the module after one pass, or the error."""

from bugs.host_scalar.demos import (
    A4,
    A8,
    BC4,
    BC8,
    BC24,
    BCD4,
    CELL,
    LARGE_ARRAY,
    SCALAR,
    SET,
    SET_VECTOR,
    SM80,
    VECTOR,
    VIEW,
    buffers,
    cell,
    cell_calls,
    compiled,
    cpu_calls,
    indent,
    launch,
    line_package,
    local,
    lowered,
    module,
    program,
    signatures,
    workspaces,
)
from bugs.host_scalar.demos import DEMOS as ON_APACHE
from harness.blind_demo import Demo, split_module, split_or_error, without


def launches(target):
    """Observer: the function compiled for ``target`` (llvm host): its kernels' signatures, the
    host's workspace calls for ``c``, and the kernel launches SplitHostDevice leaves in the host
    function (recorded by wrapping the line's SplitHostDevice, the fix's wrapper as installed)."""

    def observe(func):
        tvm = line_package()
        transform = tvm.tirx.transform
        original, seen = transform.SplitHostDevice, []

        def split():
            inner = original()

            @tvm.ir.transform.module_pass(opt_level=0, name="blind2.CaptureSplit")
            def capture(mod, _ctx):
                seen.append(inner(mod))
                return seen[-1]

            return capture

        transform.SplitHostDevice = split
        try:
            text = compiled(target, signatures, cell_calls)(func)
        finally:
            transform.SplitHostDevice = original
        calls = [
            line.strip()
            for mod in seen
            for f in mod.functions.values()
            for line in f.script().splitlines()
            if "call_ffi_kernel" in line
        ]
        return "\n".join([text, *calls])

    return observe


def report(n):
    """The report's program: the host binds c = 1.5, an ``n``-thread kernel reads it."""
    params = buffers(f"({n},)", f"({n},)")
    return program(params, SCALAR, *launch(n, "C[i] = B[i] + c", var="i"))


def annotated(elements, device_type):
    """The host function of a cuda launch at LowerTVMBuiltin (inside its device context (2, 0))
    with a "global" float32 allocation of ``elements`` elements annotated ``device_type``, which
    the host fills and hands to an extern function."""
    attrs = f', attrs={{"device_type": {device_type}}}'
    return program(
        "A: T.Ptr(T.float32)",
        'T.func_attr({"target": T.target("llvm"), "global_symbol": "main"})',
        "with T.device_context(2, 0):",
        *indent(
            [
                local("h", f"({elements},)", scope="global", extra=attrs),
                f"for k in range({elements}):",
                "    h[k] = T.float32(1)",
                'T.evaluate(T.call_extern("consume", h.data, ty=T.int32))',
            ]
        ),
    )


CUDA = launches(SM80)
REPORT8 = report(8)

DEMOS = {
    **without(
        ON_APACHE,
        "blind3-launch-value-initial",
        "blind3-host-view-not-host-use",
        "blind3-kernel-view-as-value",
        "blind3-launched-thread-env-only",
        "blind3-array-not-candidate",
        "blind3-any-device-type",
        "blind3-vector-as-value",
        "blind7-stack-any-scope",
    ),
    # round 2
    # the host writes c only through a view of a view: the wrong fix follows views of c alone
    "blind2-views-of-views": Demo(
        program(
            BC4,
            CELL,
            VIEW,
            "p = T.address_of(v[0])",
            local("w", "(1,)", data="p"),
            "w[0] = T.float32(1.5)",
            *launch(4, "C[i] = B[i] + c[0]", var="i"),
        ),
        CUDA,
    ),
    # the host hands c.data to a packed function: the wrong fix counts no bare pointer as a
    # host use
    "blind2-raw-pointer-not-host-use": Demo(
        program(
            BC4,
            CELL,
            'T.evaluate(T.call_packed("blind2.fill", c.data))',
            *launch(4, "C[i] = B[i] + c[0]", var="i"),
        ),
        CUDA,
    ),
    # VALID: a kernel computes c, the host hands c as a tensor to a packed function: the wrong
    # fix takes the tensor for a host use and rejects the program
    "blind2-tensor-is-host-use": Demo(
        program(
            'B: T.Tensor((1,), "float32"), D: T.Tensor((1,), "float32")',
            CELL,
            *launch(1, "c[0] = B[0] * T.float32(2.0)", var="_i"),
            'T.evaluate(T.call_packed("blind2.copy", c, D))',
        ),
        CUDA,
    ),
    # a kernel launched inside a host loop that updates c: the wrong fix rewrites only the host
    # body's top-level kernels
    "blind2-top-level-kernels-only": Demo(
        program(
            BC24,
            "c: T.float32 = T.float32(0.0)",
            "for k in range(2):",
            "    c = c + T.float32(1.5)",
            *indent(launch(4, "C[k, i] = B[i] + c", var="i")),
        ),
        CUDA,
    ),
    # c doubled between two launches: the wrong fix passes the second kernel the initializer
    "blind2-initial-value": Demo(
        program(
            BCD4,
            SCALAR,
            *launch(4, "C[i] = B[i] + c", var="i"),
            "c = c * T.float32(2.0)",
            *launch(4, "D[i] = B[i] + c", var="i"),
        ),
        CUDA,
    ),
    # a one-element float32x4 cell added by a kernel: the wrong fix passes it by value
    "blind2-vector-cell-by-value": Demo(
        program(
            buffers("(2, 4)", "(2, 4)"),
            VECTOR,
            SET_VECTOR,
            *launch(2, "C[i, T.Ramp(0, 1, 4)] = B[i, T.Ramp(0, 1, 4)] + c[0]", var="i"),
        ),
        CUDA,
    ),
    # the report's program for Metal: the wrong fix leaves Metal out and keeps c on the device
    "blind2-no-metal": Demo(REPORT8, launches("metal")),
    # the report's program: the wrong fix frees c on the device it allocated on the CPU
    "blind2-free-not-relocated": Demo(report(4), CUDA),
    # a second kernel stores into c that a first kernel read: the wrong fix looks at the first
    # kernel use only
    "blind2-first-kernel-use-decides": Demo(
        program(
            BCD4,
            SCALAR,
            *launch(4, "C[i] = B[i] + c", var="i"),
            *launch(1, "c = B[0] * T.float32(2.0)", var="_i"),
            *launch(4, "D[i] = B[i] + c", var="i"),
        ),
        CUDA,
    ),
    # round 4
    # c = 1.5 on the host; kernel 1 adds c; the host sets c = c + 1; kernel 2 adds c
    "blind4-launch-value-initial": Demo(
        program(
            BC8,
            CELL,
            SET,
            *launch(8, "C[i] = B[i] + c[0]", var="i"),
            "c[0] = c[0] + T.float32(1)",
            *launch(8, "C[j] = C[j] + c[0]", var="j"),
        ),
        split_or_error(),
    ),
    # the host sets v[1] of a host array and launches a module-function kernel with v[1]
    "blind4-launch-arg-load-is-kernel": Demo(
        module(
            A4,
            [local("v", "(4,)"), "v[1] = T.float32(2.5)", "Mod.kern(A.data, v[1])"],
            "A: T.Ptr(T.float32), x: T.float32",
            [
                "A_t = T.decl_tensor(A, ty_args=[T.Tensor((4,), T.float32)])",
                *launch(4, "A_t[i] = x", var="i"),
            ],
            {"kind": "opencl", "host": "llvm"},
            "opencl",
        ),
        split_module,
    ),
    # a host tensor a user annotated device_type = kDLCUDA (2), which only kDLCPU may be
    "blind4-any-device-type-annotation": Demo(
        program(
            A4,
            local("t", "(4,)", extra=', annotations={"device_type": 2}'),
            "for k in range(4):",
            "    t[k] = A[k]",
            "for k in range(4):",
            "    A[k] = t[k] + T.float32(1)",
        ),
        lowered,
    ),
    # round 5
    "blind5-stack-limit-inclusive": Demo(annotated(256, 1), lowered),
    "blind5-any-device-type": Demo(annotated(2, 2), lowered),
    # a kernel reads c: the host's workspace calls on the CPU
    "blind5-free-keeps-device": Demo(
        cell(*launch(8, "A[i] = c[0]", var="i")), compiled(SM80, cpu_calls)
    ),
    # a kernel hands c's address to an extern function
    "blind5-kernel-address-by-value": Demo(
        cell(
            *launch(8, 'A[i] = T.call_extern("load_at", T.address_of(c[0]), ty=T.float32)', var="i")
        ),
        split_or_error("cuda"),
    ),
    # round 6
    # a view of c declared on the host, not used there
    "blind6-view-decl-host-use": Demo(
        program(
            A8,
            CELL,
            local("V", "(1,)", data="c.data"),
            *launch(1, "V[0] = T.float32(2)"),
            *launch(8, "A[ty] = V[0]", var="ty"),
        ),
        split_or_error(),
    ),
    # a 512-element host array: the host's workspace calls on the CPU
    "blind6-device-id-kept": Demo(LARGE_ARRAY, compiled("opencl", cpu_calls)),
    # round 7: B and C of eight elements
    # a float32x4 cell added to float32x4 tensors by a kernel
    "blind7-lanes-unchecked": Demo(
        program(
            buffers("(8,)", "(8,)", dtype="float32x4"),
            VECTOR,
            SET_VECTOR,
            *launch(8, "C[tx] = B[tx] + c[0]"),
        ),
        split_or_error(),
    ),
    # a view of c declared on the host; a kernel stores into c and reads it back
    "blind7-view-is-use": Demo(
        program(BC8, CELL, VIEW, *launch(8, "c[0] = B[tx]", "C[tx] = c[0]")), split_or_error()
    ),
    # a kernel hands c's address to an extern function
    "blind7-address-of-by-value": Demo(
        program(
            BC8,
            CELL,
            SET,
            *launch(8, 'C[tx] = T.call_extern("load_it", T.address_of(c[0]), ty=T.float32)'),
        ),
        split_or_error(),
    ),
    "blind7-device-id-kept": Demo(REPORT8, compiled(SM80, workspaces)),
    # a 2000-element "global" tensor annotated device_type 4 (not kDLCPU)
    "blind7-any-device-type": Demo(
        program(
            'B: T.Tensor((2000,), "float32")',
            local("w", "(2000,)", scope="global", extra=', attrs={"device_type": 4}'),
            "for i in range(2000):",
            "    w[i] = B[i]",
            "for i in range(2000):",
            "    B[i] = w[i] + T.float32(1)",
        ),
        lowered,
    ),
}

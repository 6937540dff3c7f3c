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
"""Programs on which the narrow kernel scalar's reference fix and each blind wrong fix differ, on
apache/tvm (harness/blind_demo.py; run with scripts/blind_demos.py --bug narrow_scalar), every
round's; demos_tirx.py has apache/tvm-tirx's.

Each program is a kernel that reads scalars narrower than 32 bits from the host: one function
whose thread launch stores an expression of its scalars (``kernel``), or a host function that
launches a kernel written as a module function (``module_kernel``); both are written as
TVMScript text in either line's spelling, so demos_tirx.py builds its programs with them. What
is compared: the module after SplitHostDevice (alone, or as tvm.compile's pipeline leaves it),
the CUDA kernel's source, or a launch's values on pocl (OpenCL, llvm host)."""

import numpy as np

from harness.blind_demo import (
    Demo,
    compile_and_run,
    line_package,
    on,
    script_of,
    split_module,
    split_or_error,
    targeted,
)
from harness.tvm_line import LINE

# this line's TVMScript spelling: a function's decorator, a buffer parameter, a pointer
# parameter of a dtype, a buffer over a pointer
SPELLING = {
    "tvm": {
        "function": "@T.prim_func",
        "buffer": "T.Buffer",
        "pointer": 'T.handle("{dtype}")',
        "view": 'T.decl_buffer(({n},), "{dtype}", data={data})',
    },
    "tvm_tirx": {
        "function": "@T.function",
        "buffer": "T.Tensor",
        "pointer": "T.Ptr(T.{dtype})",
        "view": 'T.decl_tensor({data}, ty_args=[T.Tensor(({n},), "{dtype}")])',
    },
}[LINE]

# ------------------------------------------------------------------------------- programs


def _parse(text):
    """``text`` parsed as this line's TVMScript (``_var(name, dtype)`` annotates a scalar)."""
    pkg = line_package()
    var = pkg.tirx.Var if LINE == "tvm" else pkg.ir.Var
    extra = {"T": pkg.script.tirx, "I": pkg.script.ir, "_var": var}
    return pkg.script.from_source(text, extra_vars=extra)


def kernel(scalars, body, out="float32"):
    """A program: a function whose 8 threads store ``body`` into A (of dtype ``out``), with
    the scalar parameters ``scalars`` ([(name, dtype)]); the thread index is ``tx``."""
    params = "".join(f', {name}: _var("{name}", "{dtype}")' for name, dtype in scalars)

    def make():
        return _parse(
            f"{SPELLING['function']}\n"
            f'def main(A: {SPELLING["buffer"]}((8,), "{out}"){params}):\n'
            '    with T.launch_thread("threadIdx.x", 8) as tx:\n'
            f"        A[tx] = {body}\n"
        )

    return make


def stored(dtype):
    """A program: a kernel storing Cast(float32, x) of a host scalar x of ``dtype``."""
    return kernel([("x", dtype)], 'T.Cast("float32", x)')


def module_kernel(dtype, body, out="int32", host="opencl", device="opencl", **kw):
    """A program: a host function (target ``host``, llvm host) that launches a kernel written
    as a module function (target ``device``) with a scalar ``x`` of ``dtype``; the kernel's 8
    threads store ``body`` into A (of dtype ``out``). ``kw``: ``launches`` (how many, one
    scalar each), ``private``, ``calling_conv`` (2 where set), ``symbol`` (the kernel's global
    symbol)."""
    launches = kw.get("launches", 1)
    names = ["x", "y", "z"][:launches]
    attrs = {}
    if kw.get("calling_conv"):
        attrs["calling_conv"] = 2
    if kw.get("symbol"):
        attrs["global_symbol"] = kw["symbol"]
    pointer = SPELLING["pointer"].format(dtype=out)
    view = SPELLING["view"].format(n=8, dtype=out, data="A_ptr")
    function = SPELLING["function"]
    text = (
        "@I.ir_module\nclass Module:\n"
        f"    {function}\n"
        f'    def main(A: {SPELLING["buffer"]}((8,), "{out}")'
        + "".join(f', {n}: _var("{n}", "{dtype}")' for n in names)
        + "):\n"
        + "".join(f"        Module.kern(A.data, {n})\n" for n in names)
        + f"    {function}{'(private=True)' if kw.get('private') else ''}\n"
        f'    def kern(A_ptr: {pointer}, x: _var("x", "{dtype}")):\n'
        + (f"        T.func_attr({attrs!r})\n" if attrs else "")
        + f"        A = {view}\n"
        '        with T.launch_thread("threadIdx.x", 8) as tx:\n'
        f"            A[tx] = {body}\n"
    )
    if host != "llvm":
        host = {"kind": host, "host": "llvm"}
    return lambda: targeted(_parse(text), host, device)


def shape_from_scalar():
    """A kernel whose buffer's shape is its int16 scalar n, which it also reads."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(a: T.handle, n: T.int16):
        A = T.match_buffer(a, (n,), "int32")
        i = T.launch_thread("threadIdx.x", 8)
        if i < T.Cast("int32", n):
            A[i] = i

    return on({"kind": "opencl", "host": "llvm"}, main)


# ------------------------------------------------------------------------------ observers


def split_verified(mod):
    """Observer: the module after SplitHostDevice alone (without its target attributes), and
    whether it is well-formed."""
    import tvm

    after = tvm.tirx.transform.SplitHostDevice()(mod)
    try:
        tvm.tirx.analysis.verify_well_formed(after)
        verdict = "well-formed"
    except Exception as err:  # the verdict is the result
        verdict = "not well-formed: " + str(err).strip().splitlines()[-1][:200]
    return f"{script_of(after)}\n{verdict}"


def lines(mod, *marks):
    """The lines of ``mod``'s functions that hold one of ``marks``, stripped and sorted."""
    found = []
    for func in mod.functions.values():
        found += [x.strip() for x in func.script().splitlines() if any(m in x for m in marks)]
    return sorted(found)


class _Stop(Exception):
    pass


def split_in_pipeline(target):
    """Observer: compile for ``target`` up to SplitHostDevice (the module as MakePackedAPI
    gets it); its kernels' signatures and entry bindings, and the host's launches."""

    def observe(func):
        import tvm
        from tvm.ir.instrument import pass_instrument

        seen = {}

        @pass_instrument
        class Catch:
            def run_before_pass(self, mod, info):
                if "MakePackedAPI" in info.name and "mod" not in seen:
                    seen["mod"] = mod
                    raise _Stop()

        try:
            with tvm.transform.PassContext(instruments=[Catch()]):
                tvm.compile(func, target=target)
        except Exception:  # the instrument's stop arrives wrapped
            if "mod" not in seen:
                raise
        return lines(seen["mod"], "def ", "call_ffi_kernel", ": T.let[", " = T.Cast(")

    return observe


def split_lines(mod):
    """Observer: the signatures, kernel names and entry bindings after SplitHostDevice."""
    import tvm

    return lines(tvm.tirx.transform.SplitHostDevice()(mod), "def ", "kern", ": T.let[")


def launched(*inputs):
    """Observer: compile for OpenCL, launch on pocl with ``inputs``; the first's values."""
    return lambda program: compile_and_run(program, list(inputs), [0])


def cuda_kernel(func):
    """Observer: the CUDA kernel's source lines (pocl's OpenCL compiler here has no float16
    arithmetic)."""
    import tvm

    source = tvm.compile(func, target="cuda").mod.imports[0].inspect_source()
    body = source[source.index('extern "C" __global__') :]
    return [x.strip() for x in body.splitlines() if x.strip() and not x.startswith("//")]


SPLIT = split_or_error()
CUDA = {"kind": "cuda", "arch": "sm_90"}
DOUBLED = kernel([("x", "int8")], 'T.Cast("int32", x) * 2', out="int32")
UNSIGNED_PAIR = kernel(
    [("x", "uint8"), ("y", "uint16")], 'T.Cast("uint32", x) + T.Cast("uint32", y)', out="uint32"
)
FLOAT8_AND_FLOAT16 = kernel(
    [("x", "float8_e4m3fn"), ("y", "float16")],
    'T.Cast("float8_e4m3fn", T.Cast("float16", x) + y)',
    out="float8_e4m3fn",
)
FLOAT_THEN_INT8 = kernel(
    [("a", "float32"), ("x", "int8")],
    'T.Cast("int32", x) + T.Cast("int32", a * T.float32(10))',
    out="int32",
)
# a module kernel launched with an int8 scalar, stored as it is
MODULE_INT8 = dict(dtype="int8", body='T.Cast("int32", x)', private=True)
# two launches of a module kernel of a uint16 scalar
TWICE_UINT16 = module_kernel("uint16", 'A[tx] + T.Cast("int32", x)', host="llvm", launches=2)
# a module kernel of its own global symbol, launched twice with int8 scalars
TWICE_BY_SYMBOL = module_kernel("int8", "A[tx] + x", out="int8", launches=2, symbol="my_kernel")
ONE_BOOL = kernel([("flag", "bool")], "T.Select(flag, 1, 2)", out="int32")
FIRST_OF_TWO = kernel(
    [("b", "int8"), ("h", "float16")], 'T.Cast("float32", b) + T.Cast("float32", h)'
)

DEMOS = {
    # round 2
    # float32 a then int8 x (kernel parameters A_ptr, a, x), run: the wrong fix casts the
    # argument before x (a: 2.5 -> 2) and passes x as it is
    "blind2-launch-arg-off-by-one": Demo(
        FLOAT_THEN_INT8, launched(np.zeros(8, "int32"), 2.5, -3), opencl=True
    ),
    # an llvm host function launches an OpenCL module function with an int8 scalar: the wrong
    # fix widens only the kernels SplitHostDevice splits out, and leaves this one int8
    "blind2-split-kernels-only": Demo(
        module_kernel("int8", 'T.Cast("int32", x) * 2', host="llvm"), split_module
    ),
    # a WebGPU kernel's int8 scalar: the wrong fix's device-runtime list forgets WebGPU
    "blind2-webgpu-forgotten": Demo(DOUBLED, split_or_error("webgpu")),
    # an ext_dev kernel, called as a function, keeps its int8 parameter: the wrong fix widens
    # every non-CPU kernel
    "blind2-non-cpu-widened": Demo(DOUBLED, split_or_error("ext_dev")),
    # cuda, a float8_e4m3fn and a float16 scalar: the reference widens the float16 one only, the
    # wrong fix the float8 one too
    "blind2-other-floats-to-float32": Demo(FLOAT8_AND_FLOAT16, split_or_error(CUDA)),
    # the buffer's shape is the int16 scalar n: the wrong fix binds n after the declaration
    # that uses it (not well-formed)
    "blind2-entry-after-decls": Demo(shape_from_scalar, split_verified),
    # OpenCL, a uint8 and a uint16 scalar: the reference passes both as uint32, the wrong fix as
    # int32
    "blind2-uint-as-int32": Demo(UNSIGNED_PAIR, SPLIT),
    # two launches of an OpenCL module function from an llvm host function with uint16
    # scalars: the wrong fix decides from the caller's target and casts neither argument
    "blind2-caller-target": Demo(TWICE_UINT16, split_module),
    # round 3
    # cuda sm_80, a float16 and a bfloat16 scalar: the reference widens both to float32, the
    # wrong fix leaves a bfloat16 parameter that no runtime can pass
    "blind3-bfloat16-kept": Demo(
        kernel(
            [("h", "float16"), ("b", "bfloat16")], 'T.Cast("float32", h) + T.Cast("float32", b)'
        ),
        split_in_pipeline({"kind": "cuda", "arch": "sm_80"}),
    ),
    # the float16 h squared (300 * 300 overflows float16), CUDA source: the reference squares in
    # float16 after the entry binding, the wrong fix squares the float32 slot
    "blind3-wide-in-body": Demo(
        kernel([("h", "float16")], 'T.Cast("float32", h * h) + T.Cast("float32", tx)'),
        cuda_kernel,
    ),
    # float32 f then int8 x, run: the wrong fix counts the launch's arguments from zero and
    # casts f, the argument before x, to int32
    "blind3-symbol-args-from-zero": Demo(
        kernel([("f", "float32"), ("x", "int8")], 'f + T.Cast("float32", x)'),
        launched(np.zeros(8, "float32"), 2.5, 3),
        opencl=True,
    ),
    # an OpenCL module function's int8 scalar, run with x = -5: the wrong fix widens only split
    # kernels and the runtime refuses the launch
    "blind3-split-kernels-only": Demo(
        module_kernel("int8", 'T.Cast("int32", x) * (tx + 1)', private=True),
        launched(np.zeros(8, "int32"), -5),
        opencl=True,
    ),
    # cuda, a float16 h: the reference passes h as float32 and narrows it back; the wrong fix
    # applies the integer rule first and passes Cast(int32, h)
    "blind3-integer-rule-first": Demo(
        kernel([("h", "float16")], 'A[tx] * T.Cast("float32", h)'), split_in_pipeline("cuda")
    ),
    # a CUDA function calls an llvm module function that opens a thread environment (a kernel
    # called as a function): the reference keeps its int8 parameter, the wrong fix widens it on
    # every target
    "blind3-every-target": Demo(
        module_kernel(
            "int8", 'T.Cast("int32", x) * (tx + 1)', host="cuda", device="llvm", private=True
        ),
        split_lines,
    ),
    # round 4
    "blind4-bfloat16-kept": Demo(stored("bfloat16"), split_or_error("cuda")),
    "blind4-other-floats-widened": Demo(stored("float8_e4m3fn"), split_or_error("cuda")),
    "blind4-int-widths-8-16": Demo(stored("int4"), SPLIT),
    "blind4-cpu-kernels-widened": Demo(stored("int8"), split_or_error("llvm")),
    "blind4-module-kernels-kept": Demo(module_kernel(**MODULE_INT8), split_module),
    "blind4-symbol-launch-offset": Demo(stored("uint16"), SPLIT),
    "blind4-kernel-uses-wide-param": Demo(
        kernel([("x", "int8")], 'T.Cast("int32", x * T.int8(3))', out="int32"), SPLIT
    ),
    # round 5
    "blind5-unsigned-as-int32": Demo(kernel([("x", "uint16")], "x", out="uint16"), SPLIT),
    "blind5-bool-kept-narrow": Demo(kernel([("x", "bool")], "x", out="bool"), SPLIT),
    "blind5-bfloat16-kept-narrow": Demo(kernel([("x", "bfloat16")], "x", out="bfloat16"), SPLIT),
    "blind5-named-launch-offset-0": Demo(kernel([("x", "int8")], "x", out="int8"), SPLIT),
    "blind5-kernel-keyed-by-name-only": Demo(TWICE_BY_SYMBOL, split_module),
    "blind5-widen-non-cpu-devices": Demo(
        kernel([("x", "int16")], "x", out="int16"), split_or_error("hexagon")
    ),
    "blind5-first-call-site-only": Demo(TWICE_BY_SYMBOL, split_module),
    "blind5-entry-after-decls": Demo(kernel([("x", "int8")], "x", out="int8"), SPLIT),
    # round 6
    "blind6-signed-to-uint32": Demo(stored("int8"), SPLIT),
    "blind6-bool-kept": Demo(stored("bool"), SPLIT),
    "blind6-bfloat16-kept": Demo(stored("bfloat16"), SPLIT),
    "blind6-int16-kept": Demo(stored("int16"), SPLIT),
    "blind6-symbol-call-offset": Demo(stored("float16"), SPLIT),
    "blind6-entry-after-body": Demo(stored("uint8"), SPLIT),
    # round 7
    # on pocl: A[i] = 1 if the bool scalar is true, else 2, with flag = True
    "blind7-bool-kept": Demo(
        ONE_BOOL, lambda func: compile_and_run(func, [np.zeros(8, "int32"), True], [0]), opencl=True
    ),
    "blind7-float16-as-int": Demo(stored("float16"), SPLIT),
    "blind7-uint-as-int": Demo(stored("uint16"), SPLIT),
    "blind7-threshold-16": Demo(stored("int16"), SPLIT),
    "blind7-wide-substituted": Demo(kernel([("b", "int8")], 'T.Cast("float32", b + b)'), SPLIT),
    "blind7-symbol-offset": Demo(stored("int8"), SPLIT),
    "blind7-first-only": Demo(FIRST_OF_TWO, SPLIT),
    "blind7-module-kernel-missed": Demo(
        module_kernel(**MODULE_INT8, calling_conv=True), split_module
    ),
}

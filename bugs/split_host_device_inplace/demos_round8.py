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
"""Blind round 8: programs on which SplitHostDevice's reference fix (the pass on a copy
of its input) and each wrong fix of round 8 (wrong_fixes.toml) differ. The program builders work on
both lines (from_script spells the functions for the line that runs them; the kernel's thread
binding is written in each line's form): demos_round8_tirx.py reuses them. The observed result
is the caller's module after the call, the output, its attributes, and whether two of its
functions share a parameter (ConvertSSA gives each its own)."""

from harness.blind_demo import Demo, from_script, line_package, message, script_of

_KERNEL = {
    "tvm": """
@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    i = T.launch_thread("threadIdx.x", 8)
    A[i] = A[i] + T.float32(1)
""",
    "tvm_tirx": """
@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = A[i] + T.float32(1)
""",
}

_HOST = """
@T.prim_func
def main(B: T.Buffer((4,), "int32")):
    for j in range(4):
        B[j] = j
"""


def _targeted(func):
    tvm = line_package()
    return func.with_attr("target", tvm.target.Target("opencl", host="llvm"))


def kernel():
    """A function with one kernel (opencl, llvm host)."""
    return _targeted(from_script(_KERNEL[line_package().__name__]))


def host_only():
    """A function with no device region."""
    return _targeted(from_script(_HOST))


def module(**functions):
    return line_package().IRModule(functions)


def one_function_twice():
    """One host-only PrimFunc under two GlobalVars (the same variables in both: ConvertSSA gives
    the second fresh ones)."""
    func = host_only()
    return module(a=func, b=func)


def after_split(mod):
    """The caller's module after SplitHostDevice()(mod), the output, its attributes, and the
    output's functions that share their first parameter with another."""
    tvm = line_package()
    before = mod
    try:
        after = tvm.tirx.transform.SplitHostDevice()(mod)
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    funcs = sorted((gv.name_hint, f) for gv, f in after.functions_items())
    shared = [
        (a, b)
        for i, (a, fa) in enumerate(funcs)
        for b, fb in funcs[i + 1 :]
        if fa.params and fb.params and fa.params[0].same_as(fb.params[0])
    ]
    attrs = {} if after.attrs is None else {k: str(v) for k, v in after.attrs.items()}
    return (
        f"input after the call:\n{script_of(before)}\noutput:\n{script_of(after)}\n"
        f"output attrs: {sorted(attrs.items())}\nshared parameters: {shared}"
    )


def demos():
    """The demos (built on the line that runs them)."""
    return {
        "blind8-copy-after-first-write": Demo(lambda: module(main=kernel()), after_split),
        "blind8-functions-only-copy": Demo(
            lambda: module(main=kernel()).with_attr("demo.flag", 7), after_split
        ),
        "blind8-changed-only": Demo(lambda: module(main=kernel(), other=host_only()), after_split),
        "blind8-early-return-no-ssa": Demo(one_function_twice, after_split),
        "blind8-copy-discarded": Demo(lambda: module(main=kernel()), after_split),
        "blind8-single-function-only": Demo(
            lambda: module(main=kernel(), other=host_only()), after_split
        ),
        "blind8-copy-only-when-immutable": Demo(lambda: module(main=kernel()), after_split),
    }


DEMOS = demos()

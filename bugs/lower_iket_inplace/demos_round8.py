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
"""Blind round 8: programs on which LowerIket's reference fix (patches/0010) and each
wrong fix of round 8 (wrong_fixes.toml) differ: modules of private CUDA kernels, each with an IKET
mark, as SplitHostDevice leaves them. The program builders work on both lines (the kernel is
written in each line's spelling, from_script parses it on the line that runs it; the module
attribute that enables IKET is each line's): demos_round8_tirx.py reuses them. The observed
result is the caller's module after the call, the output and its attributes."""

import importlib

from harness.blind_demo import Demo, from_script, line_package, message

_KERNEL = {
    "tvm": """
@T.prim_func(private=True)
def kernel(A: T.Buffer((32,), "int32")):
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
    tx = T.launch_thread("threadIdx.x", 32)
    T.cuda.iket.mark("store")
    A[tx] = A[tx] + 1
""",
    "tvm_tirx": """
@T.prim_func(private=True)
def kernel(A: T.Buffer((32,), "int32")):
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
    with T.launch_thread("threadIdx.x", 32) as tx:
        T.cuda.iket_mark("store")
        A[tx] = A[tx] + 1
""",
}
# the module attribute that enables IKET (IketEnabled), and the pass's Python module
_ENABLED = {"tvm": "tirx.iket.enabled", "tvm_tirx": "cuda.iket.enabled"}
_PASS = {"tvm": "tvm.backend.cuda.transforms", "tvm_tirx": "tvm_tirx.backend.cuda.transform"}


def _line():
    return line_package().__name__


def kernels(count, enabled=False, **attrs):
    """A module of ``count`` marked kernels (kernel_0, ...), IKET enabled or not, with the
    module attributes ``attrs`` too."""
    tvm = line_package()
    mod = tvm.IRModule({f"kernel_{k}": from_script(_KERNEL[_line()]) for k in range(count)})
    if enabled:
        mod = mod.with_attr(_ENABLED[_line()], 1)
    for key, value in attrs.items():
        mod = mod.with_attr(key.replace("_", "."), value)
    return mod


def after_lower_iket(mod):
    """The caller's module after LowerIket()(mod), the output and its attributes."""
    lower_iket = importlib.import_module(_PASS[_line()]).LowerIket
    try:
        after = lower_iket()(mod)
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    attrs = {} if after.attrs is None else {k: str(v) for k, v in after.attrs.items()}
    return (
        f"input after the call:\n{mod.script()}\noutput:\n{after.script()}\n"
        f"output attrs: {sorted(attrs.items())}"
    )


def demos():
    """The demos (built on the line that runs them)."""
    return {
        "blind8-handle-without-cow": Demo(lambda: kernels(2), after_lower_iket),
        "blind8-strip-branch-only": Demo(lambda: kernels(1, enabled=True), after_lower_iket),
        "blind8-instrument-branch-only": Demo(lambda: kernels(1), after_lower_iket),
        "blind8-handle-written": Demo(lambda: kernels(1), after_lower_iket),
        "blind8-instrument-copy-discarded": Demo(
            lambda: kernels(1, enabled=True), after_lower_iket
        ),
        "blind8-functions-only-copy": Demo(lambda: kernels(1, demo_flag=7), after_lower_iket),
        "blind8-copy-per-write": Demo(lambda: kernels(2), after_lower_iket),
    }


DEMOS = demos()

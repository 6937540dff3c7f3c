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
"""Reference fix: LowerIket leaves its input module unchanged and lowers every kernel.

The bug. ``LowerIket`` (``src/backend/cuda/transforms/lower_iket.cc``, ``LowerIketImpl``) has
two branches. Without IKET enabled it strips the annotations function by function, in a loop
over ``module->functions`` that writes each stripped function back with
``module->Update(global_var, function)``; with IKET enabled (the module attribute
``tirx.iket.enabled``, ``cuda.iket.enabled`` on tvm-tirx, or a verified ``run-iket`` child's
environment) it instruments the
kernels it collected with ``module->Update(kernel.global_var, ...)``. ``IRModule::operator->``
never copies: the caller's module changes with the result. And the stripping loop writes the
map it iterates: ``Map::Set`` of an existing key moves the entry to the end of a map of more
than four entries (tvm-ffi's dense map keeps insertion order that way), so the loop ends (or
cycles) after the first function it rewrites. A module with several annotated kernels keeps
the annotations of all but one: ``tvm.compile(..., tir_pipeline="tirx")`` fails in the code
generator ("Unresolved call tirx.cuda.iket_mark"), and an ``IRModule`` of four annotated kernels
built from a dict makes ``LowerIket()(mod)`` not return.

Upstream change (blueprint): iterate over a handle of the function map taken before the loop
(``ffi::Map<GlobalVar, BaseFunc> functions = module->functions;``) and write through
``module.CopyOnWrite()->Update(...)`` in both branches: the first write copies the module
when the caller still holds it, and the map whenever the loop's handle shares it.

``install()`` wraps the pass's constructor in the FFI registry (the Python ``LowerIket()`` of
either line looks it up at each call). The wrapper decides the branch as ``IketEnabled``
does, from the module's attribute and the environment: with IKET enabled it runs the pass on a
copy of its input (harness/input_copy.py); without, on each PrimFunc alone in a
module of its own (the same function, module attributes and global infos), whose map has one
entry that a write cannot move, and writes the results into a copy of the input. Both lines
(apache/tvm 0.27 and main, apache/tvm-tirx 0.1.0a4) have the same pass.
"""

import os
import sys

from harness import input_copy as _input_copy
from harness.tvm_line import LINE, ir

# the pass constructor's global function on each line
GLOBAL = {
    "tvm": "tirx.backend.cuda.transforms.LowerIket",
    "tvm_tirx": "tirx.backend.cuda.transform.LowerIket",
}
# IketEnabled on each line: a nonzero module attribute, or the environment of a verified run-iket
# child: each variable the value named (None: any non-empty value; a tuple of names: one of them)
ENABLED_ATTR = {"tvm": "tirx.iket.enabled", "tvm_tirx": "cuda.iket.enabled"}[LINE]
CHILD_ENV = {
    "tvm": {
        "TVM_IKET_INJECTED_CHILD_ENABLE": "1",
        "TVM_IKET_OFFICIAL_PROFILE": "cutlass-4.6.0",
        "CUDA_INJECTION64_PATH": None,
        "SMODEL_INJECTION_CONFIG": None,
    },
    "tvm_tirx": {
        "TVM_TIRX_IKET_INJECTED_CHILD_ENABLE": "1",
        "CUDA_INJECTION64_PATH": None,
        ("IKET_INJECTION_CONFIG", "SMODEL_INJECTION_CONFIG"): None,
    },
}[LINE]


def child_env():
    """Whether this process is a verified run-iket child (CHILD_ENV holds)."""
    for names, want in CHILD_ENV.items():
        values = [os.environ.get(n, "") for n in (names if isinstance(names, tuple) else (names,))]
        if not any(v and (want is None or v == want) for v in values):
            return False
    return True


def enabled(mod):
    """Whether LowerIket instruments ``mod`` (IketEnabled): a nonzero ENABLED_ATTR module
    attribute, or the environment of a verified run-iket child."""
    flag = mod.attrs.get(ENABLED_ATTR) if mod.attrs is not None else None
    if flag is not None and int(flag) != 0:
        return True
    return child_env()


def alone(inner, mod, gvar, func):
    """The pass ``inner`` on ``func`` alone, in a module of the same attributes and global
    infos (on a copy of that module, as ``_input_copy.run`` runs it): the function it returns."""
    one = type(mod)({gvar: func}, attrs=mod.attrs, global_infos=mod.global_infos)
    return _input_copy.run(inner, one)[gvar]


def run(inner, mod):
    """The pass ``inner`` as the C++ fix runs it: ``mod`` unchanged, every function lowered."""
    if enabled(mod):
        return _input_copy.run(inner, mod)
    result = mod.clone()
    for gvar, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            lowered = alone(inner, mod, gvar, func)
            if not lowered.same_as(func):
                result.update_func(gvar, lowered)
    return result


def install():
    """Make ``LowerIket()`` leave its input unchanged; return the undo function."""
    return _input_copy.install_on_global(GLOBAL[LINE], sys.modules[__name__], "LowerIket")

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
"""The codegen_missing_dtype rule swept over dtypes, lanes and targets (this repository only).

Every type a WebGPU or Metal kernel's buffer holds (element type x lanes), and every type of a
WebGPU kernel's scalar argument: the ones the target lacks are refused with a ValueError that
names the target and the type; the ones it has compile, fixed or not (no valid program is
newly rejected). Which types a target lacks is stated here as a table, independently of the
reference fix's own predicates.
"""

import os
import sys
from pathlib import Path

import pytest

import tvm
from tvm.script import tirx as T

if str(Path(__file__).resolve().parents[3]) not in sys.path:  # `python FILE` from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

BUG = pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="WebGPU and Metal refuse a dtype the target lacks with an internal error",
)

ELEMENTS = ("int8", "int16", "int32", "int64", "uint8", "uint32", "uint64", "float16")
ELEMENTS += ("float32", "float64")
LANES = (1, 2, 3, 4, 8, 16)


def lacks(target, element, lanes):
    """Whether ``target`` has no type ``element`` x ``lanes`` (WGSL: no 64-bit scalars, vectors
    of 2 to 4 lanes; Metal: no float64, vectors of 2 to 4 lanes)."""
    if lanes not in (1, 2, 3, 4):
        return True
    if target == "webgpu":
        return element.endswith("64")
    return element == "float64"


def kernel(element, lanes, scalar="int32"):
    dtype = element if lanes == 1 else f"{element}x{lanes}"

    def value(n):
        return T.Broadcast(T.Cast(element, n), lanes) if lanes > 1 else T.Cast(element, n)

    @T.prim_func
    def main(A: T.Buffer((1,), dtype), n: getattr(T, scalar)):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = value(n)

    return main


def _cases(missing):
    cases = []
    for target in ("webgpu", "metal"):
        for element in ELEMENTS:
            for lanes in LANES:
                if lacks(target, element, lanes) == missing:
                    marks = [BUG] if missing else []
                    cases.append(pytest.param(target, element, lanes, marks=marks))
    return cases


@pytest.mark.parametrize("target, element, lanes", _cases(missing=True))
def test_type_the_target_lacks_is_a_value_error_naming_it(target, element, lanes):
    dtype = element if lanes == 1 else f"{element}x{lanes}"
    named = rf"the {target} target cannot represent the type {dtype}\b"
    with pytest.raises(ValueError, match=named):
        tvm.compile(kernel(element, lanes), target=target)


@pytest.mark.parametrize("target, element, lanes", _cases(missing=False))
def test_type_the_target_has_compiles(target, element, lanes):
    tvm.compile(kernel(element, lanes), target=target)


def _narrow_scalars_widened():
    """Whether narrow_scalar's fix (patch 0004) is installed: it passes an int8, int16 or
    float16 kernel argument as 32 bits, so WebGPU never sees one."""
    fixes = os.environ.get("TVM_REFERENCE_FIXES", "").split(",")
    return "narrow_scalar" in fixes or os.environ.get("TVM_WRONG_FIX", "").startswith(
        "narrow_scalar:"
    )


NARROW = pytest.mark.skipif(
    _narrow_scalars_widened(), reason="narrow_scalar's fix widens the argument to 32 bits"
)


@BUG
@pytest.mark.parametrize(
    "scalar",
    [pytest.param(s, marks=NARROW) for s in ("int8", "int16", "float16")] + ["uint64", "float64"],
)
def test_webgpu_kernel_argument_it_cannot_pass_is_a_value_error(scalar):
    """Without patch 0004 a narrow kernel argument reaches AddFunction: a ValueError naming it."""
    with pytest.raises(ValueError, match=rf"cannot pass a kernel argument of type {scalar}:"):
        tvm.compile(kernel("float32", 1, scalar), target="webgpu")


@pytest.mark.parametrize("scalar", ["int32", "uint32", "float32"])
def test_webgpu_kernel_argument_it_passes_compiles(scalar):
    tvm.compile(kernel("float32", 1, scalar), target="webgpu")


@pytest.mark.parametrize("target", ["webgpu", "metal"])
def test_internal_error_of_another_kind_stays_internal(target):
    """An internal error of the code generator that is not about a type is left as it is."""
    from bugs.codegen_missing_dtype import reference_fix as fix

    def failing(mod, target_obj):
        raise tvm.error.InternalError("another check")

    with pytest.raises(tvm.error.InternalError, match="another check"):
        fix._fixed_build(target, failing)(tvm.IRModule({"main": kernel("int32", 1)}), None)

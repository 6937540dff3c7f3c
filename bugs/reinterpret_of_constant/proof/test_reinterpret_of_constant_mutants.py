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
"""The reinterpret_of_constant rule at the edges of what the fix rewrites (this repository
only).

Two dimensions the sweep does not reach. Which call of a constant: only a reinterpret takes a
temporary; another call of one literal that reaches the code generator (``isnan``, whose op
sorts before ``tirx.reinterpret``, and ``tvm_thread_invariant``, which sorts after it) prints
as it did. Where the statement stands: a kernel whose whole body is the one statement that
holds the reinterpret (no parameter, so no buffer declared before it) takes the address of a
variable too, on OpenCL and CUDA (their sources are checked without a device).
"""

import re

import pytest
from test_reinterpret_of_constant_sweep import assert_source_unchanged, compiled_source

from tvm.script import tirx as T

_PHRASE = "reinterpret of a constant"


def _call_of_a_constant(op):
    """``op`` of one literal, as an int32 value: isnan sorts before tirx.reinterpret,
    tvm_thread_invariant after it."""
    if op == "isnan":
        return T.Cast("int32", T.call_intrin("bool", "tirx.isnan", T.float32(2.0)))
    return T.tvm_thread_invariant(T.int32(5))


def _storing(value, target):
    """A host function (the C target) or a kernel that stores ``value``."""

    @T.prim_func
    def host(A: T.Buffer((1,), "int32")):
        A[0] = value

    @T.prim_func
    def kernel(A: T.Buffer((1,), "int32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = value

    return host if target == "c" else kernel


@pytest.mark.parametrize("target", ["c", "opencl"])
@pytest.mark.parametrize("op", ["isnan", "tvm_thread_invariant"])
def test_fix_leaves_other_calls_of_a_constant_alone(target, op):
    """A call of one constant other than a reinterpret prints as it did without the fix"""
    assert_source_unchanged(_storing(_call_of_a_constant(op), target), target)


@T.prim_func
def kernel_of_one_statement():
    for t in T.thread_binding(1, thread="threadIdx.x"):
        T.evaluate(T.call_extern("int32", "printf", "%u", T.reinterpret("uint32", T.float32(-2.5))))


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=_PHRASE)
@pytest.mark.parametrize(
    "target", ["opencl", {"kind": "cuda", "arch": "sm_80"}], ids=["opencl", "cuda"]
)
def test_kernel_of_one_statement_takes_no_literal_address(target):
    """A kernel whose whole body is the statement holding the reinterpret takes no literal's
    address"""
    addresses = re.findall(r"&\(([^()]*)\)", compiled_source(kernel_of_one_statement, target))
    assert addresses and all(operand.isidentifier() for operand in addresses), addresses

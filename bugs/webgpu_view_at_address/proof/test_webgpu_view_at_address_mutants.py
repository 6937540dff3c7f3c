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
"""The webgpu_view_at_address rule along the call a view's data is made of (this repository
only).

Only a variable, or ``buffer_data`` of one, names a storage array: a view whose data is another
call of one variable (the address of a scalar parameter, a scalar reinterpreted as a pointer,
ops that sort before and after ``tirx.buffer_data``) is refused as a view at an address is, with
the ValueError naming it. A fix that recognises the data projection by anything looser than its
op and its one variable argument takes these views for views of an array and lets the
released TypeError through.
"""

import sys
from pathlib import Path

import pytest
from test_webgpu_view_at_address_sweep import BUG

import tvm
from tvm.script import tirx as T

if str(Path(__file__).resolve().parents[3]) not in sys.path:  # `python FILE` from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))


@T.prim_func
def address_of_float_parameter(x: T.float32, B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        V = T.decl_buffer((1,), "float32", data=T.address_of(x))
        B[t] = V[0]


@T.prim_func
def address_of_int_parameter(n: T.int32, B: T.Buffer((4,), "int32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        V = T.decl_buffer((1,), "int32", data=T.address_of(n))
        B[t] = V[0]


@T.prim_func
def reinterpreted_parameter(n: T.int64, B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        V = T.decl_buffer((4,), "float32", data=T.reinterpret("handle", n))
        B[t] = V[t]


@T.prim_func
def reinterpreted_loop_variable(B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        for i in range(T.int64(2)):
            V = T.decl_buffer((4,), "float32", data=T.reinterpret("handle", i))
            B[t] = V[t]


# the call of one variable each view's data is: tirx.address_of sorts before tirx.buffer_data,
# tirx.reinterpret after it
OVER_A_CALL = {
    "address-of-a-float-parameter": address_of_float_parameter,
    "address-of-an-int-parameter": address_of_int_parameter,
    "reinterpreted-parameter": reinterpreted_parameter,
    "reinterpreted-loop-variable": reinterpreted_loop_variable,
}


@BUG
@pytest.mark.parametrize("form", list(OVER_A_CALL))
def test_view_over_a_call_of_a_variable_is_a_value_error_naming_it(form):
    """A view whose data is a call of one variable other than buffer_data is refused by name"""
    with pytest.raises(ValueError, match=r"cannot declare buffer V over .*pointer casts"):
        tvm.compile(OVER_A_CALL[form], target="webgpu")

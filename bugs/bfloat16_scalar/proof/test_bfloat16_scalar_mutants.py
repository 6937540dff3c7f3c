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
"""The bfloat16 host scalar fix along the dimensions its tool-made mutants found untested
(this repository only; docs/mutants.md).

* a reinterpret of bfloat16 arithmetic reads the rounded bits at any width, wide vectors
  (more than 256 lanes) included;
* MakePackedAPI's error messages name a bfloat16 parameter as bfloat16 wherever it stands in
  the signature;
* MakePackedAPI constructed outside a pipeline does the same wherever it is constructed (a
  script's top level, the bottom frame of a thread): only the pipelines run
  BF16ComputeLegalize after it.

On the released wheel each fails as its xfail says, as in test_bfloat16_scalar.py.
"""

import _thread
import threading

import pytest
import tvm_ffi
from test_bfloat16_scalar import (
    DECODE,
    REINTERPRET,
    _compute,
    _split,
    _with_body,
    bf16tof32,
    f32tobf16_keep_nan,
)

import tvm
import tvm.testing
from tvm import tirx
from tvm.script import tirx as T


@REINTERPRET
@pytest.mark.parametrize("lanes", [2, 300, 512])
def test_wide_reinterpret_reads_rounded_bits(lanes):
    """A reinterpret of bfloat16 arithmetic reads the rounded bits at every vector width."""

    @T.prim_func(private=True)
    def template(A: T.Buffer((512,), "uint16"), x: T.bfloat16):
        A[0] = T.uint16(0)

    _head, store = _split(template)
    x = template.params[1]
    bits = f"uint16x{lanes}"
    index = [tirx.Ramp(0, 1, lanes)]
    wide = tirx.Broadcast(x, lanes)
    before = _with_body(
        template, [tirx.BufferStore(store.buffer, T.reinterpret(bits, wide + wide), index)]
    )
    w32 = tirx.Broadcast(bf16tof32(x), lanes)
    kept = f32tobf16_keep_nan(w32 + w32, lanes)
    expected = _with_body(
        template, [tirx.BufferStore(store.buffer, T.reinterpret(bits, kept), index)]
    )
    tvm.ir.assert_structural_equal(_compute(before), expected)


def _signatures(func):
    """The signatures MakePackedAPI's assertions quote (their message parts naming main)."""
    found = set()

    def visit(node):
        if isinstance(node, tirx.AssertStmt):
            found.update(p.value for p in node.message_parts if p.value.startswith("main("))

    tvm_ffi.structural_walk(func.body, visit)
    return found


# where the bfloat16 parameter stands: the parameters, and the signature the messages quote
POSITIONS = {
    "only": ("x: T.bfloat16", "main(x: bfloat16)"),
    "first": ("x: T.bfloat16, n: T.int32", "main(x: bfloat16, n: int32)"),
    "last": ("n: T.int32, x: T.bfloat16", "main(n: int32, x: bfloat16)"),
}


@DECODE
@pytest.mark.parametrize("position", POSITIONS)
def test_packed_api_messages_name_a_bfloat16_parameter(position):
    """MakePackedAPI's messages spell a bfloat16 parameter bfloat16 wherever it stands."""
    params, signature = POSITIONS[position]
    code = f"""
@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main({params}):
        T.func_attr({{"target": T.target("llvm", host="llvm")}})
        T.evaluate(0)
"""
    before = tvm.script.from_source(code)
    after = tvm.tirx.transform.MakePackedAPI()(before)["main"]
    assert _signatures(after) == {signature}


@T.prim_func(s_tir=True)
def _arithmetic(n: T.int32) -> T.float32:
    T.func_attr({"target": T.target("llvm", host="llvm")})
    return T.Cast("float32", T.Cast("bfloat16", n) * T.bfloat16(3.0))


@T.prim_func(s_tir=True)
def _let(n: T.int32) -> T.float32:
    T.func_attr({"target": T.target("llvm", host="llvm")})
    y: T.let[T.bfloat16] = T.Cast("bfloat16", n) + T.bfloat16(0.5)
    return T.Cast("float32", y)


HOST_CODE = {"arithmetic": _arithmetic, "let": _let}


def _constructed_on_a_short_stack():
    """MakePackedAPI constructed from a frame with no caller, as a script's top level
    constructs it (here the bottom frame of a thread of its own)."""
    made = []
    done = threading.Event()

    def bottom():
        made.append(tvm.tirx.transform.MakePackedAPI())
        done.set()

    _thread.start_new_thread(bottom, ())
    assert done.wait(60)
    return made[0]


@pytest.mark.parametrize("host", HOST_CODE)
def test_packed_api_outside_a_pipeline_is_the_same_wherever_constructed(host):
    """MakePackedAPI constructed outside a pipeline leaves host bfloat16 code to the caller."""
    mod = tvm.IRModule({"main": HOST_CODE[host].with_attr("global_symbol", "main")})
    here = tvm.tirx.transform.MakePackedAPI()(mod)
    tvm.ir.assert_structural_equal(_constructed_on_a_short_stack()(mod), here)

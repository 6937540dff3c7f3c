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
"""What the proof tests of LowerIket and of the passes that changed their input share on both
TVM lines (harness/tvm_line.py): test_lower_iket_inplace.py and
test_immutable_module_compile.py on apache/tvm, test_inplace_passes_tirx.py on apache/tvm-tirx.

* ``lower_iket_input(func, iket_enabled)``: the module the line's compile hands LowerIket for
  ``func`` (sm_90a), a copy taken by a pass instrument, with IKET enabled by the module
  attribute or not;
* ``assert_input_kept(func, iket_enabled, immutable)``: LowerIket leaves that module as it was;
* ``bfloat16_float8()``: one kernel of bfloat16, float8 and int64 arithmetic in local memory
  and vectorized and unrolled loops, in the line's TVMScript (a thread_binding loop and
  ``T.alloc_buffer`` on apache/tvm, ``T.launch_thread`` and ``T.alloc_tensor`` on tvm-tirx).
"""

from harness.tvm_line import LINE, ir

if LINE == "tvm":
    import tvm
    from tvm.backend.cuda.transforms import LowerIket
    from tvm.script import tirx as T

    IRModule, assert_structural_equal = tvm.IRModule, tvm.ir.assert_structural_equal
    pass_instrument, from_source = tvm.instrument.pass_instrument, tvm.script.from_source
    IKET_ENABLED = "tirx.iket.enabled"
    # the code generator's InternalError where a marked kernel fails today
    CODEGEN_ERROR = tvm.error.InternalError

    def _compile(mod, target):
        return tvm.compile(mod, target=tvm.target.Target(target), tir_pipeline="tirx")

    # the kernel of bfloat16_float8: its signature, launches and local buffer
    _BF16_HEAD = (
        "@T.prim_func\n"
        "def _bfloat16_float8(\n"
        '    A: T.Buffer((8, 32), "bfloat16"),\n'
        '    F: T.Buffer((64,), "float8_e4m3fn"),\n'
        '    B: T.Buffer((128,), "float32"),\n'
        "    n: T.int64,\n"
        "):\n"
        '    for bx in T.thread_binding(4, thread="blockIdx.x"):\n'
        '        for tx in T.thread_binding(32, thread="threadIdx.x"):\n'
        '            L = T.alloc_buffer((2, 2), "float32", scope="local")\n'
    )
else:
    import tvm_tirx
    from tvm_tirx.backend.cuda.transform import LowerIket
    from tvm_tirx.script import tirx as T

    IRModule, assert_structural_equal = tvm_tirx.IRModule, tvm_tirx.ir.assert_structural_equal
    pass_instrument = tvm_tirx.ir.transform.pass_instrument
    from_source = tvm_tirx.script.from_source
    IKET_ENABLED = "cuda.iket.enabled"
    CODEGEN_ERROR = RuntimeError

    def _compile(mod, target):
        return tvm_tirx.tirx.compile(mod, target=tvm_tirx.target.Target(target))

    _BF16_HEAD = (
        "@T.function\n"
        "def _bfloat16_float8(\n"
        '    A: T.Tensor((8, 32), "bfloat16"),\n'
        '    F: T.Tensor((64,), "float8_e4m3fn"),\n'
        '    B: T.Tensor((128,), "float32"),\n'
        "    n: T.int64,\n"
        "):\n"
        '    with T.launch_thread("blockIdx.x", 4) as bx:\n'
        '        with T.launch_thread("threadIdx.x", 32) as tx:\n'
        '            L = T.alloc_tensor(ty_args=[T.Tensor((2, 2), T.float32, scope="local")])\n'
    )

SM90 = {"kind": "cuda", "arch": "sm_90a"}
IMMUTABLE = "testing.immutable_module"


def lower_iket_input(func, iket_enabled):
    """The module the line's compile (tirx pipeline, sm_90a) hands LowerIket for ``func``: a
    copy, IKET enabled by the module attribute when ``iket_enabled``"""
    captured = []

    @pass_instrument
    class Capture:
        def run_before_pass(self, mod, info):
            # the outermost LowerIket pass: a fix that wraps the pass (the reference fixes)
            # runs the original inside, on a copy or on one function at a time
            if "LowerIket" in info.name and not captured:
                captured.append(mod.clone())

    mod = IRModule({"main": func})
    if iket_enabled:
        mod = mod.with_attr(IKET_ENABLED, True)
    with ir.PassContext(instruments=[Capture()]):
        try:
            _compile(mod, SM90)
        except CODEGEN_ERROR:
            pass  # several marked kernels fail in the code generator today; the input is kept
    return captured[0]


def assert_input_kept(func, iket_enabled, immutable=None):
    """LowerIket leaves ``lower_iket_input(func, iket_enabled)`` as it was (run under
    ``testing.immutable_module`` = ``immutable`` where that is not None)."""
    Before = lower_iket_input(func, iket_enabled)
    Expected = Before.clone()
    config = {} if immutable is None else {IMMUTABLE: immutable}
    with ir.PassContext(config=config):
        LowerIket()(Before)
    assert_structural_equal(Before, Expected)


def bfloat16_float8():
    """One kernel of bfloat16, float8 and int64 arithmetic, a local buffer and vectorized and
    unrolled loops (the line's TVMScript)"""
    body = (
        "            for i in T.serial(T.int64(2)):\n"
        '                L[i, 0] = T.Cast("float32", A[bx, tx]) + T.float32(1)\n'
        "            for v in T.vectorized(2):\n"
        "                A[bx, v] = A[bx, v] * T.bfloat16(2)\n"
        "            for u in T.unroll(2):\n"
        "                F[u] = F[u] + F[u]\n"
        '            m = T.Cast("float32", n + T.int64(1))\n'
        "            B[bx * 32 + tx] = B[bx * 32 + tx] + L[0, 0] + m * m\n"
    )
    return from_source(_BF16_HEAD + body, {"T": T})

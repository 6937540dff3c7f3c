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
"""Blind round 6 demos of split_host_device_inplace (apache/tvm-tirx)."""

from harness.blind_demo import Demo, script_of


def kernels(n):
    """A module of ``n`` host functions, each launching one OpenCL kernel (llvm host)."""
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    def host(k):
        @T.function
        def f(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target({"kind": "opencl", "host": "llvm"})})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(k + 1)

        return f.with_attr("global_symbol", f"f{k}")

    return tvm_tirx.IRModule({f"f{k}": host(k) for k in range(n)})


def reused_loop_var():
    """A host-only function (no device region) whose two loops bind the same variable: the
    pass's ConvertSSA must rename the second."""
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32")):
        T.func_attr({"target": T.target({"kind": "opencl", "host": "llvm"})})
        for i in range(4):
            A[i] = T.float32(0)

    bind, loop = main.body.seq[0], main.body.seq[-1]
    return tvm_tirx.IRModule({"main": main.with_body(tvm_tirx.ir.SeqStmt([bind, loop, loop]))})


def _split(mod):
    import tvm_tirx

    return tvm_tirx.tirx.transform.SplitHostDevice()(mod)


def input_after(mod):
    """The input module's functions and script after the pass."""
    _split(mod)
    names = sorted(g.name_hint for g in mod.get_global_vars())
    return f"input after: {names}\n" + script_of(mod)


def immutable_output(mod):
    """The pass's output under testing.immutable_module, or its error."""
    import tvm_tirx

    from harness.blind_demo import message

    try:
        with tvm_tirx.ir.transform.PassContext(config={"testing.immutable_module": True}):
            out = _split(mod)
        return sorted(g.name_hint for g in out.get_global_vars())
    except Exception as err:  # the result
        return f"{type(err).__name__}: {message(err)}"


def instrumented_passes(mod):
    """The passes an instrument sees run, under testing.immutable_module."""
    import tvm_tirx

    seen = []

    @tvm_tirx.ir.transform.pass_instrument
    class Record:
        def run_before_pass(self, _mod, info):
            seen.append(info.name)

    with tvm_tirx.ir.transform.PassContext(
        config={"testing.immutable_module": True}, instruments=[Record()]
    ):
        _split(mod)
    return seen


def loop_vars(mod):
    """Whether the output's two loops still bind one variable (not SSA)."""
    import tvm_ffi
    import tvm_tirx

    loops = []
    tvm_ffi.structural_walk(
        _split(mod)["main"].body, [(tvm_tirx.ir.For, loops.append)], order="pre"
    )
    return f"loops share their variable: {loops[0].var.same_as(loops[1].var)}"


DEMOS = {
    "blind6-shd-immutable-kept": Demo(lambda: kernels(2), immutable_output),
    "blind6-shd-inner-ctx-no-instruments": Demo(lambda: kernels(1), instrumented_passes),
    "blind6-shd-first-write-inplace": Demo(lambda: kernels(2), input_after),
    "blind6-shd-no-ssa-when-nothing-to-split": Demo(reused_loop_var, loop_vars),
    "blind6-shd-single-function-inplace": Demo(lambda: kernels(1), input_after),
}

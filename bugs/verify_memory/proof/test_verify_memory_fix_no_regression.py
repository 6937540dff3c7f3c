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
"""No regression from the VerifyMemory reference fix (this repository only).

Correct modules compile to exactly the same code with the released verifier pass and with
the reference fix's pass, and the fixed analysis accepts them. Each module is compiled twice
in this process, once with each pass constructor in ``tvm.tirx.transform.VerifyMemory``
(whatever other reference fixes the session installed stay in place for both).
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import tvm
import tvm.testing
import tvm.tirx.transform.transform as released_transform
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T

if str(Path(__file__).resolve().parents[3]) not in sys.path:  # `python FILE` from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bugs.verify_memory import reference_fix as fix
from harness import pass_records
from harness.accepted_gpu_kernels import (
    BoundKernel,
    GlobalIntermediate,
    KernelCell,
    N,
    SharedMemoryKernel,
    run_on_range,
)


@I.ir_module
class DynamicShapeWithHostLet:
    @T.prim_func
    def main(b: T.handle, c: T.handle, alpha: T.float32):
        n = T.int32()
        B = T.match_buffer(b, (n,), "float32")
        C = T.match_buffer(c, (n,), "float32")
        scale: T.let[T.float32] = alpha * T.float32(2.0)
        for bx in T.thread_binding((n + 31) // 32, thread="blockIdx.x"):
            for tx in T.thread_binding(32, thread="threadIdx.x"):
                if bx * 32 + tx < n:
                    C[bx * 32 + tx] = B[bx * 32 + tx] * scale


@I.ir_module
class HostLoop:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        for i in range(N):
            C[i] = B[i] + T.float32(1.0)


@I.ir_module
class RelaxModel:
    """Legalized and DLight-scheduled by the default cuda pipeline of tvm.compile."""

    @R.function
    def main(
        x: R.Tensor((4, 16), "float32"),
        w: R.Tensor((16, 8), "float32"),
        b: R.Tensor((8,), "float32"),
    ):
        with R.dataflow():
            y = R.nn.relu(R.add(R.matmul(x, w), b))
            s = R.sum(y, axis=[1])
            o = R.nn.softmax(y, axis=-1)
            R.output(s, o)
        return (s, o)


CUDA_MODULES = [BoundKernel, GlobalIntermediate, KernelCell, SharedMemoryKernel]
CUDA_MODULES += [DynamicShapeWithHostLet, RelaxModel]
CUDA_IDS = ["bound", "global_intermediate", "kernel_local_cell", "shared", "dynamic_host_let"]
CUDA_IDS += ["relax_model"]


def _compile(mod, target, verify_memory_pass, monkeypatch):
    """Compile with ``verify_memory_pass`` as the pipeline's VerifyMemory; return the code."""
    with monkeypatch.context() as patch:
        patch.setattr(tvm.tirx.transform, "VerifyMemory", verify_memory_pass)
        lib, ran = pass_records.compile_recording(mod, target, "tirx.VerifyMemory")
    assert ran, "the pipeline did not run tirx.VerifyMemory"
    return lib, _sources(lib.mod)


def _sources(module):
    """The generated code of ``module`` and of everything it imports (relax executables
    import the host llvm module, which imports the device module)."""
    own = [] if module.kind == "relax.VMExecutable" else [module.inspect_source()]
    return own + [code for sub in module.imports for code in _sources(sub)]


def _assert_same_code(mod, target, monkeypatch):
    _, released = _compile(mod, target, released_transform.VerifyMemory, monkeypatch)
    lib, fixed = _compile(mod, target, fix.VerifyMemory, monkeypatch)
    assert fixed == released
    return lib


@pytest.mark.parametrize("mod", CUDA_MODULES, ids=CUDA_IDS)
def test_cuda_module_compiles_unchanged(mod, monkeypatch):
    lib = _assert_same_code(mod, "cuda", monkeypatch)
    assert any("__global__" in code for code in _sources(lib.mod))


def test_llvm_host_loop_compiles_unchanged_and_runs(monkeypatch):
    lib = _assert_same_code(HostLoop, "llvm", monkeypatch)
    np.testing.assert_array_equal(run_on_range(lib), np.arange(N, dtype="float32") + 1)


@pytest.mark.parametrize("mod", [*CUDA_MODULES, HostLoop], ids=[*CUDA_IDS, "host_loop"])
def test_fixed_analysis_accepts_pipeline_input(mod):
    """The fixed analysis accepts each module as the pipeline hands it to the verifier."""
    target = "llvm" if mod is HostLoop else "cuda"
    _, seen = pass_records.compile_recording(mod, target, "tirx.VerifyMemory")
    funcs = [f for _, f in seen[0].functions.items() if isinstance(f, tvm.tirx.PrimFunc)]
    assert {f.attrs["target"].kind.name for f in funcs} == {target}
    assert all(fix.verify_memory_errors(f) == [] for f in funcs)


def test_install_replaces_and_restores():
    before = (tvm.tirx.transform.VerifyMemory, tvm.tirx.analysis.verify_memory)
    undo = fix.install()
    try:
        assert tvm.tirx.transform.VerifyMemory is fix.VerifyMemory
        assert tvm.tirx.analysis.verify_memory is fix.verify_memory
    finally:
        undo()
    assert (tvm.tirx.transform.VerifyMemory, tvm.tirx.analysis.verify_memory) == before


if __name__ == "__main__":
    tvm.testing.main()

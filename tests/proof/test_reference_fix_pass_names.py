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
"""A pass context treats the reference fixes' passes as it treats the TVM passes they wrap
(this repository only): where it disables TVM's pass, a Sequential runs nothing of the fixed
one (TVM's pass, or a fix's steps around it), and a pass instrument sees TVM's pass run once.
Run under the reference fixes and without them: TVM's own passes hold both."""

import pytest

import tvm
from tvm.script import tirx as T

WRAPPED = {
    "tirx.SplitHostDevice": lambda: tvm.tirx.transform.SplitHostDevice(),
    "tirx.AnnotateEntryFunc": lambda: tvm.tirx.transform.AnnotateEntryFunc(),
    "tirx.LowerTVMBuiltin": lambda: tvm.tirx.transform.LowerTVMBuiltin(),
    "tirx.MakePackedAPI": lambda: tvm.tirx.transform.MakePackedAPI(),
    "tirx.BF16ComputeLegalize": lambda: tvm.tirx.transform.BF16ComputeLegalize(),
    "tirx.BF16StorageLegalize": lambda: tvm.tirx.transform.BF16StorageLegalize(),
}


@T.prim_func(s_tir=True)
def _kernel_with_host_cell(A: T.Buffer(8, "float32"), x: T.float32):
    T.func_attr({"target": T.target("cuda", host="llvm")})
    c = T.alloc_local((1,), "float32")
    c[0] = x
    with T.attr(T.target("cuda"), "target", 0):
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = c[0]


def _run(name, **context):
    """(the names of the passes an instrument sees run, the output) of a Sequential of
    ``name``'s pass over a module with a kernel, under a context of ``context``."""
    seen = []

    @tvm.instrument.pass_instrument
    class Names:
        def run_before_pass(self, _mod, info):
            seen.append(str(info.name))

    mod = tvm.IRModule({"main": _kernel_with_host_cell})
    with tvm.transform.PassContext(instruments=[Names()], **context):
        after = tvm.transform.Sequential([WRAPPED[name]()])(mod)
    return seen, after


@pytest.mark.parametrize("name", WRAPPED)
def test_disabled_pass_changes_nothing(name):
    """Where the context disables TVM's pass, it does not run and the module stays as it is"""
    seen, after = _run(name, disabled_pass=[name])
    assert name not in seen
    tvm.ir.assert_structural_equal(after, tvm.IRModule({"main": _kernel_with_host_cell}))


def test_an_instrument_sees_tvms_pass_run_once():
    """An instrument sees TVM's SplitHostDevice run once, fixed or not"""
    seen, _ = _run("tirx.SplitHostDevice")
    assert seen.count("tirx.SplitHostDevice") == 1

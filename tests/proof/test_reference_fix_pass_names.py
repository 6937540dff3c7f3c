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
"""The reference fixes name each TVM pass they wrap as TVM names it (this repository only): a
PassContext that disables the pass skips the fixed pass as it skips TVM's own, a fix's
wrapper included, and the pass-name keyed tools (instruments, the differential capture) see
TVM's names. Run under the reference fixes and without them: TVM's own passes hold both."""

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


@pytest.mark.parametrize("name", WRAPPED)
def test_pass_has_the_name_of_tvms_pass(name):
    """The pass a transform's constructor builds carries TVM's name for it"""
    assert WRAPPED[name]().info.name == name


@T.prim_func(s_tir=True)
def _kernel_with_host_cell(A: T.Buffer(8, "float32"), x: T.float32):
    T.func_attr({"target": T.target("cuda", host="llvm")})
    c = T.alloc_local((1,), "float32")
    c[0] = x
    with T.attr(T.target("cuda"), "target", 0):
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = c[0]


def test_disabled_split_host_device_leaves_the_module_unchanged():
    """A Sequential under a context that disables tirx.SplitHostDevice leaves the module as it
    is, the fixes' steps around TVM's pass included"""
    mod = tvm.IRModule({"main": _kernel_with_host_cell})
    with tvm.transform.PassContext(disabled_pass=["tirx.SplitHostDevice"]):
        after = tvm.transform.Sequential([tvm.tirx.transform.SplitHostDevice()])(mod)
    tvm.ir.assert_structural_equal(after, mod)

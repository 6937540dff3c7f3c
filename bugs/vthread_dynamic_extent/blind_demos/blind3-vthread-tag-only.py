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
"""Demo program on which the reference fix and blind3-vthread-tag-only differ.

A function with a virtual_thread attribute of tag `cthread` (no memory sharing) whose extent is a
parameter n, run through InjectVirtualThread. The reference fix refuses it with the ValueError;
the wrong fix only looks at `vthread*` tags and the released pass dies by SIGSEGV."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tvm_ffi

import tvm
from harness.blind_demo import main
from tvm import tirx
from tvm.script import tirx as T


def program():
    @T.prim_func
    def f(B: T.Buffer((64,), "float32"), n: T.int32):
        with T.launch_thread("vthread", n) as vthread:  # noqa: F841 (the launch binds it)
            threadIdx_x = T.launch_thread("threadIdx.x", 8)
            B[threadIdx_x] = T.float32(1)

    def as_cthread(attr):  # the same virtual thread, tagged cthread
        if attr.attr_key != "virtual_thread":
            return attr
        iv = attr.node
        node = tirx.IterVar(iv.dom, iv.var, iv.iter_type, "cthread")
        return tirx.AttrStmt(node, attr.attr_key, attr.value, attr.body)

    body = tvm_ffi.structural_map(f.body, (tirx.AttrStmt, as_cthread))
    return tvm.IRModule({"main": f.with_body(body)})


def observe(mod):
    return tvm.s_tir.transform.InjectVirtualThread()(mod).script()


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "vthread_dynamic_extent", "blind3-vthread-tag-only"))

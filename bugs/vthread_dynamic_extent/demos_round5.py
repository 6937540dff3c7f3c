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
"""Blind round 5 demos of InjectVirtualThread's wrong fixes (apache/tvm). A run that reaches
the released pass's null cast dies by SIGSEGV: the demo's child reports the signal."""

import tvm
import tvm.s_tir.transform
from harness.blind_demo import Demo, script_or_error
from tvm import tirx
from tvm.script import tirx as T

HEADER = (
    "@T.prim_func\n"
    'def main(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32"), n: T.int32):\n'
)


def program(*launches):
    """A function of nested virtual-thread launches, each (tag, extent source), whose body
    stores to B at the sum of their indices."""
    lines = [
        f'    v{k} = T.launch_thread("{tag}", {ext})\n' for k, (tag, ext) in enumerate(launches)
    ]
    index = " + ".join(f"v{k}" for k in range(len(launches)))
    text = HEADER + "".join(lines) + f"    B[{index}] = T.float32(1.0)\n"
    return tvm.script.from_source(text, {"T": T})


def with_outer_attr(func, tag=None, dom_extent=None):
    """``func`` whose outermost virtual-thread attribute has another tag or IterVar dom."""
    attr = func.body
    iv = attr.node
    dom = iv.dom if dom_extent is None else tvm.ir.Range(0, dom_extent)
    new_iv = tirx.IterVar(dom, iv.var, iv.iter_type, tag or iv.thread_tag)
    return func.with_body(tirx.AttrStmt(new_iv, attr.attr_key, attr.value, attr.body))


def module(**funcs):
    return tvm.IRModule(funcs)


def injected(mod):
    """Observer: the module after InjectVirtualThread, or the error it raised."""
    return script_or_error(lambda: tvm.s_tir.transform.InjectVirtualThread()(mod))


def param_n(func):
    return next(p for p in func.params if p.name == "n")


def cthread_of_n():
    return module(main=with_outer_attr(program(("vthread", "n")), tag="cthread"))


def dom_constant_value_n():
    func = program(("vthread", "2"))
    attr = func.body
    func = func.with_body(tirx.AttrStmt(attr.node, attr.attr_key, param_n(func), attr.body))
    return module(main=func)


DEMOS = {
    "blind5-vthread-tag-only": Demo(cthread_of_n, injected),
    "blind5-outermost-first": Demo(
        lambda: module(main=program(("vthread", "n"), ("vthread", "L[0]"))), injected
    ),
    "blind5-first-attr-only": Demo(
        lambda: module(main=program(("vthread", "2"), ("vthread", "n + 1"))), injected
    ),
    "blind5-first-function-only": Demo(
        lambda: module(first=program(("vthread", "2")), second=program(("vthread", "n * 2"))),
        injected,
    ),
    "blind5-var-only": Demo(lambda: module(main=program(("vthread", "L[0]"))), injected),
    "blind5-int32-only": Demo(lambda: module(main=program(("vthread", "T.int64(2)"))), injected),
    "blind5-dom-extent": Demo(dom_constant_value_n, injected),
}

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
"""Blind round 5 demos of AnnotateEntryFunc's wrong fixes (apache/tvm-tirx): the programs and
observers of demos_round5.py written for that line."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo

ENTRY = "tirx.is_entry_func"


def module_of(public, private, attrs=None):
    """A module of small functions: those named in ``public`` carry their name as
    global_symbol, those in ``private`` none."""

    @T.function
    def base(A: T.Tensor((8,), "float32")):
        for i in range(8):
            A[i] = A[i] + T.float32(1)

    funcs = {name: base.with_attr("global_symbol", name) for name in public}
    funcs.update({name: base.without_attr("global_symbol") for name in private})
    mod = tvm_tirx.IRModule(funcs)
    return mod.with_attrs(attrs) if attrs else mod


def flags(mod):
    return {gv.name_hint: bool(f.attrs.get(ENTRY, False)) for gv, f in mod.functions.items()}


def _annotate():
    return tvm_tirx.tirx.transform.AnnotateEntryFunc()


def input_after(mod):
    _annotate()(mod)
    return f"input marks: {flags(mod)}"


def input_after_sequential(mod):
    tvm_tirx.ir.transform.Sequential([_annotate()])(mod)
    return f"input marks: {flags(mod)}"


def output_marks(mod):
    return f"output marks: {flags(_annotate()(mod))}"


def output_attrs(mod):
    out = _annotate()(mod)
    return f"output attrs: {dict(out.attrs) if out.attrs is not None else None}, {flags(out)}"


DEMOS = {
    "blind5-single-branch-only": Demo(lambda: module_of(["main"], ["helper"]), input_after),
    "blind5-multi-branch-only": Demo(lambda: module_of([], ["only_private"]), input_after),
    "blind5-only-under-immutable": Demo(
        lambda: module_of(["entry"], ["k0", "k1"]), input_after_sequential
    ),
    "blind5-return-with-annotations": Demo(
        lambda: module_of(["main"], ["sub"], {"note": "kept"}), output_attrs
    ),
    "blind5-return-input": Demo(lambda: module_of(["api"], ["a", "b"]), output_marks),
    "blind5-copy-drops-attrs": Demo(
        lambda: module_of(["main"], [], {"system_lib_prefix": "lib_"}), output_attrs
    ),
}

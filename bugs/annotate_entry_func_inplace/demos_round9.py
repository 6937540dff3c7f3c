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
"""Blind round 9: programs on which annotate_entry_func_inplace's round-9 wrong fixes
differ from the reference fix. The programs are written once, in apache/tvm's spelling
(``from_script`` parses them on either line); demos_round9_tirx.py takes them."""

from harness.blind_demo import Demo, from_script, line_package

_HELPER = """
    @T.prim_func(private=True)
    def helper(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)
"""


def _module(helper):
    """``main`` (public), with a private ``helper`` when ``helper``, in a module with an
    attribute (and, on apache/tvm, a global info: tvm-tirx has no kind of one)."""
    infos = ""
    if line_package().__name__ == "tvm":
        infos = '    I.module_global_infos({"vdevice": [I.vdevice("llvm")]})\n'
    text = (
        "@I.ir_module\nclass Module:\n"
        '    I.module_attrs({"note": "keep"})\n'
        + infos
        + """
    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = A[i] + T.float32(1)
"""
        + (_HELPER if helper else "")
    )
    return from_script(text)


def one_function():
    """A module of one PrimFunc (the pass's first branch)."""
    return _module(helper=False)


def public_and_private():
    """One public PrimFunc among a private one (the pass's second branch)."""
    return _module(helper=True)


def _annotate(mod):
    return line_package().tirx.transform.AnnotateEntryFunc()(mod)


def input_after(mod):
    """Observer: the input module as it is after AnnotateEntryFunc ran on it."""
    _annotate(mod)
    return mod.script()


def output(mod):
    """Observer: the module AnnotateEntryFunc returns."""
    return _annotate(mod).script()


def demos():
    """The demos of both lines (apache/tvm-tirx leaves out the global infos' one)."""
    return {
        "blind9-multi-in-place": Demo(public_and_private, input_after),
        "blind9-single-in-place": Demo(one_function, input_after),
        "blind9-single-returns-input": Demo(one_function, output),
        "blind9-multi-returns-annotations": Demo(public_and_private, output),
        "blind9-copy-drops-attrs": Demo(one_function, output),
        "blind9-copy-drops-global-infos": Demo(one_function, output),
        "blind9-only-immutable": Demo(one_function, input_after),
    }


DEMOS = demos()

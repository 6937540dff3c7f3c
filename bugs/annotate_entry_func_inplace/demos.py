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
"""Programs on which AnnotateEntryFunc's reference fix and each blind wrong fix differ, on
apache/tvm (harness/blind_demo.py; run with scripts/blind_demos.py --bug
annotate_entry_func_inplace), every round's; demos_tirx.py has apache/tvm-tirx's.

The programs are modules of public and private functions (``programs``: the module of one
function, or one public PrimFunc among private ones, for the pass's two branches; module
attributes, global infos, a function already marked), made of ``public`` and ``private``, whose
text is parsed on the line that runs them (harness.blind_demo.from_script), so that
demos_tirx.py takes these entries as they are. The observers, which both lines share, look at
whether the caller's module changed and which functions are marked (harness/blind_inplace.py),
at the output's marks, attributes and global infos, and at a compile under
testing.immutable_module."""

from types import SimpleNamespace

from harness.blind_demo import Demo, from_script, line_package
from harness.blind_inplace import (
    IMMUTABLE,
    NOTE,
    annotate_entry_func,
    before_and_after,
    input_after,
    module_of,
    output_of,
    vdevice,
)
from harness.tvm_line import LINE, ir

ENTRY = "tirx.is_entry_func"


def public():
    """A public function ``main``."""
    return from_script(
        "@T.prim_func\n"
        'def main(A: T.Buffer((8,), "float32")):\n'
        "    for i in range(8):\n"
        "        A[i] = A[i] + T.float32(1)\n"
    )


def private():
    """A private function."""
    return from_script(
        "@T.prim_func(private=True)\n"
        'def helper(A: T.Buffer((8,), "float32")):\n'
        "    for i in range(8):\n"
        "        A[i] = T.float32(0)\n"
    )


def programs(public, private):
    """The demos' programs, made of a line's ``public`` and ``private`` functions (builders):
    modules built by harness.blind_inplace.module_of, named by what they hold."""

    def named(name):
        return lambda: public().with_attr("global_symbol", name)

    def marked_false():
        return public().with_attr(ENTRY, False)

    return SimpleNamespace(
        # with the attribute 'note'
        one=module_of(NOTE, main=public),
        two=module_of(NOTE, main=public, helper=private),
        solo_private=module_of(NOTE, solo=private),
        one_with_info=module_of(NOTE, vdevice, main=public),
        beside_sub=module_of(NOTE, main=public, sub=private),
        # without module attributes
        bare_one=module_of(main=public),
        bare_two=module_of(main=public, helper=private),
        beside_two=module_of(main=public, helper0=private, helper1=private),
        only_private=module_of(only_private=private),
        entry_beside_two=module_of(entry=named("entry"), k0=private, k1=private),
        api_beside_two=module_of(api=named("api"), a=private, b=private),
        marked_false=module_of(main=marked_false),
        # with other attributes, or a global info
        lib_prefix=module_of({"system_lib_prefix": "lib_"}, main=public),
        device_id=module_of({"device_id": 3}, main=public),
        flag=module_of({"demo.flag": 7}, main=public),
        info_one=module_of(infos=vdevice, main=public),
        info_two=module_of(infos=vdevice, main=public, helper=private),
    )


def marks(label):
    """A view: {"<label> marks": {function: its tirx.is_entry_func, False where it has none}}."""

    def view(mod):
        found = {}
        for gvar, func in sorted(mod.functions.items(), key=lambda kv: kv[0].name_hint):
            found[gvar.name_hint] = bool(func.attrs.get(ENTRY, False)) if func.attrs else False
        return {f"{label} marks": found}

    return view


def marks_and_info(mod):
    """A view: the output's marks, module attributes and global infos."""
    attrs = {k: str(v) for k, v in mod.attrs.items()} if mod.attrs is not None else {}
    infos = sorted(mod.global_infos.keys()) if mod.global_infos is not None else []
    return {**marks("output")(mod), "attrs": attrs, "global_infos": infos}


def compiled_checked(mod):
    """Observer: whether the module compiles for llvm under testing.immutable_module (the
    child prints the error otherwise)."""
    pkg = line_package()
    build = pkg.compile if LINE == "tvm" else pkg.tirx.compile
    with ir.PassContext(config=IMMUTABLE):
        return f"compiled: {build(mod, target='llvm') is not None}"


MARKED = before_and_after(annotate_entry_func)
CHECKED = before_and_after(annotate_entry_func, IMMUTABLE)
INPUT = input_after(annotate_entry_func, marks("input"))
INPUT_IN_SEQUENTIAL = input_after(lambda: ir.Sequential([annotate_entry_func()]), marks("input"))
OUTPUT = output_of(annotate_entry_func, marks_and_info)
P = programs(public, private)

DEMOS = {
    # round 2
    # under testing.immutable_module the pass runs; the wrong fix runs it on the caller's module
    "blind2-no-copy-when-checked": Demo(P.one, CHECKED),
    # the output keeps the global info; the wrong fix's copy drops it
    "blind2-copy-drops-global-infos": Demo(P.one_with_info, MARKED),
    # one public function among two: the input stays unmarked; the wrong fix copies only in
    # the one-function branch
    "blind2-single-function-branch": Demo(P.two, MARKED),
    # one private function: the input stays unmarked; the wrong fix copies only for a public one
    "blind2-public-only": Demo(P.solo_private, MARKED),
    # called plainly, the input stays unmarked; the wrong fix copies only under
    # testing.immutable_module
    "blind2-copy-only-when-checked": Demo(P.one, MARKED),
    # round 3
    # one public function among two: the input stays unmarked; the wrong fix copies in the
    # one-function branch only
    "blind3-multi-branch-in-place": Demo(P.two, MARKED),
    # one function: the input stays unmarked; the wrong fix copies in the other branch only
    "blind3-single-branch-in-place": Demo(P.one, MARKED),
    # one public function among two: the output keeps the private one and the attribute; the
    # wrong fix returns the annotated functions alone
    "blind3-return-annotations-only": Demo(P.two, MARKED),
    # one function: the output's main is marked; the wrong fix marks a copy, returns the input
    "blind3-return-input": Demo(P.one, MARKED),
    # the output keeps the global info; the wrong fix's copy drops it
    "blind3-copy-drops-global-infos": Demo(P.one_with_info, MARKED),
    # called plainly, the input stays unmarked; the wrong fix copies only under
    # testing.immutable_module
    "blind3-copy-only-when-immutable": Demo(P.one, MARKED),
    # under testing.immutable_module the pass runs; the wrong fix runs it on its copy in the
    # caller's context, which trips on the copy being written
    "blind3-immutable-on-copy": Demo(P.one, CHECKED),
    # round 4
    "blind4-several-functions-writes-input": Demo(P.bare_two, INPUT),
    "blind4-single-function-writes-input": Demo(P.bare_one, INPUT),
    "blind4-several-functions-returns-input": Demo(P.bare_two, OUTPUT),
    "blind4-copy-drops-attrs": Demo(P.lib_prefix, OUTPUT),
    "blind4-copy-drops-global-infos": Demo(P.info_one, OUTPUT),
    "blind4-copy-only-under-immutable-option": Demo(P.bare_two, INPUT),
    # round 5
    "blind5-single-branch-only": Demo(P.bare_two, INPUT),
    "blind5-multi-branch-only": Demo(P.only_private, INPUT),
    "blind5-only-under-immutable": Demo(P.entry_beside_two, INPUT_IN_SEQUENTIAL),
    "blind5-return-with-annotations": Demo(P.beside_sub, OUTPUT),
    "blind5-return-input": Demo(P.api_beside_two, OUTPUT),
    "blind5-copy-drops-attrs": Demo(P.lib_prefix, OUTPUT),
    # round 6
    "blind6-aef-copy-single-branch-only": Demo(P.beside_two, INPUT),
    "blind6-aef-copy-multi-branch-only": Demo(P.bare_one, INPUT),
    "blind6-aef-copy-drops-attrs": Demo(P.device_id, OUTPUT),
    "blind6-aef-copy-after-write": Demo(P.bare_two, INPUT),
    "blind6-aef-skip-when-attr-present": Demo(P.marked_false, OUTPUT),
    "blind6-aef-immutable-kept": Demo(P.bare_one, compiled_checked),
    # round 7
    "blind7-cow-single-branch-only": Demo(P.bare_two, INPUT),
    "blind7-cow-multi-branch-only": Demo(P.bare_one, INPUT),
    "blind7-copy-drops-attrs": Demo(P.flag, OUTPUT),
    "blind7-copy-drops-global-infos": Demo(P.info_two, OUTPUT),
    "blind7-local-copy-single": Demo(P.bare_one, OUTPUT),
    "blind7-local-copy-multi": Demo(P.bare_two, OUTPUT),
}

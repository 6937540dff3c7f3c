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
"""What the demos of the in-place passes share (AnnotateEntryFunc, SplitHostDevice and LowerIket:
bugs annotate_entry_func_inplace, split_host_device_inplace and lower_iket_inplace), on either
TVM line (harness/tvm_line.py): the passes, a program assembling a module from its functions'
builders, and the observers.

An observer is made for a pass and a PassContext option and looks at one program: what the
pass made of it, and whether the caller's module changed under it. Each bug's functions are
written in its line's TVMScript in ``bugs/<key>/demos.py`` and ``demos_tirx.py`` (tvm-tirx's
parser takes no aliased decorator, so one text cannot serve both lines); harness/blind_demo.py
says what a demo is."""

import re

from harness.blind_demo import script_of
from harness.tvm_line import LINE, ir

if LINE == "tvm":
    from tvm import IRModule
else:
    from tvm_tirx import IRModule

# the PassContext option under which a pass must leave its input unchanged
IMMUTABLE = {"testing.immutable_module": True}
# a module attribute, which a pass's output must keep
NOTE = {"note": "kept"}


def module_of(attrs=None, **builders):
    """A program: the module of the functions ``builders`` build (in that order, in a module
    built from a dict), with the module attributes ``attrs``."""
    return lambda: IRModule({name: build() for name, build in builders.items()}, attrs=attrs)


def annotate_entry_func():
    return ir.transform.AnnotateEntryFunc()


def split_host_device():
    return ir.transform.SplitHostDevice()


def lower_iket():
    """The LowerIket pass of this process's TVM line (a CUDA backend pass of each)."""
    if LINE == "tvm":
        from tvm.backend.cuda.transforms import LowerIket
    else:
        from tvm_tirx.backend.cuda.transform import LowerIket
    return LowerIket()


def run(make_pass, mod, config=None):
    """``make_pass()`` on ``mod`` under PassContext ``config``: (its output, whether ``mod``'s
    script changed)."""
    text = mod.script()
    with ir.PassContext(config=config or {}):
        out = make_pass()(mod)
    return out, mod.script() != text


def summary(mod):
    """The module's functions with their attribute keys (the target left out), its attributes
    and its global infos."""
    funcs = []
    for gv, func in sorted(mod.functions_items(), key=lambda kv: kv[0].name_hint):
        attrs = func.attrs.keys() if func.attrs is not None else []
        keys = sorted(k for k in attrs if k != "target")
        funcs.append(f"{gv.name_hint}{keys}")
    attrs = sorted(mod.attrs.keys()) if mod.attrs is not None else []
    infos = sorted(mod.global_infos.keys()) if mod.global_infos is not None else []
    return f"functions {funcs} attrs {attrs} global_infos {infos}"


def before_and_after(make_pass, config=None):
    """Observer: whether the pass changed its input, and the summaries of the input afterwards
    and of the output."""

    def observe(mod):
        out, changed = run(make_pass, mod, config)
        return f"input changed: {changed}\ninput:  {summary(mod)}\noutput: {summary(out)}"

    return observe


def output_script(make_pass):
    """Observer: the pass's output, summarised and as TVMScript without target attributes."""

    def observe(mod):
        out = make_pass()(mod)
        return summary(out) + "\n" + script_of(out)

    return observe


# an IKET mark as each line prints it: T.cuda.iket.mark(...) (apache/tvm), T.cuda.iket_mark(...)
_MARK = re.compile(r"iket[._]mark")


def iket_lowered(config=None):
    """Observer: LowerIket under PassContext ``config``: whether the input changed, the output's
    functions, the kernels still marked, and the IKET events each kernel emits."""

    def observe(mod):
        out, changed = run(lower_iket, mod, config)
        funcs = sorted(out.functions_items(), key=lambda kv: kv[0].name_hint)
        marked = [gv.name_hint for gv, f in funcs if _MARK.search(f.script())]
        events = {
            gv.name_hint: [
                x.strip().split(",")[0] for x in f.script().splitlines() if "official_event" in x
            ]
            for gv, f in funcs
        }
        return (
            f"input changed: {changed}\n"
            f"output functions: {[gv.name_hint for gv, _ in funcs]}\n"
            f"still marked: {marked}\nevents: {events}"
        )

    return observe

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
written in ``bugs/<key>/demos.py``, as one text parsed on either line
(harness.blind_demo.from_script), or, where the lines' scripts differ in more than spelling, in
its line's TVMScript in ``demos.py`` and ``demos_tirx.py`` (tvm-tirx's parser takes no aliased
decorator); harness/blind_demo.py says what a demo is."""

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


def module_of(attrs=None, infos=None, **builders):
    """A program: the module of the functions ``builders`` build (in that order, in a module
    built from a dict), with the module attributes ``attrs`` and the global infos ``infos``
    (a function of no arguments, called with the program)."""

    def program():
        funcs = {name: build() for name, build in builders.items()}
        return IRModule(funcs, attrs=attrs, global_infos=infos and infos())

    return program


def vdevice():
    """A module's global infos: ``vdevice``, one llvm VDevice (an empty list on tvm-tirx, which
    registers no GlobalInfo a script can build)."""
    if LINE == "tvm_tirx":
        return {"vdevice": []}
    import tvm

    return {"vdevice": [tvm.relax.VDevice(tvm.target.Target("llvm"), 0, "global")]}


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
def input_after(make_pass, view):
    """Observer: ``view`` of the pass's input after the pass ran on it."""

    def observe(mod):
        make_pass()(mod)
        return view(mod)

    return observe


def output_of(make_pass, view):
    """Observer: ``view`` of the pass's output."""
    return lambda mod: view(make_pass()(mod))


def entries(label):
    """A view: {"<label> entries": the functions of a module marked tirx.is_entry_func}."""

    def view(mod):
        marked = [
            gvar.name_hint
            for gvar, func in mod.functions.items()
            if func.attrs is not None and "tirx.is_entry_func" in func.attrs
        ]
        return {f"{label} entries": sorted(marked)}

    return view


def statements(mod):
    """A view: per function of a module, the statements of its script (no attributes, no
    header) and its calling_conv."""
    out = {}
    for gvar, func in sorted(mod.functions.items(), key=lambda kv: kv[0].name_hint):
        lines = func.script().splitlines()
        start = next(k for k, x in enumerate(lines) if x.startswith("def "))
        body = [x.strip() for x in lines[start + 1 :] if "func_attr" not in x and x.strip()]
        conv = func.attrs.get("calling_conv") if func.attrs is not None else None
        out[gvar.name_hint] = (body, None if conv is None else int(conv))
    return out


def iket_calls(mod):
    """A view: per function of a module, the IKET calls left in it (marks, and events with
    their id)."""
    found = {}
    for gvar, func in sorted(mod.functions.items(), key=lambda kv: kv[0].name_hint):
        calls = re.findall(r"iket[._]mark|official_event\(T\.uint32\(\d+", func.script())
        calls = [c.replace("official_event(T.uint32(", "event ") for c in calls]
        found[gvar.name_hint] = [c.replace("_", ".") for c in calls]
    return found


def module_info(make_pass):
    """Observer: the module attributes and the global infos of the pass's output."""

    def observe(mod):
        out = make_pass()(mod)
        attrs = {k: str(v) for k, v in out.attrs.items()} if out.attrs is not None else {}
        infos = sorted(out.global_infos.keys()) if out.global_infos is not None else []
        return {"attrs": attrs, "global_infos": infos}

    return observe


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

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
"""Blind round 8 (blind8d): wrong fixes of SplitHostDevice's in-place write (patches/0006),
each the reference fix's ``run`` (the pass on a copy of its input, as ``mod.CopyOnWrite()``
gives the C++ pass) replaced by a ``run`` that models one wrong step of the C++ change. The
pass itself still writes in place the module it is handed; each ``run`` chooses which module
that is and what it returns. Demos: demos_round8.py and demos_round8_tirx.py."""

_REF = "run = _input_copy.run  # the pass on a copy of its input"

WRONG_FIXES = {
    "blind8-copy-after-first-write": "mod->Update(updates) still writes the input; the copy is "
    "taken only for mod->Update(device_mod): the caller's host functions are rewritten, the "
    "kernels go to the copy",
    "blind8-functions-only-copy": "the copy is IRModule(mod->functions): the module's attributes "
    "and global infos are lost in the output",
    "blind8-changed-only": "the result is built from updates and device_mod alone (IRModule "
    "result = updates): functions the pass leaves alone, and the module attributes, are dropped",
    "blind8-early-return-no-ssa": "with nothing to write the pass returns its input at once, "
    "skipping ConvertSSA (only the write should be guarded)",
    "blind8-copy-discarded": "the writes go to a local copy (IRModule copy = mod; "
    "copy.CopyOnWrite()->Update(...)) but the pass goes on with mod: the split is lost",
    "blind8-single-function-only": "the copy is taken only when the module has one function "
    "(guarded like AnnotateEntryFunc's first branch): a module of several is still written "
    "in place",
    "blind8-copy-only-when-immutable": "the copy is taken only under the testing.immutable_module "
    "option: a plain call still writes the caller's module",
}

_NAMES = "\n\ndef _names(mod):\n    return {gv.name_hint for gv in mod.get_global_vars()}\n"

EDITS = {
    "blind8-copy-after-first-write": [
        (
            _REF,
            _NAMES
            + '''

def run(inner, mod):
    """The host functions rewritten in the caller's module, the kernels only in the copy."""
    work = mod.clone()
    out = inner(work)  # work: mod with updates and device_mod written, before ConvertSSA
    for gvar, func in work.functions_items():
        if gvar.name_hint in _names(mod) and not func.same_as(mod[gvar.name_hint]):
            mod.update_func(mod.get_global_var(gvar.name_hint), func)
    return out
''',
        )
    ],
    "blind8-functions-only-copy": [
        (
            _REF,
            '''

def run(inner, mod):
    """The pass on IRModule(mod->functions): no attributes, no global infos."""
    return inner(type(mod)(dict(mod.functions_items())))
''',
        )
    ],
    "blind8-changed-only": [
        (
            _REF,
            _NAMES
            + '''

def run(inner, mod):
    """The output holds only the functions the pass rewrote or added."""
    work = mod.clone()
    out = inner(work)
    kept = {
        name
        for name in _names(work)
        if name not in _names(mod) or not work[name].same_as(mod[name])
    }
    return type(mod)({gv: f for gv, f in out.functions_items() if gv.name_hint in kept})
''',
        )
    ],
    "blind8-early-return-no-ssa": [
        (
            _REF,
            _NAMES
            + '''

def run(inner, mod):
    """Nothing to write: the input comes back as it came, not in SSA form."""
    work = mod.clone()
    out = inner(work)
    if _names(work) == _names(mod) and all(work[n].same_as(mod[n]) for n in _names(mod)):
        return mod
    return out
''',
        )
    ],
    "blind8-copy-discarded": [
        (
            _REF,
            '''

def run(inner, mod):
    """The split written to a copy that is dropped; ConvertSSA of the input is returned (with
    no kernel, LowerDeviceKernelLaunches changes nothing)."""
    from harness.blind_demo import line_package

    inner(mod.clone())
    return line_package().tirx.transform.ConvertSSA()(mod.clone())
''',
        )
    ],
    "blind8-single-function-only": [
        (
            _REF,
            '''

def run(inner, mod):
    """A copy for a module of one function; a module of several written in place."""
    if len(mod.functions_items()) == 1:
        return _input_copy.run(inner, mod)
    return inner(mod)
''',
        )
    ],
    "blind8-copy-only-when-immutable": [
        (
            _REF,
            '''

def run(inner, mod):
    """A copy only under testing.immutable_module; a plain call writes the input."""
    ctx = _input_copy.ir.PassContext.current()
    config = dict(ctx.config.items()) if ctx.config is not None else {}
    if config.get(_input_copy.IMMUTABLE):
        return _input_copy.run(inner, mod)
    return inner(mod)
''',
        )
    ],
}

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
"""Blind round 8 (blind8d): wrong fixes of AnnotateEntryFunc's in-place write (patches/0006),
each the reference fix's ``run`` (the pass on a copy of its input, as ``mod.CopyOnWrite()``
gives the C++ pass) replaced by a ``run`` that models one wrong step of the C++ change in one
of the pass's two writing branches (a module of one function; one public PrimFunc among
several). The pass itself still writes in place the module it is handed. Demos:
demos_round8.py and demos_round8_tirx.py."""

_REF = "run = _input_copy.run  # the pass on a copy of its input"

WRONG_FIXES = {
    "blind8-first-branch-only": "only the one-function branch writes a copy; the branch for one "
    "public PrimFunc among several still writes the caller's module",
    "blind8-second-branch-only": "only the branch for one public PrimFunc among several writes a "
    "copy; a module of one function is still written in place",
    "blind8-entry-only-module": "the second branch returns with_annotations itself (mod = "
    "with_annotations): the private functions and the module attributes are dropped",
    "blind8-functions-only-copy": "the copy written is IRModule(mod->functions): the module's "
    "attributes and global infos are lost when the entry is marked",
    "blind8-copy-discarded-single": "the one-function branch annotates a local copy "
    "(IRModule copy = mod; copy.CopyOnWrite()->Update) and returns mod: no mark at all",
    "blind8-copy-discarded-multi": "the second branch annotates a local copy and returns mod: "
    "one public PrimFunc among private ones is never marked",
    "blind8-write-outside-guard": "the second branch's copy is written before the check that "
    "exactly one public PrimFunc exists: every public PrimFunc of a module of several is marked",
}

EDITS = {
    "blind8-first-branch-only": [
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
    "blind8-second-branch-only": [
        (
            _REF,
            '''

def run(inner, mod):
    """A module of one function written in place; a copy for a module of several."""
    if len(mod.functions_items()) == 1:
        return inner(mod)
    return _input_copy.run(inner, mod)
''',
        )
    ],
    "blind8-entry-only-module": [
        (
            _REF,
            '''

def run(inner, mod):
    """A module of several: the output is only the function the pass marked."""
    out = _input_copy.run(inner, mod)
    if len(mod.functions_items()) == 1:
        return out
    marked = {gv: f for gv, f in out.functions_items() if not f.same_as(mod[gv.name_hint])}
    return type(mod)(marked) if marked else out
''',
        )
    ],
    "blind8-functions-only-copy": [
        (
            _REF,
            '''

def run(inner, mod):
    """When the pass marks a function, it writes IRModule(mod->functions)."""
    out = _input_copy.run(inner, mod)
    if all(f.same_as(mod[gv.name_hint]) for gv, f in out.functions_items()):
        return out
    return inner(type(mod)(dict(mod.functions_items())))
''',
        )
    ],
    "blind8-copy-discarded-single": [
        (
            _REF,
            '''

def run(inner, mod):
    """A module of one function: the mark goes to a dropped copy, the input comes back."""
    if len(mod.functions_items()) == 1:
        inner(mod.clone())
        return mod
    return _input_copy.run(inner, mod)
''',
        )
    ],
    "blind8-copy-discarded-multi": [
        (
            _REF,
            '''

def run(inner, mod):
    """A module of several: the mark goes to a dropped copy, the input comes back."""
    if len(mod.functions_items()) != 1:
        inner(mod.clone())
        return mod
    return _input_copy.run(inner, mod)
''',
        )
    ],
    "blind8-write-outside-guard": [
        (
            _REF,
            '''

def run(inner, mod):
    """A module of several: every public PrimFunc marked, whether or not it is the only one
    (with_annotations written before the check)."""
    if len(mod.functions_items()) == 1:
        return _input_copy.run(inner, mod)
    from harness.tvm_line import ir

    out = mod.clone()
    for gvar, func in mod.functions_items():
        public = func.attrs is not None and "global_symbol" in func.attrs
        if public and isinstance(func, ir.PrimFunc):
            out.update_func(gvar, func.with_attr("tirx.is_entry_func", True))
    return out
''',
        )
    ],
}

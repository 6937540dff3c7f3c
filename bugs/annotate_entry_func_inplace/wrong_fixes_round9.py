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
"""Blind round 9 (blind9d): wrong fixes of annotate_entry_func_inplace. The reference fix's
``run`` (the pass on a copy of its input, as ``mod.CopyOnWrite()`` before the write in each
branch) is replaced by one that models a C++ patch making one mistake in that step (demos:
demos_round9.py, demos_round9_tirx.py). ``inner`` is the unfixed pass: it writes the module
it is given; its first branch is a module of one function, its second one of several."""

_OLD = "run = _input_copy.run  # the pass on a copy of its input"

# CopyOnWrite in the one-function branch only: the several-function branch writes the input
_MULTI_IN_PLACE = """
def run(inner, mod):
    if len(mod.functions) == 1:
        return _input_copy.run(inner, mod)
    return inner(mod)
"""

# CopyOnWrite in the several-function branch only: the one-function branch writes the input
_SINGLE_IN_PLACE = """
def run(inner, mod):
    if len(mod.functions) == 1:
        return inner(mod)
    return _input_copy.run(inner, mod)
"""

# the one-function branch writes a copy, and returns the input (unmarked)
_SINGLE_RETURNS_INPUT = """
def run(inner, mod):
    out = _input_copy.run(inner, mod)
    return mod if len(mod.functions) == 1 else out
"""

# the several-function branch returns with_annotations (a new module) instead of a copy of
# the input updated with it: the private functions and the module's attributes are lost
_MULTI_RETURNS_ANNOTATIONS = """
def run(inner, mod):
    out = _input_copy.run(inner, mod)
    if len(mod.functions) == 1:
        return out
    marked = {g: f for g, f in out.functions.items() if not f.same_as(mod[g])}
    return type(mod)(marked) if marked else out
"""

# the copy is a new module of the input's functions and global infos, not its attributes
_NO_ATTRS = """
def run(inner, mod):
    return inner(type(mod)(mod.functions, global_infos=mod.global_infos))
"""

# the copy is a new module of the input's functions and attributes, not its global infos
_NO_GLOBAL_INFOS = """
def run(inner, mod):
    return inner(type(mod)(mod.functions, attrs=mod.attrs))
"""

# the copy is taken only under testing.immutable_module; otherwise the input is written
_ONLY_IMMUTABLE = """
def run(inner, mod):
    from harness.tvm_line import ir

    config = ir.PassContext.current().config
    if config is not None and config.get(_input_copy.IMMUTABLE):
        return _input_copy.run(inner, mod)
    return inner(mod)
"""

WRONG_FIXES = {
    "blind9-multi-in-place": "only the one-function branch copies; the other writes the input",
    "blind9-single-in-place": "only the several-function branch copies; the other writes the input",
    "blind9-single-returns-input": "the one-function branch writes a copy but returns the input",
    "blind9-multi-returns-annotations": "the several-function branch returns with_annotations",
    "blind9-copy-drops-attrs": "the copy is IRModule(functions, global_infos): attrs lost",
    "blind9-copy-drops-global-infos": "the copy is IRModule(functions, attrs): global infos lost",
    "blind9-only-immutable": "the copy is taken only under testing.immutable_module",
}

EDITS = {
    "blind9-multi-in-place": [(_OLD, _MULTI_IN_PLACE)],
    "blind9-single-in-place": [(_OLD, _SINGLE_IN_PLACE)],
    "blind9-single-returns-input": [(_OLD, _SINGLE_RETURNS_INPUT)],
    "blind9-multi-returns-annotations": [(_OLD, _MULTI_RETURNS_ANNOTATIONS)],
    "blind9-copy-drops-attrs": [(_OLD, _NO_ATTRS)],
    "blind9-copy-drops-global-infos": [(_OLD, _NO_GLOBAL_INFOS)],
    "blind9-only-immutable": [(_OLD, _ONLY_IMMUTABLE)],
}

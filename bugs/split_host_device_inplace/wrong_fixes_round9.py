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
"""Blind round 9 (blind9d): wrong fixes of split_host_device_inplace. The reference fix's
``run`` (the pass on a copy of its input, as ``mod.CopyOnWrite()`` before the first write) is
replaced by one that models a C++ patch making one mistake in that step (demos:
demos_round9.py, demos_round9_tirx.py). ``inner`` is the unfixed pass: it writes the module
it is given."""

_OLD = "run = _input_copy.run  # the pass on a copy of its input"

# the host functions written into the caller's module, the copy taken before the kernels
_HOST_FIRST = """
def run(inner, mod):
    out = _input_copy.run(inner, mod)
    for gvar, func in list(mod.functions.items()):
        if not out[gvar].same_as(func):
            mod.update_func(gvar, out[gvar])
    return out
"""

# the kernels written into the caller's module, the copy taken before the host functions
_KERNELS_FIRST = """
def run(inner, mod):
    out = _input_copy.run(inner, mod)
    for gvar, func in list(out.functions.items()):
        if gvar not in mod.functions:
            mod.update_func(gvar, func)
    return out
"""

# CopyOnWrite only after both writes: the caller's module holds both
_AFTER_WRITES = """
def run(inner, mod):
    out = _input_copy.run(inner, mod)
    for gvar, func in list(out.functions.items()):
        mod.update_func(gvar, func)
    return out
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

# the writes go to a copy, but ConvertSSA and the launches' lowering run on the input
_INPUT_LOWERED = """
def run(inner, mod):
    from harness.tvm_line import ir

    _input_copy.run(inner, mod)
    return ir.transform.ConvertSSA()(mod)
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
    "blind9-host-written-first": "host functions written to the input, copy taken before kernels",
    "blind9-kernels-written-first": "kernels written to the input, copy taken before host updates",
    "blind9-copy-after-writes": "CopyOnWrite called after both Updates, before ConvertSSA",
    "blind9-copy-drops-attrs": "the copy is IRModule(functions, global_infos): attrs lost",
    "blind9-copy-drops-global-infos": "the copy is IRModule(functions, attrs): global infos lost",
    "blind9-input-lowered": "writes go to a copy, but ConvertSSA and the return use the input",
    "blind9-only-immutable": "the copy is taken only under testing.immutable_module",
}

EDITS = {
    "blind9-host-written-first": [(_OLD, _HOST_FIRST)],
    "blind9-kernels-written-first": [(_OLD, _KERNELS_FIRST)],
    "blind9-copy-after-writes": [(_OLD, _AFTER_WRITES)],
    "blind9-copy-drops-attrs": [(_OLD, _NO_ATTRS)],
    "blind9-copy-drops-global-infos": [(_OLD, _NO_GLOBAL_INFOS)],
    "blind9-input-lowered": [(_OLD, _INPUT_LOWERED)],
    "blind9-only-immutable": [(_OLD, _ONLY_IMMUTABLE)],
}

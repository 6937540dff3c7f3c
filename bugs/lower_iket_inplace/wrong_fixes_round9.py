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
"""Blind round 9 (blind9d): wrong fixes of lower_iket_inplace, each the reference fix's ``run``
with one step of patches/0010 changed (demos: demos_round9.py, demos_round9_tirx.py). The
reference fix's ``enabled`` is IketEnabled, which the patch leaves alone; its stripping branch
writes each lowered function into ``result``, the module ``module.CopyOnWrite()`` gives."""

_STRIP_COPY = "    result = mod.clone()\n"
_LOOP = "    for gvar, func in mod.functions.items():\n        if isinstance(func, ir.PrimFunc):\n"
_INSTRUMENT = "        return _input_copy.run(inner, mod)\n"

WRONG_FIXES = {
    "blind9-strip-writes-input": "strip loop iterates a handle but writes module->Update, no copy",
    "blind9-instrument-writes-input": "the instrumenting branch still writes module->Update",
    "blind9-copy-per-kernel": "the copy is taken inside the strip loop: only the last write kept",
    "blind9-strip-returns-input": "the strip loop writes the copy but returns the input module",
    "blind9-strip-copy-drops-attrs": "the stripped module is IRModule(functions): attrs lost",
    "blind9-instrument-copy-drops-attrs": "the instrumented module is IRModule(functions)",
    "blind9-only-immutable": "the copy is taken only under testing.immutable_module",
}

EDITS = {
    "blind9-strip-writes-input": [(_STRIP_COPY, "    result = mod\n")],
    "blind9-instrument-writes-input": [(_INSTRUMENT, "        return inner(mod)\n")],
    "blind9-copy-per-kernel": [
        (
            _STRIP_COPY + _LOOP,
            "    result = mod\n" + _LOOP + "            result = mod.clone()\n",
        )
    ],
    "blind9-strip-returns-input": [("    return result\n", "    return mod\n")],
    "blind9-strip-copy-drops-attrs": [
        (_STRIP_COPY, "    result = type(mod)(mod.functions, global_infos=mod.global_infos)\n")
    ],
    "blind9-instrument-copy-drops-attrs": [
        (
            _INSTRUMENT,
            "        out = _input_copy.run(inner, mod)\n"
            "        return type(mod)(out.functions, global_infos=out.global_infos)\n",
        )
    ],
    "blind9-only-immutable": [
        (
            "    if enabled(mod):\n" + _INSTRUMENT + _STRIP_COPY,
            "    config = ir.PassContext.current().config\n"
            "    immutable = config is not None and config.get(_input_copy.IMMUTABLE)\n"
            "    if enabled(mod):\n"
            "        return _input_copy.run(inner, mod) if immutable else inner(mod)\n"
            "    result = mod.clone() if immutable else mod\n",
        )
    ],
}

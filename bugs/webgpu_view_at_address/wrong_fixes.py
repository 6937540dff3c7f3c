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
"""Wrong fixes of the webgpu_view_at_address report: variants of its reference fix.

Each is the text of bugs/webgpu_view_at_address/reference_fix.py with one step changed (which
views name a storage array, where the refusal is decided, the error it raises;
harness/wrong_fixes.py: EDITS). A view the wrong fix leaves alone keeps the released error, as
the C++ it models would; one it refuses that the released generator compiles is refused before
the build runs, as a narrower C++ check would refuse it when the generator reaches it.
"""

WRONG_FIXES = {
    "variable-only": "only a variable names a storage array: a view over buffer_data of an "
    "allocation (or of another view) is refused",
    "parameters-only": "only the kernel's parameters name storage arrays: a view of a shared "
    "allocation is refused",
    "array-start-allowed": "a view at the address of element 0 counts as the array itself and "
    "is let through, where the generator still cannot print it",
    "checked-at-load": "the view is refused where it is loaded, not where it is declared: a "
    "view that is only written keeps the TypeError",
    "type-error": "the refusal is a TypeError with the new message, not a ValueError",
    "view-not-named": "the ValueError names neither the view nor its data",
}

_BUILD = "        try:\n            return original(mod, target)"
_RAISE = "            raise ValueError(refusal_message(*refused)) from None"


def _refusing_first(names):
    """The edit that refuses, before the build, the first view of a kernel whose data
    ``names`` (the text of a predicate of ``data``, ``params`` the kernel's parameters) does
    not accept."""
    return (
        _BUILD,
        "        for _, func in mod.functions.items():\n"
        "            if isinstance(func, ir.PrimFunc):\n"
        "                params = list(func.params)\n"
        f"                found = refusal_in(func, lambda data, params=params: {names})\n"
        "                if found:\n"
        "                    raise ValueError(refusal_message(*found[0]))\n" + _BUILD,
    )


EDITS = {
    "variable-only": [_refusing_first("isinstance(data, ir.Var)")],
    "parameters-only": [
        _refusing_first(
            "names_storage(data) and any((data if isinstance(data, ir.Var) else "
            "data.args[0]).same_as(p) for p in params)"
        )
    ],
    "array-start-allowed": [
        (
            "    if isinstance(data, ir.Var):\n        return True\n",
            "    if isinstance(data, ir.Var):\n        return True\n"
            '    if isinstance(data, ir.Call) and data.op.name == "tirx.address_of":\n'
            "        return all(isinstance(i, ir.IntImm) and int(i) == 0 for i in "
            "data.args[0].indices)\n",
        )
    ],
    # the first refusal stands only where a kernel loads from the view
    "checked-at-load": [
        ("ir, scope_of, walk", "ir, loaded, scope_of, walk"),
        (
            "            if found:\n                return found[0]",
            "            if found:\n"
            "                view, seen = found[0][0], []\n"
            "                for _, kernel in mod.functions.items():\n"
            "                    if isinstance(kernel, ir.PrimFunc):\n"
            '                        walk(kernel.body, lambda n: seen.append(n), order="pre")\n'
            "                loads = [loaded(n) for n in seen if isinstance(n, ir.LOADS)]\n"
            "                hit = any(v is not None and view.same_as(v) for v in loads)\n"
            "                return found[0] if hit else None",
        ),
    ],
    "type-error": [(_RAISE, _RAISE.replace("ValueError", "TypeError"))],
    "view-not-named": [
        (
            _RAISE,
            "            raise ValueError(\n"
            '                "CodeGenWebGPU: WGSL has no pointer casts; "\n'
            '                "access the array directly"\n'
            "            ) from None",
        )
    ],
}

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
"""Second blind round: wrong fixes of printer_param_data (patch 0008).

Each is the text of the reference fix with one mistake in one step of its rule
(harness/wrong_fixes.py: EDITS): which definitions are scalar names (DefineScalarName), which
printed names it undoes the shorthand of, per function or not. Three more of the round
(blind2-no-alloc-scalar, blind2-no-index-check, blind2-repr-fallback) are killed on the proof
side only and named in docs/proof.md.
"""

from bugs.printer_param_data.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind2-no-decl-scalar": "the scalar-syntax calls miss T.decl_scalar: a one-element "
    "decl_buffer of a parameter's data (FlattenBuffer's output) is printed A_1[0], "
    "which does not parse",
    "blind2-main-buffer-attr": "undoes the data shorthand only for main's spelling A.buffer, not "
    "0.27's A.source: A.source.data stays",
    "blind2-union-shorthand": "takes the shorthand buffers of the whole module for every function: "
    "a scalar parameter in another function named like a one-element buffer gets [0]",
    "blind2-module-scalar-names": "collects the scalar names over the whole printed module: a "
    "one-element parameter named like another function's cell keeps the shorthand",
    "blind2-subscripted-kept": "does not leave out names printed subscripted: a one-element "
    "decl_buffer (layout=None) of a parameter prints A_1[0][0]",
}

_NAMES = "    names -= scalar_names(func) | subscripted"

EDITS = {
    "blind2-no-decl-scalar": FIRST["blind-no-decl-scalar"],
    "blind2-main-buffer-attr": [
        ('BUFFER_ATTRS = {"source", "buffer"}', 'BUFFER_ATTRS = {"buffer"}')
    ],
    "blind2-union-shorthand": [
        (
            "    return {name: shorthand_buffers(func) for name, func in functions(obj).items()}",
            "    union = set().union(*(shorthand_buffers(f) for f in functions(obj).values()))\n"
            "    return {name: union for name in functions(obj)}",
        )
    ],
    # the scalar names of the whole printed module, each function's edits leave out
    "blind2-module-scalar-names": [
        (_NAMES, "    names -= scalar_names(_TREE) | subscripted"),
        (
            'as Python: {err}") from None\n',
            'as Python: {err}") from None\n    global _TREE\n    _TREE = tree\n',
        ),
    ],
    "blind2-subscripted-kept": [(_NAMES, "    names -= scalar_names(func)")],
}

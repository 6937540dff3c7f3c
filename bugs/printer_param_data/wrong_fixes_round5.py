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
"""Blind round 5 wrong fixes of the printer_param_data reference fix (patch 0008), each the
reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind5-param-no-decl-scalar": "DefineScalarName is called in the alloc_buffer branch of "
    "BufferDecl but not the decl_scalar one: a T.decl_scalar view's loads print as `B[0]`",
    "blind5-param-names-module-wide": "the scalar names are collected over the whole module, "
    "not per function: a cell `c` of one function keeps a parameter `c` of another shorthand",
    "blind5-param-shorthand-first-function": "the one-element buffers are taken from the "
    "module's first function for every function, so a later function's parameter stays "
    "shorthand",
    "blind5-param-no-suffix-base": "a printed name is matched to the IR's buffer names as "
    "printed, without the printer's `_1` suffix: a match_buffer `A` that shadows a parameter "
    "`A` (printed A_1) keeps its shorthand store",
    "blind5-param-shadow-base": "the scalar names are compared by their base name, so a cell "
    "printed `A_1` that shadows a parameter `A` makes the parameter a scalar name too",
    "blind5-param-no-lost-index-check": "a one-element parameter indexed by a loop variable is "
    "printed `A[0]` (the index the wheel dropped) instead of refused",
    "blind5-param-loads-in-assignments-only": "a load is undone only inside an assignment's "
    "value: a parameter read in an if condition or a call argument stays a bare name",
    "blind5-param-attr-buffer-only": "the buffer attribute undone is main's `.buffer` only, "
    "not 0.27's `.source`: `A.source.data` of a one-element parameter stays",
}

UNSEEN = {
    "blind5-param-no-lost-index-check": "as round 2's blind2-no-index-check: it differs only "
    "where the stand-in refuses (a one-element buffer read at a non-constant index), which the "
    "C++ prints with its index, so an upstream test of that program fails under the reference "
    "fix (proof: the four printing entry points of "
    "test_parameter_indexed_by_a_loop_variable_is_not_printed_as_another_program kill it)",
}


EDITS = {
    "blind5-param-no-decl-scalar": [(', "decl_scalar"}', "}")],
    "blind5-param-names-module-wide": [
        ("def edits(func, shorthand):", "def edits(func, shorthand, scalar):"),
        ("names -= scalar_names(func) |", "names -= scalar |"),
        (
            "edits(func, shorthand[name])",
            "edits(func, shorthand[name], scalar_names(tree))  # every function's",
        ),
    ],
    "blind5-param-shorthand-first-function": [
        (
            "shorthand_buffers(func) for",
            "shorthand_buffers(next(iter(functions(obj).values()))) for",
        )
    ],
    "blind5-param-no-suffix-base": [(" or _base(n) in shorthand}", "}")],
    "blind5-param-shadow-base": [
        (
            "scalar_names(func) |",
            "scalar_names(func) | {_base(s) for s in scalar_names(func)} |",
        )
    ],
    "blind5-param-no-lost-index-check": [("indexed_shorthand(funcs[name])", "set()")],
    "blind5-param-loads-in-assignments-only": [
        (
            "id(node) not in attrs and",
            "id(node) not in attrs and id(node) in {id(n) for a in ast.walk(func) "
            "if isinstance(a, ast.Assign) for n in ast.walk(a.value)} and",
        )
    ],
    "blind5-param-attr-buffer-only": [('{"source", "buffer"}', '{"buffer"}')],
}

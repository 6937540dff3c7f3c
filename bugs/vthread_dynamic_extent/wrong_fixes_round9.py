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
"""Round 9 blind wrong fixes of the vthread_dynamic_extent report.

Each is the reference fix (patch 0013: InjectVirtualThread refuses a virtual thread whose extent
is not a constant) with one step of the C++ change done wrong.
"""

WRONG_FIXES = {
    "blind9-vt-outermost": "checks the extent before visiting the body: the outermost of nested "
    "non-constant virtual threads is named, not the innermost the pass reaches first",
    "blind9-vt-var-name": "the message names the IterVar's variable (iv->var) instead of its "
    "thread tag",
    "blind9-vt-int32-only": "accepts only an int32 IntImm as constant: a constant extent of "
    "another integer type (int64) is refused",
    "blind9-vt-simplify": "simplifies the extent first and injects it when that folds to a "
    "constant, instead of refusing an extent that is no IntImm",
    "blind9-vt-fallback-one": "injects one virtual thread for a non-constant extent instead of "
    "refusing it",
    "blind9-vt-internal-error": "uses TVM_FFI_ICHECK (an InternalError) instead of a ValueError",
}

_RUN = '''def run(inner, mod):
    """The released pass ``inner`` on ``mod`` as the C++ fix runs it."""
    check(mod)
    return inner(mod)'''


def _run_replacing(value):
    """The reference ``run`` with each virtual thread extent that is no IntImm replaced by
    ``value`` (an expression of ``extent``) before the released pass, instead of refused."""
    return f'''def run(inner, mod):
    """The released pass ``inner`` on ``mod`` as the wrong fix runs it."""
    from tvm.sym.analyzer import Analyzer

    def on_stmt(stmt, mutator):
        stmt = mutator.default_mutate(stmt)
        if not isinstance(stmt, tirx.AttrStmt) or stmt.attr_key != ATTR:
            return stmt
        if isinstance(stmt.value, tirx.IntImm):
            return stmt
        extent = stmt.value
        value = {value}
        return tirx.AttrStmt(stmt.node, stmt.attr_key, value, stmt.body)

    funcs = {{}}
    for gvar, func in mod.functions.items():
        if isinstance(func, tirx.PrimFunc):
            body = tvm_ffi.structural_mutate(func.body, (tirx.Stmt, on_stmt))
            funcs[gvar] = func.with_body(body)
    mod = mod.clone()
    for gvar, func in funcs.items():
        mod.update_func(gvar, func)
    # an extent still not constant would reach the released pass's null cast (the README's
    # convention: raise instead of killing the process)
    if first_stop(mod, lambda a: a.attr_key == ATTR and not isinstance(a.value, tirx.IntImm)):
        raise RuntimeError("the released pass would crash here")
    return inner(mod)'''


_CHECK = "raise ValueError(message(attr.node.thread_tag, attr.value))"

EDITS = {
    "blind9-vt-outermost": [
        ('[(tirx.AttrStmt, visit)], order="post")', '[(tirx.AttrStmt, visit)], order="pre")')
    ],
    "blind9-vt-var-name": [(_CHECK, "raise ValueError(message(attr.node.var, attr.value))")],
    "blind9-vt-int32-only": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            'or not isinstance(attr.value, tirx.IntImm) or str(attr.value.ty) != "int32"',
        )
    ],
    "blind9-vt-simplify": [(_RUN, _run_replacing("Analyzer().simplify(extent)"))],
    "blind9-vt-fallback-one": [(_RUN, _run_replacing("tirx.IntImm(str(extent.ty), 1)"))],
    "blind9-vt-internal-error": [
        (_CHECK, "raise tvm.error.InternalError(message(attr.node.thread_tag, attr.value))")
    ],
}

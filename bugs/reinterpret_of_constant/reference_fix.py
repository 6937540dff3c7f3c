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
"""Reference fix for the reinterpret-of-a-constant report (CodeGenC).

The bug. ``CodeGenC::VisitExpr_(const CallNode*)``, the ``builtin::reinterpret()`` branch of a
value (neither side a pointer), prints ``(*(T *)(&(rhs)))`` with ``rhs = SSAGetID(PrintExpr(
arg))`` and counts on ``rhs`` being an lvalue. ``SSAGetID`` hands back unchanged a text the
code generator marked constant (``MarkConst``: CodeGenC's int32, float32 and float64
literals, CUDA's ``CUDART_INF_F``/``CUDART_NAN_F``), so a reinterpret of such a constant takes
the address of a literal: ``*(uint *)(&(2.000000e+00f))``, which no C, OpenCL or CUDA compiler
accepts. Every code generator that reaches that branch with a value is affected: C (the "c"
target's host code), OpenCL, CUDA (its own branch handles pointers and float4 and hands every
other value to CodeGenC) and Trainium; Metal (``as_type``) and WebGPU (``bitcast``) print
value reinterprets themselves.

Upstream change (patch 0012): in that branch, an argument that is a constant (``IntImm``,
``FloatImm``) is printed into a fresh temporary of its own type (the source type), whose
address is taken: ``float v_ = 2.000000e+00f; ... (*(uint *)(&(v_)))``. Everything else is
as before: other arguments go through ``SSAGetID`` (a variable stays itself, any other
expression gets a temporary), pointer reinterprets are untouched, the target may have vector
lanes (``uint8x4`` of an int32 constant).

This module does the same on the released wheel, deciding from the IR: a stand-in for the
build functions of those targets (``target.build.c``, ``.opencl``, ``.cuda``, ``.trn``, which
``tvm.compile`` and tvm-tirx's ``codegen.Build`` look up at each build) rewrites each
function of the module it is given before calling TVM's: every statement whose own
expressions hold ``reinterpret(T, c)`` of a constant ``c`` (T a value type) is preceded by
``Bind(v, c)`` of a fresh variable ``v`` of the constant's type, and the reinterpret takes
``v``. CodeGenC prints that binding as ``float v = 2.000000e+00f;`` before the statement, and
the reinterpret of a variable as ``(*(uint *)(&(v)))``: the lines the patched code generator
prints, up to the temporary's name. (The C++ temporary is printed where the expression is, so
inside a ``while`` loop for its condition, where the binding comes before the loop: a constant
has the same value there.) ``install()`` returns the undo function; installing twice is a
no-op; ``unfixed()`` is a context manager that builds without the rewrite meanwhile, for
no-regression comparisons.
"""

import contextlib

import tvm_ffi

from harness.tvm_line import call_like, ir, walk

# the build functions whose code generator prints a value reinterpret with CodeGenC's branch
BUILDS = ("target.build.c", "target.build.opencl", "target.build.cuda", "target.build.trn")
REINTERPRET = "tirx.reinterpret"
FLOAT_IMM = type(ir.const(0.5, "float32"))
CONSTANTS = (ir.IntImm, FLOAT_IMM)
_WRAPPED = {}  # build function name -> TVM's, while installed
_active = [True]  # False inside unfixed()


def is_constant(expr):
    """Whether ``expr`` is a literal that CodeGenC may print as it is (no lvalue)."""
    return isinstance(expr, CONSTANTS)


def is_value_reinterpret_of_constant(call):
    """Whether ``call`` is ``reinterpret(T, c)`` of a constant ``c`` to a value type ``T``."""
    return (
        isinstance(call, ir.Call)
        and isinstance(call.op, ir.Op)
        and call.op.name == REINTERPRET
        and isinstance(call.ty, ir.PrimType)
        and len(call.args) == 1
        and is_constant(call.args[0])
    )


def temporary_for(call):
    """(the fresh variable the constant of ``call`` is stored in, the value bound to it): of
    the constant's own type, the source type."""
    constant = call.args[0]
    return ir.Var("v", constant.ty), constant


def _contains_one(node):
    def visit(call):
        return tvm_ffi.VisitInterrupt(call) if is_value_reinterpret_of_constant(call) else None

    return walk(node, (ir.Call, visit), order="pre") is not None


def _with_temporaries(stmt):
    """``stmt`` preceded by a binding per reinterpret of a constant in its own expressions
    (its inner statements are done first: none is left there)."""
    if isinstance(stmt, ir.SeqStmt) or not _contains_one(stmt):
        return stmt
    bindings = []

    def on_call(call):
        if not is_value_reinterpret_of_constant(call):
            return call
        var, value = temporary_for(call)
        bindings.append(ir.Bind(var, value))
        return call_like(call, [var])

    rewritten = tvm_ffi.structural_map(stmt, (ir.Call, on_call))
    return ir.SeqStmt([*bindings, rewritten])


def rewrite_function(func):
    """``func`` with every reinterpret of a constant taking a temporary of its own type."""
    if not isinstance(func, ir.PrimFunc) or not _contains_one(func.body):
        return func
    body = tvm_ffi.structural_map(func.body, (ir.Stmt, _with_temporaries))
    return func.with_body(body)


def rewrite_module(mod):
    """A copy of ``mod`` whose functions went through ``rewrite_function``; ``mod`` itself when
    none changes."""
    updates = {}
    for gvar, func in mod.functions.items():
        new = rewrite_function(func)
        if not new.same_as(func):
            updates[gvar] = new
    if not updates:
        return mod
    mod = mod.clone()  # the build must not change the module it is given
    for gvar, func in updates.items():
        mod.update_func(gvar, func)
    return mod


def _stand_in(build):
    def build_with_temporaries(mod, target):
        return build(rewrite_module(mod) if _active[0] else mod, target)

    return build_with_temporaries


def install():
    """Wrap the build functions of ``BUILDS`` this TVM has; return the undo function."""
    saved = {}
    for name in BUILDS:
        build = tvm_ffi.get_global_func(name, allow_missing=True)
        if build is None or name in _WRAPPED:
            continue
        saved[name] = _WRAPPED[name] = build
        tvm_ffi.register_global_func(name, _stand_in(build), override=True)

    def uninstall():
        for name, build in saved.items():
            tvm_ffi.register_global_func(name, build, override=True)
            del _WRAPPED[name]

    return uninstall


@contextlib.contextmanager
def unfixed():
    """Build as the released TVM does while inside (the stand-ins pass the module through)."""
    _active[0] = False
    try:
        yield
    finally:
        _active[0] = True

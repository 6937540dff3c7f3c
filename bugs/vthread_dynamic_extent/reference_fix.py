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
"""Reference fix: InjectVirtualThread refuses a virtual thread whose extent is not a constant.

The bug. ``VirtualThreadInjector::VisitStmt_(const AttrStmtNode*)``
(``src/s_tir/transform/inject_virtual_thread.cc``) takes the number of virtual threads of a
``virtual_thread`` attribute as ``static_cast<int>(op->value.as<IntImmNode>()->value)``. For an
extent that is no ``IntImm`` (a parameter, an expression, a value read from a buffer) the cast
is null and the pass dies by SIGSEGV, inside ``tvm.compile`` too (s_tir's default pipeline runs
the pass), taking the Python process with it.

Upstream change (patch 0013, the blueprint): test the cast, and for a null one
``TVM_FFI_THROW(ValueError) << "InjectVirtualThread: the virtual thread " << tag << " needs a
constant extent, but its extent is " << extent``. Every tag the attribute carries is checked
(``vthread*``, which may share memory, and ``cthread``), whatever the extent's expression or
integer type; a constant extent of any integer type is injected as before. The mutator visits
an attribute's body before the attribute itself: of nested virtual threads the innermost
non-constant one is named, and the functions are visited in the module's order.

``install()`` wraps the pass constructor ``s_tir.transform._ffi_api.InjectVirtualThread``
(``tvm.s_tir.transform.InjectVirtualThread()`` and s_tir's default pipeline, the Adreno one too,
look it up at each call). The pass it builds is a module pass of the released pass's name, so
that ``disabled_pass`` and the pass instruments treat it as the released one: ``run`` finds the
first non-constant extent, decided from the IR (the attribute key, the node's IterVar, the
extent's node type), raises the C++'s ValueError for it, and otherwise calls the released pass,
which then never reaches the null cast. apache/tvm only: apache/tvm-tirx refuses the same program
with a ValueError of its own.
"""

import tvm_ffi

import tvm
from tvm import tirx
from tvm.s_tir.transform import _ffi_api

# the attribute key of a virtual thread (s_tir::attr::virtual_thread)
ATTR = "virtual_thread"
_MARK = "_vthread_dynamic_extent_fix"


def message(tag, extent):
    """The C++ fix's words for a virtual thread ``tag`` whose extent is ``extent``."""
    return (
        f"InjectVirtualThread: the virtual thread {tag} needs a constant extent, "
        f"but its extent is {extent}"
    )


def offending(attr):
    """Whether the pass stops at the AttrStmt ``attr``: a virtual thread whose extent is not an
    IntImm (one whose node is no IterVar stops it too, in the released pass's own cast)."""
    if attr.attr_key != ATTR:
        return False
    return not isinstance(attr.node, tirx.IterVar) or not isinstance(attr.value, tirx.IntImm)


def first_stop(mod, stops=offending):
    """The first AttrStmt of ``mod`` at which ``stops`` holds, in the pass's order (the
    PrimFuncs in the module's order, each body in post-order); None where there is none."""
    for func in mod.functions.values():
        if not isinstance(func, tirx.PrimFunc):
            continue
        found = []

        def visit(attr, found=found):
            if not found and stops(attr):
                found.append(attr)

        tvm_ffi.structural_walk(func.body, [(tirx.AttrStmt, visit)], order="post")
        if found:
            return found[0]
    return None


def check(mod):
    """Raise the C++ fix's ValueError for the first non-constant virtual thread extent of
    ``mod``; a virtual thread whose node is no IterVar is left to the released pass's error."""
    attr = first_stop(mod)
    if attr is not None and isinstance(attr.node, tirx.IterVar):
        raise ValueError(message(attr.node.thread_tag, attr.value))


def run(inner, mod):
    """The released pass ``inner`` on ``mod`` as the C++ fix runs it."""
    check(mod)
    return inner(mod)


def _constructor(original):
    def InjectVirtualThread():
        inner = original()

        @tvm.transform.module_pass(opt_level=0, name="s_tir.InjectVirtualThread")
        def _checked(mod, _ctx):
            return run(inner, mod)  # looked up at each run: the wrong fixes replace it

        return _checked

    setattr(InjectVirtualThread, _MARK, original)
    return InjectVirtualThread


def released():
    """The released pass constructor, installed or not."""
    current = _ffi_api.InjectVirtualThread
    return getattr(current, _MARK, current)


def install():
    """Make InjectVirtualThread refuse a non-constant extent; return the undo function."""
    saved = _ffi_api.InjectVirtualThread
    if getattr(saved, _MARK, None) is not None:
        return lambda: None
    _ffi_api.InjectVirtualThread = _constructor(saved)

    def uninstall():
        _ffi_api.InjectVirtualThread = saved

    return uninstall

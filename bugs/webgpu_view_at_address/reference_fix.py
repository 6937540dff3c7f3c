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
"""Reference fix: WebGPU refuses a view a kernel declares at an address with a ValueError.

The bug. A buffer a kernel declares over an address expression
(``T.decl_buffer((1,), data=T.address_of(A[0]))``) reaches CodeGenC's generic DeclBuffer
path in CodeGenWebGPU, which prints the view's pointer type as a scalar and stops at the
FFI's ``TypeError: Cannot treat type ir.PointerType as type ir.PrimType``. WGSL has no
pointer casts, so refusing the view is right; the error kind and message are the bug.
apache/tvm-tirx refuses the same view at its own check, a ValueError whose message is the
failed condition over the code generator's ``var_idmap_``.

Upstream change (patch 0015): ``CodeGenWebGPU::VisitStmt_(const DeclBufferNode*)``. A
view whose data is a variable the kernel names, or ``buffer_data`` of one (a parameter, an
allocation, another view), goes to CodeGenC as before; any other data is refused with
``ValueError`` "CodeGenWebGPU: cannot declare buffer <name> over <data>: WGSL has no pointer
casts, ...". Nothing else changes: what compiled compiles, and the refused views were
refused before, with the TypeError.

Here: ``install()`` wraps the registered build function ``target.build.webgpu``. The
wrapper calls the original; where it refuses the module with the error the view raises (on
apache/tvm a TypeError, or for a view of a scope other than global the InternalError of
CodeGenC's storage-scope check, which comes first; on tvm-tirx its own ValueError), the
wrapper walks the kernels in the order the code generator prints them and finds which
refusal the fixed generator meets first: a view over an address (the fix's ValueError,
naming it) or a let-bound pointer (``let`` of a pointer type, which CodeGenWebGPU cannot
print either: the original error stands). A program the original compiles is never touched.
"""

import tvm_ffi

from harness.tvm_line import LINE, WalkResult, ir, scope_of, walk

TARGET = "webgpu"

if LINE == "tvm":
    import tvm

    # the projection of a buffer's data pointer; what the released generator raises there
    DATA_OF = "tirx.buffer_data"
    REFUSED = (TypeError, tvm.error.InternalError)
    VIEW = "buffer"

    def released_error(view):
        """What the released generator raises at ``view`` (CodeGenC's generic DeclBuffer
        path): its storage scope's check for a scope other than global
        (``PrintStorageScope``: InternalError), else the FFI's cast of the pointer type."""
        scope = scope_of(view)
        return tvm.error.InternalError if scope not in ("", "global") else TypeError

    def views(node):
        """(view, its data) of a view declaration ``node``, or None."""
        if isinstance(node, tvm.tirx.DeclBuffer):
            return node.buffer, node.data
        return None

else:
    DATA_OF = "tirx.tensor_data_ptr"
    REFUSED = (ValueError,)
    VIEW = "tensor"

    def released_error(_view):
        """What the released generator raises at a view: its own check, a ValueError."""
        return ValueError

    def views(node):
        """(view, its data) of a view declaration ``node``, or None."""
        if (
            isinstance(node, ir.Bind)
            and isinstance(node.value, ir.Call)
            and node.value.op.name == "tirx.decl_tensor"
        ):
            return node.var, node.value.args[0]
        return None


def names_storage(data):
    """Whether a view's ``data`` is a variable the kernel names or its data projection."""
    if isinstance(data, ir.Var):
        return True
    return (
        isinstance(data, ir.Call)
        and isinstance(data.op, ir.Op)
        and data.op.name == DATA_OF
        and len(data.args) == 1
        and isinstance(data.args[0], ir.Var)
    )


def refusal_in(func, names=None):
    """The first view the fixed generator refuses in the kernel ``func``: ``[(view, data)]`` for
    a view over an address, ``[]`` where there is none. ``names`` decides which data names
    storage (names_storage)."""
    names = names or names_storage
    found = []

    def visit(node):
        if found:
            return WalkResult.SKIP
        view = views(node)
        if view is not None and not names(view[1]):
            found.append(view)
        return WalkResult.ADVANCE

    walk(func.body, visit, order="pre")
    return found


def first_refusal(mod):
    """The view the fixed generator refuses first in ``mod`` (its name and data), or None
    where it finds no such view."""
    for _, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            found = refusal_in(func)
            if found:
                return found[0]
    return None


def refusal_message(view, data):
    """The fix's message for a view ``view`` over ``data`` (a tensor on tvm-tirx)."""
    return (
        f"CodeGenWebGPU: cannot declare {VIEW} {view.name} over {data}: WGSL has no pointer "
        f"casts, so a {VIEW} in a WebGPU kernel can only alias a storage array the kernel "
        "names (a parameter or an allocation); access that array directly instead"
    )


def _fixed_build(original):
    def build(mod, target):
        try:
            return original(mod, target)
        except REFUSED as err:
            refused = first_refusal(mod)
            if refused is None or not isinstance(err, released_error(refused[0])):
                raise
            raise ValueError(refusal_message(*refused)) from None

    return build


def install():
    """Install the fixed build function; return a function that restores the original."""
    name = f"target.build.{TARGET}"
    original = tvm_ffi.get_global_func(name, allow_missing=True)
    if original is None:
        return lambda: None
    tvm_ffi.register_global_func(name, _fixed_build(original), override=True)

    def uninstall():
        tvm_ffi.register_global_func(name, original, override=True)

    return uninstall

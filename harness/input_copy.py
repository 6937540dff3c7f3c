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
"""The module pass on a copy of its input: the reference-fix half shared by the reports of
module passes that change their input in place (this repository only).

A module pass written as ``[](IRModule mod, PassContext ctx) { ...; mod->Update(...); return
mod; }`` writes through ``IRModule::operator->``, which never copies: the caller's module,
still referenced by the caller, is changed with the result. The C++ fix is one call,
``mod.CopyOnWrite()``, before the first write (it copies only when someone else holds the
module). Here the pass's constructor in the line's ``_ffi_api`` is wrapped so that the pass
it builds runs on ``mod.clone()`` (a new module with the same functions, attributes and
global infos): the caller's module is never the one written. The original pass still writes
the copy it is given in place, which a pass instrument observes as its input changing (the
generator's clause (e)); only the caller is shielded, as with the C++ fix. A pass whose
constructor is a global function of the FFI registry only (no ``_ffi_api`` entry: CUDA's
``LowerIket``) is wrapped there instead (``install_on_global``).
"""

import tvm_ffi

from harness.tvm_line import disables, ir

_MARK = "_input_copy_fix"


# the PassContext option under which every pass must leave its input unchanged
IMMUTABLE = "testing.immutable_module"
# the global functions install_on_global has wrapped (a registered Python function keeps no
# attribute of its own to mark it, as on_a_copy's constructors do)
_WRAPPED_GLOBALS = set()


def run(inner, mod):
    """The pass ``inner`` on a copy of ``mod`` (``IRModule::CopyOnWrite``).

    Under ``testing.immutable_module`` the pass infrastructure hashes the input of every pass
    it runs, ``inner``'s too: the copy that ``inner`` writes in place would trip the check
    that the C++ fix passes (its caller's module is never written). ``inner`` then runs in a
    context that is the current one without that option; the wrapping pass, whose input is
    the caller's module, is still checked."""
    ctx = ir.PassContext.current()
    config = dict(ctx.config.items()) if ctx.config is not None else {}
    if not config.get(IMMUTABLE):
        return inner(mod.clone())
    del config[IMMUTABLE]
    unchecked = ir.PassContext(
        opt_level=ctx.opt_level,
        required_pass=list(ctx.required_pass),
        disabled_pass=list(ctx.disabled_pass),
        instruments=list(ctx.instruments),
        config=config,
    )
    with unchecked:
        return inner(mod.clone())


def on_a_copy(original, fix, name):
    """``original`` (a pass constructor of the line's ``_ffi_api``) whose passes run as
    ``fix.run(inner, mod)`` (looked up at each run); ``name`` names the wrapping pass."""

    def constructor(*args, **kwargs):
        inner = original(*args, **kwargs)

        @ir.module_pass(opt_level=0, name=f"reference_fixes.{name}OnACopy")
        def _on_a_copy(mod, ctx):
            if disables(ctx, f"tirx.{name}"):
                return mod
            return fix.run(inner, mod)

        return _on_a_copy

    setattr(constructor, _MARK, True)
    return constructor


def install_on(name, fix):
    """Wrap ``_ffi_api.<name>`` with ``fix.run``; return the undo function (a no-op when
    already wrapped)."""
    ffi = ir.transform_ffi
    saved = getattr(ffi, name)
    if getattr(saved, _MARK, False):
        return lambda: None
    setattr(ffi, name, on_a_copy(saved, fix, name))

    def uninstall():
        setattr(ffi, name, saved)

    return uninstall


def install_on_global(name, fix, label):
    """Wrap the pass constructor registered as the global function ``name`` with ``fix.run``
    (the line's Python wrapper looks it up at each call); ``label`` names the wrapping pass.
    Return the undo function (a no-op when already wrapped)."""
    saved = tvm_ffi.get_global_func(name)
    if name in _WRAPPED_GLOBALS:
        return lambda: None
    tvm_ffi.register_global_func(name, on_a_copy(saved, fix, label), override=True)
    _WRAPPED_GLOBALS.add(name)

    def uninstall():
        tvm_ffi.register_global_func(name, saved, override=True)
        _WRAPPED_GLOBALS.discard(name)

    return uninstall

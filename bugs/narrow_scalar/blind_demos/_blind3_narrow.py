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
"""What the third round's narrow_scalar demos share: the module right after SplitHostDevice.

The module is taken as tvm.compile's pipeline builds it, with the fix under test installed, and
shown by the kernels' signatures and entry bindings and the host's launch calls."""


class _Stop(Exception):
    pass


def after_split(func, target):
    """``func`` compiled for ``target`` up to SplitHostDevice (its output module, as the next
    pass, MakePackedAPI, gets it after LowerIket)."""
    import tvm
    from tvm.ir.instrument import pass_instrument

    seen = {}

    @pass_instrument
    class Catch:
        def run_before_pass(self, mod, info):
            if "MakePackedAPI" in info.name and "mod" not in seen:
                seen["mod"] = mod
                raise _Stop()

    try:
        with tvm.transform.PassContext(instruments=[Catch()]):
            tvm.compile(func, target=target)
    except Exception:  # the instrument's stop arrives wrapped
        if "mod" not in seen:
            raise
    return seen["mod"]


def kernel_lines(mod):
    """The kernels' signatures and entry bindings, and the host's launch calls."""
    lines = []
    for gvar, func in mod.functions.items():
        text = func.script().splitlines()
        lines += [
            x.strip()
            for x in text
            if "def " in x or "call_ffi_kernel" in x or ": T.let[" in x or " = T.Cast(" in x
        ]
    return sorted(lines)

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
"""The modules one pass of a pipeline is handed or hands on, recorded by a pass instrument, for
the proof tests that look at a program where a pass of ``tvm.compile`` meets it: the instrument
(``recorder``), and a compilation under it (``compile_recording``)."""

import tvm


class Stop(Exception):
    """Raised by a recorder made with ``stop=True`` right after it records a module."""


def recorder(pass_name, after=False, stop=False):
    """(a pass instrument, the list it fills): the instrument appends to the list each module
    the pass named ``pass_name`` (a name, or a tuple of names) is given (``after``: each module
    it returns); with ``stop`` it raises Stop right after, so that nothing later in the
    pipeline runs (the exception comes back through the FFI as another one)."""
    names = (pass_name,) if isinstance(pass_name, str) else pass_name
    modules = []

    def record(mod, info):
        if info.name in names:
            modules.append(mod)
            if stop:
                raise Stop

    @tvm.instrument.pass_instrument
    class Record:
        def run_before_pass(self, mod, info):
            if not after:
                record(mod, info)

        def run_after_pass(self, mod, info):
            if after:
                record(mod, info)

    return Record(), modules


def compile_recording(mod, target, pass_name, after=False, stop=False):
    """(the library, the modules recorded): ``tvm.compile(mod, target=target)`` run with
    ``recorder(pass_name, after, stop)`` as its pass context's instrument. With ``stop`` the
    library is None once a module is recorded (the pipeline ends there); an error before that,
    or any error without ``stop``, is raised."""
    record, modules = recorder(pass_name, after, stop)
    with tvm.transform.PassContext(instruments=[record]):
        try:
            return tvm.compile(mod, target=target), modules
        except Exception:  # the Stop, as it comes back through the FFI, or a real error
            if not (stop and modules):
                raise
    return None, modules

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
the proof tests that look at a program where a pass of ``tvm.compile`` meets it."""

import tvm


class Stop(Exception):
    """Raised by a recorder made with ``stop=True`` right after it records a module."""


def recorder(pass_name, after=False, stop=False):
    """(a pass instrument, the list it fills): the instrument appends to the list each module
    the pass named ``pass_name`` is given (``after``: each module it returns); with ``stop`` it
    raises Stop right after, so that nothing later in the pipeline runs (the exception comes
    back through the FFI as another one)."""
    modules = []

    def record(mod, info):
        if info.name == pass_name:
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

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
"""The check both lowering fixes share: a module the fix must leave alone compiles to the
same host LLVM IR and CUDA source with and without it (this repository only)."""

import re

import tvm


def compiled_sources(mod, target):
    """(host LLVM IR, [CUDA sources]) of ``tvm.compile(mod, target)``."""
    lib = tvm.compile(mod, target=target)
    host = re.sub(r"0x[0-9a-f]{8,}", "0x?", lib.mod.inspect_source("ll"))  # TBAA node addresses
    device = [m.inspect_source() for m in lib.mod.imports if m.kind == "cuda"]
    return host, device


def assert_compiled_code_unchanged(mod, target, unfixed):
    """``mod`` compiles alike with the fix installed and inside ``unfixed()``."""
    fixed = compiled_sources(mod, target)
    with unfixed():
        released = compiled_sources(mod, target)
    assert fixed[1] == released[1], "the fix changes the CUDA kernel source"
    assert fixed[0] == released[0], "the fix changes the host LLVM IR"
    if target == "cuda":
        assert fixed[1], "no CUDA kernel was generated"

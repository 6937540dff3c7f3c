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
"""The cell builders of the builder module itself take annotations (proof only).

Patch 0005 gives ``alloc_scalar``, ``local_scalar`` and ``shared_scalar`` of
``python/tvm/tirx/script/builder/ir.py`` an ``annotations`` argument; the dialect ``T`` and
every other module that re-exports them hold the same functions. The reference fix stands in
for that edit by replacing the functions in each module that holds them, and a mutant of
bugs/printer_cell/reference_fix.py (scripts/mutants.py: ``saved[1:]`` -> ``saved[2:]``)
that leaves the first of them, the builder module's own ``alloc_scalar``, unreplaced survived
every other test: they all call the builders through ``T``. Here a script calls each builder
by the builder module's path, as a script that imports the module may.
"""

import pytest

import tvm
import tvm.testing
import tvm.tirx.script.builder.ir as ir
from tvm.script import tirx as T

# builder -> (its keyword arguments besides the dtype, the scope of the cell it allocates)
BUILDERS = {
    "alloc_scalar-global": ("alloc_scalar", {"scope": "global"}, "global"),
    "alloc_scalar-shared.dyn": ("alloc_scalar", {"scope": "shared.dyn"}, "shared.dyn"),
    "local_scalar": ("local_scalar", {}, "local"),
    "shared_scalar": ("shared_scalar", {}, "shared"),
}


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.DiagnosticError,
    reason="TVMScript scalar sugar's cell builders take no annotations",
)
@pytest.mark.parametrize("builder", BUILDERS)
def test_builder_module_cell_takes_annotations(builder):
    """A cell allocated by the builder module's own function carries its annotations."""
    name, kwargs, scope = BUILDERS[builder]
    make = getattr(ir, name)

    @T.prim_func(private=True)
    def before(x: T.int32):
        c = make("int32", **kwargs, annotations={"note": 1})
        c = x
        T.evaluate(c)

    @T.prim_func(private=True)
    def expected(x: T.int32):
        c = T.alloc_buffer((1,), "int32", scope=scope, annotations={"note": 1})
        c[0] = x
        T.evaluate(c[0])

    tvm.ir.assert_structural_equal(before, expected)


if __name__ == "__main__":
    tvm.testing.main()

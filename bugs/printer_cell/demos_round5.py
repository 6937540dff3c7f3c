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
"""Blind round 5: demos of the printer_cell wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo, message


def cells(*decls):
    """A PrimFunc allocating one one-element cell per ``(dtype, keyword arguments of
    T.alloc_buffer)``, storing 1 into each and evaluating each."""
    import tvm.script

    lines = ["@T.prim_func", "def main(x: T.float32):"]
    for i, (dtype, kwargs) in enumerate(decls):
        lines.append(f'    c{i} = T.alloc_buffer((1,), "{dtype}", {kwargs})')
    for i, (dtype, _) in enumerate(decls):
        lines.append(f"    c{i}[0] = T.{dtype}(1)")
    for i, _ in enumerate(decls):
        lines.append(f"    T.evaluate(c{i}[0])")
    from tvm.script import tirx as T

    return tvm.script.from_source("\n".join(lines) + "\n", extra_vars={"T": T})


def round_trip(**config):
    """Observer: the printed body (printed with ``config``) and whether parsing it back gives
    the function."""

    def observe(func):
        import tvm
        import tvm.script

        text = func.script(**config)
        body = " / ".join(x.rstrip() for x in text.splitlines() if x.startswith(" ") and "c" in x)
        try:
            tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
            verdict = "round-trips"
        except Exception as err:  # the result: where print -> parse differs
            verdict = f"{type(err).__name__}: {message(err)[:160]}"
        return f"{body} || {verdict}"

    return observe


DEMOS = {
    "blind5-cell-scope-ignored": Demo(
        lambda: cells(("float32", 'scope="shared.dyn"')), round_trip()
    ),
    "blind5-cell-annotations-ignored": Demo(
        lambda: cells(("int8", 'scope="local", annotations={"pragma_x": 7}')), round_trip()
    ),
    "blind5-cell-tagged-local": Demo(lambda: cells(("float32", 'scope="local.L0A"')), round_trip()),
    "blind5-cell-builder-drops-annotations": Demo(
        lambda: cells(("float32", 'scope="global", annotations={"device_type": 1}')),
        round_trip(),
    ),
    "blind5-cell-shared-drops-annotations": Demo(
        lambda: cells(("float16", 'scope="shared", annotations={"device_type": 1}')),
        round_trip(),
    ),
    "blind5-cell-p2-first-cell-only": Demo(
        lambda: cells(
            ("float32", 'scope="local", annotations={"device_type": 1}'),
            ("int32", 'scope="shared"'),
        ),
        round_trip(),
    ),
    "blind5-cell-p2-only-when-unsugared": Demo(
        lambda: cells(("float32", 'scope="local"')), round_trip(syntax_sugar=False)
    ),
    "blind5-cell-config-reset": Demo(
        lambda: cells(("float32", 'scope="local", annotations={"device_type": 1}')),
        round_trip(indent_spaces=2),
    ),
}

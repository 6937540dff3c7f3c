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
"""Round 8 blind demos of the printer's scalar-cell fix: per wrong fix, a function
whose printed cell declaration, or whose print -> parse round trip (the parsed cells' scopes
and annotations, and whether it is the identity), differs from the reference fix's."""

from harness.blind_demo import Demo, from_script, message


def cell(declaration, scalar=False):
    """A builder of a function with one cell ``c`` declared by ``declaration``, stored and
    read (through the scalar it names, ``scalar``, as T.<scope>_scalar declares it)."""
    at = "" if scalar else "[0]"
    return lambda: from_script(
        f"""
@T.prim_func
def main(x: T.float32):
    c = {declaration}
    c{at} = x
    T.evaluate(c{at} + T.float32(1.0))
"""
    )


def cells(func):
    """(scope, annotations) of each allocation of ``func``."""
    from harness.tvm_line import allocation, scope_of, walk

    found = []

    def visit(node):
        alloc = allocation(node)
        if alloc is not None:
            notes = {str(k): str(v) for k, v in (alloc[1] or {}).items()}
            found.append((scope_of(alloc[0]), notes))

    walk(func.body, visit, order="pre")
    return found


def round_trip(func):
    """Observer: the printed declaration of the cell, then the cells parsed back from the
    whole text and whether print -> parse is the identity (or the parse error)."""
    import tvm_ffi

    import tvm

    text = func.script()
    lines = [x.strip() for x in text.splitlines() if x.strip().startswith("c")][:1]
    try:
        parsed = tvm.script.from_source(text)
    except Exception as err:  # the result: an error
        return f"{lines} -> {type(err).__name__}: {message(err)}"
    same = tvm_ffi.structural_equal(func, parsed)
    return f"{lines} -> {cells(parsed)} identity={same}"


DEMOS = {
    # a one-element "shared" cell without annotations
    "blind8-annotations-only": Demo(
        cell('T.alloc_buffer((1,), "float32", scope="shared")'), round_trip
    ),
    # a local cell with an annotation
    "blind8-scope-only": Demo(
        cell('T.alloc_local((1,), "float32", annotations={"device_type": 1})'), round_trip
    ),
    # a one-element "global" cell without annotations
    "blind8-shared-scope-only": Demo(cell('T.alloc_buffer((1,), "float32")'), round_trip),
    # an int32 shared cell: its full declaration names its dtype
    "blind8-dtype-constructor-kept": Demo(
        cell('T.alloc_buffer((1,), "int32", scope="shared")'), round_trip
    ),
    # a one-element "global" cell: T.alloc_scalar's dtype
    "blind8-dtype-string-scoped-only": Demo(cell('T.alloc_buffer((1,), "float16")'), round_trip),
    # the local cell written the way the printer writes it
    "blind8-local-scalar-drops-annotations": Demo(
        cell('T.local_scalar("float32", annotations={"device_type": 1})', True), round_trip
    ),
    # a "global" cell with an annotation, written as T.alloc_scalar
    "blind8-alloc-scalar-drops-annotations": Demo(
        cell('T.alloc_scalar("float32", "global", annotations={"pragma": 1})', True), round_trip
    ),
    # a shared cell with an annotation, written as T.shared_scalar
    "blind8-shared-scalar-local-scope": Demo(
        cell('T.shared_scalar("float32", annotations={"pragma": 1})', True), round_trip
    ),
}

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
"""Round 9 blind demos of the printer_cell report: one function with a one-element
cell per wrong fix, printed and parsed back; the printed body and whether print -> parse kept
the function differ under the reference fix and the wrong fix."""

from harness.blind_demo import Demo, from_script, message


def _cell(decl):
    """A function with the one-element cell ``c = decl`` (TVMScript text) that it stores into
    and reads."""
    return lambda: from_script(
        f"""
@T.prim_func
def main(x: T.float32):
    c = {decl}
    c[0] = x
    T.evaluate(c[0] + T.float32(1.0))
"""
    )


def _round_trip(func):
    """Observer: the printed body of ``func``, and whether parsing it gives ``func`` back."""
    import tvm
    import tvm.script

    text = func.script()
    body = [x for x in text.splitlines() if x.startswith("    ")]
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
        kept = "print -> parse: identical"
    except Exception as err:  # the result: what differs, or why it does not parse
        kept = f"print -> parse: {type(err).__name__}: {message(err)}"
    return "\n".join([*body, kept])


_SHARED = 'T.alloc_buffer((1,), "float32", scope="shared")'
_ANNOTATED_LOCAL = 'T.alloc_local((1,), "float32", annotations={"device_type": 1})'

DEMOS = {
    "blind9-pc-no-scope-check": Demo(_cell(_SHARED), _round_trip),
    "blind9-pc-no-annotation-check": Demo(_cell(_ANNOTATED_LOCAL), _round_trip),
    "blind9-pc-or-condition": Demo(_cell(_SHARED), _round_trip),
    # a global cell (the default scope of T.alloc_buffer)
    "blind9-pc-shared-only": Demo(_cell('T.alloc_buffer((1,), "float32")'), _round_trip),
    "blind9-pc-local-scalar-drops": Demo(_cell(_ANNOTATED_LOCAL), _round_trip),
    "blind9-pc-shared-scalar-drops": Demo(
        _cell('T.alloc_buffer((1,), "float32", scope="shared", annotations={"pragma": 2})'),
        _round_trip,
    ),
    "blind9-pc-alloc-scalar-drops": Demo(
        _cell('T.alloc_buffer((1,), "int8", scope="global", annotations={"pragma": 2})'),
        _round_trip,
    ),
    "blind9-pc-dtype-local-only": Demo(_cell('T.alloc_buffer((1,), "int8")'), _round_trip),
}

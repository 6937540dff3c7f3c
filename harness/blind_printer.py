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
"""What the demos of the TVMScript printer's fixes share (bugs/printer_cell/demos.py,
bugs/printer_param_data/demos.py; apache/tvm): print -> parse observers and a one-cell program."""

import tvm
import tvm.script
from tvm.script import tirx as T


def round_trip(obj, text, typed, width=200):
    """ "print -> parse: identity", or the first ``width`` characters of the first line of what
    differs (or of the parser's error, its type first when ``typed``)."""
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text))
        return "print -> parse: identity"
    except Exception as err:  # a structural difference or the parser's error
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        if typed:
            return f"print -> parse: {type(err).__name__}: {said[0][:width] if said else ''}"
        return "print -> parse: " + said[0][:width]


def printed_body(**config):
    """An observer: the body's printed lines under ``config`` (comments left out), one a line, and
    print -> parse; or the printer's error."""

    def observe(obj):
        try:
            text = obj.script(**config)
        except Exception as err:  # a fix's CannotPrint
            return f"script(): {type(err).__name__}: {str(err).splitlines()[0][:200]}"
        body = [x.strip() for x in text.splitlines() if x.startswith("    ")]
        lines = [x for x in body if not x.startswith("#")]
        return "\n".join([*lines, round_trip(obj, text, typed=True)])

    return observe


def printed_declarations(**config):
    """An observer: the cells' printed declarations under ``config`` and print -> parse."""

    def observe(func):
        text = func.script(**config)
        decls = [x.strip() for x in text.splitlines() if "scalar" in x or ": T." in x][1:]
        return " | ".join(decls) + " || " + round_trip(func, text, typed=False)

    return observe


def as_is(value):
    return value


def one_cell(dtype, scope="local", annotations=None, store=as_is, plus_one=True):
    """A one-element ``dtype`` cell in ``scope`` with ``annotations``, set to ``store(x)`` of the
    parameter x and evaluated (plus one when ``plus_one``)."""
    scalar = getattr(T, dtype)
    one = tvm.tirx.const(1, dtype)
    read = (lambda value: value + one) if plus_one else as_is

    @T.prim_func
    def func(x: scalar):
        c = T.alloc_buffer((1,), dtype, scope=scope, annotations=annotations)
        c[0] = store(x)
        T.evaluate(read(c[0]))

    return lambda: func

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
"""Blind round 8: programs on which AnnotateEntryFunc's reference fix (the pass on a
copy of its input) and each wrong fix of round 8 (wrong_fixes.toml) differ. The program builders
work on both lines (from_script spells the function for the line that runs it):
demos_round8_tirx.py reuses them. The observed result is the caller's module after the call,
the output and its attributes."""

from harness.blind_demo import Demo, from_script, line_package, message

_FUNC = """
@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    A[0] = T.float32(1)
"""


def public(name):
    """A PrimFunc exposed as ``name``."""
    return from_script(_FUNC).with_attr("global_symbol", name)


def private():
    """A PrimFunc without global_symbol."""
    return from_script(_FUNC).without_attr("global_symbol")


def module(**functions):
    return line_package().IRModule(functions)


def after_annotate(mod):
    """The caller's module after AnnotateEntryFunc()(mod), the output and its attributes."""
    tvm = line_package()
    try:
        after = tvm.tirx.transform.AnnotateEntryFunc()(mod)
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    attrs = {} if after.attrs is None else {k: str(v) for k, v in after.attrs.items()}
    return (
        f"input after the call:\n{mod.script()}\noutput:\n{after.script()}\n"
        f"output attrs: {sorted(attrs.items())}"
    )


def demos():
    """The demos (built on the line that runs them)."""
    return {
        "blind8-first-branch-only": Demo(
            lambda: module(main=public("main"), helper=private()), after_annotate
        ),
        "blind8-second-branch-only": Demo(lambda: module(main=public("main")), after_annotate),
        "blind8-entry-only-module": Demo(
            lambda: module(main=public("main"), helper=private()), after_annotate
        ),
        "blind8-functions-only-copy": Demo(
            lambda: module(main=public("main")).with_attr("demo.flag", 7), after_annotate
        ),
        "blind8-copy-discarded-single": Demo(lambda: module(main=private()), after_annotate),
        "blind8-copy-discarded-multi": Demo(
            lambda: module(helper=private(), main=public("main"), other=private()),
            after_annotate,
        ),
        "blind8-write-outside-guard": Demo(
            lambda: module(main=public("main"), second=public("second")), after_annotate
        ),
    }


DEMOS = demos()

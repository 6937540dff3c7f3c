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
"""Wrong fixes of the LowerIket-changes-its-input report, each the reference fix's own text
(bugs/lower_iket_inplace/reference_fix.py) with one step changed (harness/wrong_fixes.py: EDITS).

The later rounds' modules (wrong_fixes_round*.py) are written the same way: each of their wrong
fixes is the reference fix's text with one step changed, these edits (or an earlier round's)
where the mistake is the same, and the steps named below.
"""

WRONG_FIXES = {
    "copy-on-write-only": "CopyOnWrite before each write (as SplitHostDevice's fix), the loop "
    "still iterates the map it writes: where the pass holds the only reference (tvm.compile) a "
    "module of several marked kernels keeps the marks of all but the first",
    "strip-branch-only": "CopyOnWrite in the stripping loop only: an IKET-enabled module is "
    "still instrumented in place",
    "instrument-branch-only": "CopyOnWrite where the instrumented kernels are written only: "
    "the stripped functions still go into the given module",
    "copy-drops-module-attributes": "the copy is a new module of the same functions: the "
    "module's attributes and global infos are lost in the output",
    "blind-enabled-by-attribute-only": (
        "decides the branch from the module attribute alone, forgetting the run-iket child's "
        "environment: there each kernel is instrumented alone"
    ),
    "blind-enabled-copy-after-write": (
        "with IKET enabled, the pass runs on the input and the copy is taken of its result "
        "(copied after the write)"
    ),
    "blind-alone-under-immutable-option": (
        "runs each function's module through the pass without lifting testing.immutable_module: "
        "a checked compile stops in LowerIket"
    ),
    "blind-kernels-only": (
        "strips only device kernels (calling_conv 2): marks in any other PrimFunc are kept"
    ),
    "blind-without-global-infos": (
        "writes the stripped functions into a new module of the input's functions and "
        "attributes: its global infos are dropped"
    ),
    "blind-public-functions-only": (
        "strips only public functions (those with a global_symbol): a private kernel keeps its "
        "marks"
    ),
    "blind-stripped-functions-only": (
        "returns a module of the functions it stripped only: the unmarked ones are dropped"
    ),
}

# the steps of the reference fix that the edits change
ENABLED_COPY = "        return _input_copy.run(inner, mod)"  # the instrumenting branch
STRIP_RESULT = "    result = mod.clone()"  # the stripping branch's result
STRIP_RETURN = "    return result\n"
STRIP_WHERE = "        if isinstance(func, ir.PrimFunc):"  # the functions the loop lowers
ALONE = "    return _input_copy.run(inner, one)[gvar]"


def strip_where(condition):
    """The edit that makes the stripping loop lower only the PrimFuncs for which the
    expression ``condition`` (over ``func``) holds."""
    return [(STRIP_WHERE, f"{STRIP_WHERE[:-1]} and {condition}:")]


EDITS = {
    # CopyOnWrite copies nothing where the pass holds the only reference (tvm.compile): the
    # released pass then writes the map it iterates. Modelled by the released pass on a copy
    # that owns a copy of the function map (a write of an unchanged function makes the copy).
    # Called directly on a module its caller holds, the C++ mistake copies the map at its
    # first write and strips every function; this model does not, so only the compile tests
    # are its faithful killers
    "copy-on-write-only": [
        (
            "    if enabled(mod):\n" + ENABLED_COPY + "\n",
            "    def on_an_owned_copy(copy):\n"
            "        for gvar, func in list(copy.functions.items())[:1]:\n"
            "            copy.update_func(gvar, func)\n"
            "        return inner(copy)\n\n"
            "    return _input_copy.run(on_an_owned_copy, mod)\n",
        )
    ],
    "strip-branch-only": [(ENABLED_COPY, "        return inner(mod)")],
    "instrument-branch-only": [(STRIP_RESULT, "    return inner(mod)")],
    "copy-drops-module-attributes": [
        (
            'every function lowered."""\n',
            'every function lowered."""\n    mod = type(mod)(dict(mod.functions.items()))\n',
        )
    ],
    "blind-enabled-by-attribute-only": [("    return child_env()\n", "    return False\n")],
    "blind-enabled-copy-after-write": [
        (ENABLED_COPY, "        return _input_copy.run(lambda _copy: inner(mod).clone(), mod)")
    ],
    "blind-alone-under-immutable-option": [(ALONE, "    return inner(one)[gvar]")],
    "blind-kernels-only": strip_where(
        'func.attrs is not None and func.attrs.get("calling_conv") == 2'
    ),
    "blind-without-global-infos": [
        (STRIP_RESULT, "    result = type(mod)(mod.functions, attrs=mod.attrs)")
    ],
    "blind-public-functions-only": strip_where(
        'func.attrs is not None and func.attrs.get("global_symbol") is not None'
    ),
    "blind-stripped-functions-only": [
        (
            STRIP_RESULT,
            "    result = type(mod)({}, attrs=mod.attrs, global_infos=mod.global_infos)",
        ),
        (STRIP_RETURN, "    return result if len(result.functions) else mod.clone()\n"),
    ],
}

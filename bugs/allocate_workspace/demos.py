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
"""Programs on which AllocateWorkspace's reference fix and each blind wrong fix differ
(harness/blind_demo.py; run with scripts/blind_demos.py --bug allocate_workspace).

Relax modules (apache/tvm only), each a variant of the report's module: ``main`` calls a Codegen
function, which reaches Composite functions asking for a workspace (WorkspaceSize). The modules
are written as TVMScript text from a few parts (``main``'s block layout, a Codegen function, a
Composite function, a local function); a demo looks at AllocateWorkspace's output (its script, a
summary of its functions, ``main``'s blocks) or its error, and whether it is well formed."""

import tvm
from harness.blind_demo import Demo, message
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R

T4 = 'R.Tensor((4,), "float32")'


def function(name, body, attrs=None, private=False, param="x"):
    """The lines of Relax function ``name(param) -> T4``: attributes ``attrs`` (none when None),
    then ``body`` (lines, or lists of lines of a local function, indented one level)."""
    lines = ["@R.function(private=True)" if private else "@R.function"]
    lines.append(f"def {name}({param}: {T4}) -> {T4}:")
    if attrs is not None:
        lines.append(f"    R.func_attr({attrs!r})")
    for part in body:
        lines += [f"    {x}" for x in ([part] if isinstance(part, str) else part)]
    return lines


def composite(name, pattern, size=None, calls=None, primitive=True, private=False, param="x"):
    """A Composite function ``pattern`` asking for ``size`` bytes (none when None): it returns
    ``Module.<calls>(param)``, or ``R.add(param, param)``."""
    attrs = {"Composite": pattern}
    if primitive:
        attrs["Primitive"] = True
    if size is not None:
        attrs["WorkspaceSize"] = size
    ret = f"Module.{calls}({param})" if calls else f"R.add({param}, {param})"
    return function(name, [f"return {ret}"], attrs, private, param)


def codegen(name, *body, backend="my_backend", size=None, private=False):
    """A Codegen function ``name`` (WorkspaceSize ``size`` when given) with ``body``; a body of
    one callee's name is ``return Module.<callee>(x)``."""
    attrs = {"Codegen": backend}
    if size is not None:
        attrs["WorkspaceSize"] = size
    if len(body) == 1 and isinstance(body[0], str) and " " not in body[0]:
        body = [f"return Module.{body[0]}(x)"]
    return function(name, body, attrs, private)


def main(callee, layout="return", aliases=0):
    """``main`` calling ``callee``: ``return`` (directly), ``plain`` (``y = ...`` in an ordinary
    block), ``dataflow`` (in a dataflow block) or ``before_dataflow`` (in an ordinary block whose
    result a dataflow block uses); with ``aliases`` variables bound one to the next, the first
    to ``Module.<callee>``, the call is made through the last."""
    names = "fghij"[:aliases]
    binds = [f"{v} = {u}" for u, v in zip([f"Module.{callee}", *names], names)]
    call = f"{names[-1]}(x)" if aliases else f"Module.{callee}(x)"
    if layout == "return":
        body = [f"return {call}"]
    elif layout == "plain":
        body = [*binds, f"y = {call}", "return y"]
    elif layout == "dataflow":
        inside = [*binds, f"y = {call}", "R.output(y)"]
        body = ["with R.dataflow():", *[f"    {x}" for x in inside], "return y"]
    else:
        body = [
            f"y = {call}",
            "with R.dataflow():",
            "    z = R.add(y, y)",
            "    R.output(z)",
            "return z",
        ]
    return function("main", body)


def module(*functions):
    """A demo's program: the IRModule of ``functions`` (lists of lines)."""
    lines = ["@I.ir_module", "class Module:"]
    for func in functions:
        lines += [f"    {x}" for x in func]
    text = "\n".join(lines) + "\n"
    return lambda: tvm.script.from_source(text, extra_vars={"I": I, "R": R})


def report(layout="dataflow", size=1024, aliases=0, private=False):
    """The report's module: ``main`` (``layout``, ``aliases``: see ``main``) -> ``outer``
    (Codegen) -> ``inner`` (Composite, Primitive, WorkspaceSize ``size``); ``private`` makes
    outer and inner private, or names the one made private."""
    hide = {private} if isinstance(private, str) else {"outer", "inner"} if private else set()
    return (
        main("outer", layout, aliases),
        codegen("outer", "inner", private="outer" in hide),
        composite("inner", "my_backend.op", size, private="inner" in hide),
    )


def chain(patterns, size, layout="dataflow", private=False, names="a_outer b_mid c_inner"):
    """``main`` -> a Codegen function -> Composite functions, each calling the next (patterns
    ``my_backend.<pattern>``, Primitive unless the pattern ends in ``!``), the last asking for
    ``size`` bytes; the caller is named before its callee."""
    names = names.split()
    funcs = [main(names[0], layout), codegen(names[0], names[1], private=private)]
    for i, pattern in enumerate(patterns):
        last = i == len(patterns) - 1
        funcs.append(
            composite(
                names[i + 1],
                f"my_backend.{pattern.rstrip('!')}",
                size if last else None,
                None if last else names[i + 2],
                primitive=not pattern.endswith("!"),
                private=private,
            )
        )
    return funcs


def local(name, pattern=None, size=None, param="y", op="add", attrs=None):
    """A local function ``name`` of a Codegen function: Composite ``pattern`` (when given, with
    ``attrs`` after it) asking for ``size`` bytes, returning ``R.<op>(param, param)``; without
    a pattern, ``attrs`` are its attributes and it returns ``Module.inner(param)``."""
    if pattern is None:
        return function(name, [f"return Module.inner({param})"], attrs, param=param)
    attrs = {"Composite": pattern, **(attrs or {})}
    if size is not None:
        attrs["WorkspaceSize"] = size
    return function(name, [f"return R.{op}({param}, {param})"], attrs, param=param)


def well_formed(mod):
    """True, or the first line of what relax.analysis.well_formed says is wrong."""
    try:
        relax.analysis.well_formed(mod)
    except ValueError as err:
        return str(err).strip().splitlines()[0][:200]
    return True


def after_pass(mod):
    """Observer: whether AllocateWorkspace's output is well formed, and its script."""
    out = relax.transform.AllocateWorkspace()(mod)
    try:
        relax.analysis.well_formed(out)
        formed = "well formed"
    except Exception as err:  # a violation
        formed = f"ill formed: {str(err).splitlines()[0]}"
    text = "\n".join(x for x in out.script().splitlines() if not x.startswith("#"))
    return f"{formed}\n{text}"


def script_or_error(mod):
    """Observer: AllocateWorkspace's output script, or its error's kind and first line."""
    try:
        return relax.transform.AllocateWorkspace()(mod).script()
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {str(err).strip().splitlines()[0][:200]}"


def script_if_formed(mod):
    """Observer: AllocateWorkspace's output script if it is well formed, else the violation."""
    out = relax.transform.AllocateWorkspace()(mod)
    try:
        relax.analysis.well_formed(out)
    except Exception as err:  # a violation
        return f"ill-formed: {err}"
    return out.script()


def main_blocks(mod, formed=False):
    """Observer: the kind and the bound names of each block of main after AllocateWorkspace
    (with ``formed``, and whether the output is well formed)."""
    out = relax.transform.AllocateWorkspace()(mod)
    blocks = [
        (type(block).__name__, [b.var.name for b in block.bindings])
        for block in out["main"].body.blocks
    ]
    return {"main": blocks, "well_formed": well_formed(out)} if formed else blocks


def signatures(mod):
    """Observer: per function of AllocateWorkspace's output its parameters' types (the
    workspace's size) and global_symbol, and whether the module is well formed."""
    out = relax.transform.AllocateWorkspace()(mod)
    funcs = {}
    for gvar, func in sorted(out.functions_items(), key=lambda kv: kv[0].name_hint):
        symbol = func.attrs.get("global_symbol") if func.attrs is not None else None
        params = [str(p.ty) for p in func.params]
        funcs[gvar.name_hint] = (params, None if symbol is None else str(symbol))
    return {"functions": funcs, "well_formed": well_formed(out)}


def local_sizes(mod):
    """Observer: the workspace parameters' types of the output's functions, local ones
    included."""
    out = relax.transform.AllocateWorkspace()(mod)
    found = []

    def visit(expr):
        if isinstance(expr, relax.Function) and expr.params:
            found.append(f"{expr.params[-1].name}: {expr.params[-1].ty}")

    for _, func in sorted(out.functions_items(), key=lambda kv: kv[0].name_hint):
        relax.analysis.post_order_visit(func, visit)
    return sorted(x for x in found if x.startswith("workspace"))


def summary(mod):
    """Observer: AllocateWorkspace's output, per function its global_symbol, parameters, blocks
    and calls in order, and whether it is well formed; or its error."""
    try:
        out = relax.transform.AllocateWorkspace()(mod)
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"
    rows = []
    for gvar, func in sorted(out.functions_items(), key=lambda x: x[0].name_hint):
        if not isinstance(func, relax.Function):
            continue
        params = ", ".join(f"{p.name}: {p.ty}" for p in func.params)
        symbol = func.attrs.get("global_symbol") if func.attrs is not None else None
        events = []

        def visit(node, events=events):
            if isinstance(node, relax.Call):
                op = node.op
                name = (
                    op.name_hint
                    if isinstance(op, tvm.ir.GlobalVar)
                    else getattr(op, "name", None) or getattr(op, "name_hint", "?")
                )
                events.append(f"{name}/{len(node.args)}")

        relax.analysis.post_order_visit(func.body, visit)
        blocks = []
        if isinstance(func.body, relax.SeqExpr):
            for b in func.body.blocks:
                kind = "df" if isinstance(b, relax.DataflowBlock) else "bb"
                blocks.append(f"{kind}[{','.join(x.var.name for x in b.bindings)}]")
        rows.append(
            f"{gvar.name_hint}(sym={symbol})({params}) blocks {' '.join(blocks)} "
            f"calls {' '.join(events)}"
        )
    try:
        relax.analysis.well_formed(out)
        ok = "well formed"
    except Exception as err:  # a violation
        ok = f"ill formed: {message(err)}"
    return " | ".join(rows) + f" || {ok}"


def dataflow(*lines, out):
    """A function body: ``lines`` in a dataflow block whose output is ``out``, returned."""
    return [
        "with R.dataflow():",
        *[f"    {x}" for x in lines],
        f"    R.output({out})",
        f"return {out}",
    ]


def outer_helper(attrs, layout="dataflow"):
    """The report's module in which ``outer`` calls ``inner`` through a local function
    ``helper`` with attributes ``attrs``; without ``layout``, no ``main``."""
    funcs = [main("outer", layout)] if layout else []
    helper = local("helper", attrs=attrs)
    funcs.append(codegen("outer", helper, "z = helper(x)", "return z"))
    funcs.append(composite("inner", "my_backend.op", 1024))
    return module(*funcs)


# main -> a_outer (Codegen) -> b_mid -> c_inner (1024 bytes), in a dataflow block
CHAIN = module(*chain(["mid", "op"], 1024))
# a local Composite function of a Codegen function, asking for 4096 bytes
LOCAL_4096 = local("local", "my_backend.local", 4096, attrs={"Primitive": True})
# round 5: outer (Codegen) binds its calls in a dataflow block; the Composite callees are not
# Primitive
OUTER_DATAFLOW = module(
    main("outer", "dataflow"),
    codegen("outer", *dataflow("y = Module.inner(x)", out="y")),
    composite("inner", "my_backend.op", 1024, primitive=False),
)


def two_callees(first, second):
    """Round 6: ``main`` calls two private Composite functions, ``a_first`` (``first`` bytes)
    and ``b_second`` (``second`` bytes)."""
    return module(
        composite("a_first", "my_backend.op", first, private=True),
        composite("b_second", "my_backend.op", second, private=True),
        function("main", ["y = Module.a_first(x)", "z = Module.b_second(y)", "return z"]),
    )


# round 6: main calls the sized inner through a variable
THROUGH_VAR_128 = module(composite("inner", "my_backend.op", 128), main("inner", "plain", 1))
# round 7: Codegen "b", Composite "b.<name>"; a local Composite function asking for 256 bytes
LOC_256 = local("loc", "b.loc", 256, attrs={"Primitive": True})


def b_composite(name, size=None, calls=None, private=True):
    """Round 7: a (private) Composite function ``b.<name>``."""
    return composite(name, f"b.{name}", size, calls, private=private)


def b_codegen(name, *body):
    """Round 7: a private Codegen function of backend ``b``."""
    return codegen(name, *body, backend="b", private=True)


DEMOS = {
    # round 2
    # main calls outer in a dataflow block: the wrong fix binds the workspace inside that block
    "blind2-alloc-in-dataflow": Demo(module(*report()), main_blocks),
    # a plain local function inside a Codegen function calls the sized inner (no main): the wrong
    # fix allocates there instead of refusing
    "blind2-external-not-inherited": Demo(outer_helper({}, None), after_pass),
    # a_outer -> b_mid -> c_inner: the wrong fix's one sweep misses a_outer, main passes nothing
    "blind2-one-sweep": Demo(CHAIN, after_pass),
    # a private sized callee (no main): the wrong fix makes the renamed inner1 public
    "blind2-private-gets-symbol": Demo(module(*report(private="inner")[1:]), after_pass),
    # a Codegen function sized 1024 with a local Composite function of 4096: the wrong fix sizes
    # the workspace from module-level functions only
    "blind2-toplevel-sizes": Demo(
        module(
            main("outer", "dataflow"),
            codegen(
                "outer",
                local("f1", "my_backend.op1", 1024, "a", attrs={"Primitive": True}),
                local("f2", "my_backend.op2", 4096, "b", "multiply", {"Primitive": True}),
                "y = f1(x)",
                "z = f2(y)",
                "return z",
                size=1024,
            ),
        ),
        after_pass,
    ),
    # a local Composite function calls the sized inner: the wrong fix collects outer's references
    # from its own body only, and refuses
    "blind2-usage-skips-nested": Demo(
        outer_helper({"Composite": "my_backend.wrap", "Primitive": True}), after_pass
    ),
    # main calls outer through g = f = outer (no dataflow block): the wrong fix follows one binding
    "blind2-var-chase-once": Demo(module(*report("plain", aliases=2)), after_pass),
    # round 3
    # main calls the chain in a dataflow block: the wrong fix allocates inside that block
    "blind3-alloc-in-dataflow-block": Demo(CHAIN, after_pass),
    # main calls outer through g = f = outer: the wrong fix follows one binding
    "blind3-callee-one-alias-level": Demo(module(*report(aliases=2)), after_pass),
    # a plain local function inside a Codegen function calls the sized inner: the wrong fix
    # allocates there instead of refusing
    "blind3-external-caller-allocates": Demo(outer_helper({}, "plain"), after_pass),
    # the only sized function is local to outer: the wrong fix ignores it, and refuses
    "blind3-nested-sized-ignored": Demo(
        module(main("outer"), codegen("outer", LOCAL_4096, "z = local(x)", "return z")),
        after_pass,
    ),
    # a private sized callee: the wrong fix makes the renamed inner1 public
    "blind3-private-renamed-public": Demo(module(*report("plain", private="inner")), after_pass),
    # a local function asks for 4096, the module-level inner for 1024: the wrong fix allocates 1024
    "blind3-sizes-module-level-only": Demo(
        module(
            main("outer"),
            codegen("outer", LOCAL_4096, "z = local(x)", "w = Module.inner(z)", "return w"),
            composite("inner", "my_backend.op", 1024),
        ),
        after_pass,
    ),
    # a_outer -> b_mid -> c_inner: the wrong fix's one sweep misses a_outer, main passes nothing
    "blind3-takers-one-sweep": Demo(CHAIN, after_pass),
    # every WorkspaceSize is 0: the wrong fix rewrites the module (a 0-byte workspace)
    "blind3-zero-size-workspace": Demo(module(*report("plain", size=0)), after_pass),
    # round 4 (outer and inner private)
    # a local Composite function asks for 4096 bytes, inner for 1024: the workspace's size
    "blind4-size-module-level-only": Demo(
        module(
            main("outer"),
            codegen(
                "outer",
                local("local", "my_backend.mul", 4096, op="multiply"),
                "z = local(x)",
                "return Module.inner(z)",
                private=True,
            ),
            composite("inner", "my_backend.op", 1024, private=True),
        ),
        local_sizes,
    ),
    # main -> a_outer -> b_mid -> c_inner, the caller before its callee
    "blind4-takers-one-sweep": Demo(
        module(*chain(["mid", "op"], 1024, "return", private=True)), signatures
    ),
    # outer's only sized function is a local Composite one
    "blind4-nested-sized-ignored": Demo(
        module(
            main("outer"),
            codegen(
                "outer", local("local", "my_backend.op", 1024), "return local(x)", private=True
            ),
        ),
        signatures,
    ),
    # main calls outer in an ordinary block whose result a dataflow block uses
    "blind4-alloc-in-first-dataflow-block": Demo(
        module(*report("before_dataflow", private=True)), lambda mod: main_blocks(mod, True)
    ),
    # main calls outer through f = Module.outer
    "blind4-callee-through-var-missed": Demo(
        module(*report("plain", aliases=1, private=True)), signatures
    ),
    # outer calls two structurally equal private Composite functions
    "blind4-equal-takers-merged": Demo(
        module(
            main("outer"),
            codegen("outer", "y = Module.inner_a(x)", "return Module.inner_b(y)", private=True),
            composite("inner_a", "my_backend.op", 1024, private=True),
            composite("inner_b", "my_backend.op", 1024, private=True),
        ),
        signatures,
    ),
    # a public outer (it has a global_symbol)
    "blind4-global-symbol-kept": Demo(module(*report("return", private="inner")), signatures),
    # round 5 (Composite functions not Primitive)
    # outer's only sized function is a local Composite one (1024 bytes)
    "blind5-local-sizes-ignored": Demo(
        module(
            main("outer", "dataflow"),
            codegen(
                "outer",
                local("local", "my_backend.op", 1024, "a"),
                "y = local(x)",
                "return y",
            ),
        ),
        summary,
    ),
    # main -> a (Codegen) -> b -> c -> d (64 bytes)
    "blind5-one-sweep": Demo(
        module(*chain(["b!", "c!", "d!"], 64, "return", names="a b c d")), summary
    ),
    # main calls a (Codegen) -> d (64 bytes) through g = f = a
    "blind5-alias-one-hop": Demo(
        module(
            main("a", "plain", 2),
            codegen("a", "d"),
            composite("d", "my_backend.op", 64, primitive=False),
        ),
        summary,
    ),
    # the report's module, outer binding its call in a dataflow block
    "blind5-alloc-in-dataflow": Demo(OUTER_DATAFLOW, summary),
    # outer calls two structurally equal private sized Composite functions
    "blind5-equal-callees-merged": Demo(
        module(
            main("outer", "dataflow"),
            codegen(
                "outer",
                *dataflow("y = Module.inner_a(x)", "z = Module.inner_b(y)", out="z"),
            ),
            composite("inner_a", "my_backend.op", 256, primitive=False, private=True),
            composite("inner_b", "my_backend.op", 256, primitive=False, private=True),
        ),
        summary,
    ),
    "blind5-global-symbol-stale": Demo(OUTER_DATAFLOW, summary),
    # a plain local function of outer calls the sized inner: the fix's ValueError
    "blind5-external-scope-reset": Demo(
        module(
            main("outer"),
            codegen("outer", local("helper", param="a"), "y = helper(x)", "return y"),
            composite("inner", "my_backend.op", 32, primitive=False),
        ),
        summary,
    ),
    # round 6
    "blind6-first-size": Demo(two_callees(64, 1024), script_or_error),
    "blind6-one-sweep": Demo(module(*chain(["mid!", "op"], 256)), script_or_error),
    "blind6-alloc-in-dataflow": Demo(module(*chain(["mid!", "op"], 256)), script_or_error),
    "blind6-symbol-kept": Demo(THROUGH_VAR_128, script_or_error),
    "blind6-var-callee": Demo(THROUGH_VAR_128, script_or_error),
    "blind6-zero-size-runs": Demo(module(*chain(["mid!", "op"], 0)), script_or_error),
    "blind6-equal-merged": Demo(two_callees(32, 32), script_or_error),
    # round 7 (Codegen "b", Composite "b.<name>", all private but where said)
    # two Codegen functions, one calling a 16-byte, one a 64-byte function
    "blind7-size-first": Demo(
        module(
            b_composite("a_small", 16),
            b_composite("b_big", 64),
            b_codegen("c1", "a_small"),
            b_codegen("c2", "b_big"),
        ),
        script_if_formed,
    ),
    # outer calls inner (16 bytes) and holds a local Composite function of 256 bytes
    "blind7-size-module-level": Demo(
        module(b_composite("inner", 16), b_codegen("outer", LOC_256, "return Module.inner(x)")),
        script_if_formed,
    ),
    # a_outer -> mid -> z_inner (32 bytes)
    "blind7-one-sweep": Demo(
        module(
            b_codegen("a_outer", "mid"),
            b_composite("mid", calls="z_inner"),
            b_composite("z_inner", 32),
            main("a_outer"),
        ),
        script_if_formed,
    ),
    # outer's only sized function is local to it
    "blind7-nested-sized-ignored": Demo(
        module(b_codegen("outer", LOC_256, "z = loc(x)", "return z"), main("outer")),
        script_if_formed,
    ),
    # main calls inner (0 bytes), which outer calls too
    "blind7-size-zero-runs": Demo(
        module(b_composite("inner", 0), b_codegen("outer", "inner"), main("inner")),
        script_if_formed,
    ),
    # a public inner (32 bytes) that outer calls
    "blind7-symbol-kept": Demo(
        module(b_composite("inner", 32, private=False), b_codegen("outer", "inner")),
        script_if_formed,
    ),
    # main calls inner in a dataflow block
    "blind7-alloc-in-dataflow": Demo(
        module(b_composite("inner", 32), main("inner", "dataflow")), script_if_formed
    ),
    # main calls inner through f = Module.inner
    "blind7-var-callee-missed": Demo(
        module(b_composite("inner", 32), main("inner", "plain", 1)), script_if_formed
    ),
}

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
"""Relax modules with Codegen/Composite external functions and WorkspaceSize, for
relax.transform.AllocateWorkspace (oracle clauses (e) and (g); apache/tvm line only).

``RelaxCase`` describes the report's shape (apache/tvm#20479) and its neighbours: where the
Composite function is (a global function or a local one bound inside the Codegen function),
whether it carries ``WorkspaceSize``, and how the Codegen function calls it (directly or
through a variable bound to it).
"""

from dataclasses import dataclass

from hypothesis import strategies as st


@dataclass(frozen=True)
class RelaxCase:
    composite_global: bool = True
    workspace: int = 1024  # 0: no WorkspaceSize
    through_var: bool = False
    outer_codegen: bool = True


def relax_cases():
    """The report's shape and its neighbours, or a module of several functions (``RelaxGraph``)."""
    return st.one_of(_report_cases(), relax_graphs())


def _report_cases():
    return st.builds(
        RelaxCase,
        st.booleans().map(lambda b: not b),
        st.sampled_from([1024, 0, 64]),
        st.booleans(),
        st.booleans().map(lambda b: not b),
    )


def render(case):
    if isinstance(case, RelaxGraph):
        return render_graph(case)
    attrs = '"Composite": "my_backend.op", "Primitive": 1'
    if case.workspace:
        attrs += f', "WorkspaceSize": {case.workspace}'
    call_tir = 'R.call_tir(cls.inner_tir, (x,), out_ty=R.Tensor((4,), dtype="float32"))'
    outer_attr = '        R.func_attr({"Codegen": "my_backend"})\n' if case.outer_codegen else ""
    if case.composite_global:
        callee = "cls.inner"
        local = ""
        inner = f"""
    @R.function
    def inner(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({{{attrs}}})
        cls = Module
        with R.dataflow():
            gv = {call_tir}
            R.output(gv)
        return gv
"""
    else:
        callee = "local_fn"
        inner = ""
        local = f"""        @R.function
        def local_fn(y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            R.func_attr({{{attrs}}})
            with R.dataflow():
                gv1 = R.add(y, y)
                R.output(gv1)
            return gv1

"""
    if case.through_var and case.composite_global:
        call = f"        f = {callee}\n        gv = f(x)\n"
    else:
        call = f"        gv = {callee}(x)\n"
    return f"""@I.ir_module
class Module:
    @T.prim_func
    def inner_tir(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            y[i] = x[i] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        gv = cls.outer(x)
        return gv

    @R.function
    def outer(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
{outer_attr}        cls = Module
{local}{call}        return gv
{inner}"""


def judge(case, verdict):
    """Run AllocateWorkspace on the case; (e) input unchanged, (g) output well formed."""
    import tvm_ffi

    import tvm
    from generator.oracle import normalize
    from tvm import relax
    from tvm.script import ir as I
    from tvm.script import relax as R
    from tvm.script import tirx as T

    text = render(case)
    try:
        mod = tvm.script.from_source(text, extra_vars={"I": I, "R": R, "T": T})
    except Exception as err:
        verdict.parse_error = normalize(err)
        return verdict
    for name, make in (("relax.AllocateWorkspace", relax.transform.AllocateWorkspace),):
        digest = tvm_ffi.structural_hash(mod)
        try:
            out = make()(mod)
        except Exception as err:
            verdict.add("d", f"d:ice-on-valid:{name}:{normalize(err)}", f"{name} raises: {err}")
            break
        if tvm_ffi.structural_hash(mod) != digest:
            verdict.add("e", f"e:{name}:input-changed", f"{name} changed its input module")
        try:
            relax.analysis.well_formed(out)
        except Exception as err:
            verdict.add(
                "g",
                f"g:{name}:ill-formed:{normalize(err)}",
                f"{name} output is not well formed: {normalize(err)}",
            )
        for rule in workspace_rules(mod, out):
            verdict.add("g", f"g:{name}:{rule}", f"{name}: {rule}")
        verdict.judged |= {"d", "e", "g"}
        mod = out
    return verdict


# ----------------------------------------------------------------------------------- graphs
# Modules of several functions calling each other, beyond the report's shape.
NAMES = ("inner", "inner1", "outer", "g", "g1", "h")  # inner1, g1: the name supply's renames
SIZES = (None, 0, 64, 1024)


@dataclass(frozen=True)
class Fn:
    """A module-level Relax function: ``kind`` plain, codegen (``Codegen``) or composite
    (``Composite``, a leaf); ``size`` its ``WorkspaceSize`` (None: none); ``calls``: (callee
    index, form) with forms ``plain`` (a binding), ``var`` (through a variable bound to the
    GlobalVar) and ``dataflow`` (inside a dataflow block); ``local``: the sizes of local
    Composite functions a codegen function binds and calls."""

    name: str
    kind: str = "plain"
    size: object = None
    private: bool = False
    calls: tuple = ()
    local: tuple = ()


@dataclass(frozen=True)
class RelaxGraph:
    """``main`` (calling ``calls``) and ``functions``; a callee always has a larger index than
    its caller (main is -1), so the calls form a DAG."""

    calls: tuple
    functions: tuple


def relax_graphs():
    @st.composite
    def draw(draw):
        n = draw(st.integers(1, 4))
        names = draw(st.permutations(NAMES))[:n]
        funcs = []
        for i in range(n):
            kind = draw(st.sampled_from(("codegen", "composite", "plain")))
            size = draw(st.sampled_from(SIZES)) if kind != "plain" else None
            later = list(range(i + 1, n))
            calls = ()
            if later:
                calls = tuple(
                    draw(
                        st.lists(
                            st.tuples(st.sampled_from(later), st.sampled_from(FORMS)),
                            max_size=2,
                        )
                    )
                )
            local = ()
            if kind == "codegen":
                # (size, the module function the local one calls or None)
                local = tuple(
                    draw(
                        st.lists(
                            st.tuples(st.sampled_from(SIZES), st.sampled_from([None, *later])),
                            max_size=2,
                        )
                    )
                )
            funcs.append(Fn(names[i], kind, size, draw(st.booleans()), calls, local))
        calls = tuple(
            draw(
                st.lists(
                    st.tuples(st.integers(0, n - 1), st.sampled_from(FORMS)),
                    min_size=1,
                    max_size=3,
                )
            )
        )
        return RelaxGraph(calls, tuple(funcs))

    return draw()


FORMS = ("plain", "var", "var2", "dataflow")
_TENSOR = 'R.Tensor((4,), dtype="float32")'


def _body(calls, funcs, local_sizes, indent="        "):
    lines, last = [], "x"
    for j, (size, callee) in enumerate(local_sizes):
        attrs = '"Composite": "my_backend.op", "Primitive": 1'
        if size is not None:
            attrs += f', "WorkspaceSize": {size}'
        inside = (
            ["    z = R.add(y, y)"] if callee is None else [f"    z = cls.{funcs[callee].name}(y)"]
        )
        lines += [
            "@R.function",
            f"def local{j}(y: {_TENSOR}) -> {_TENSOR}:",
            f"    R.func_attr({{{attrs}}})",
            *inside,
            "    return z",
            f"l{j} = local{j}({last})",
        ]
        last = f"l{j}"
    for k, (callee, form) in enumerate(calls):
        ref = f"cls.{funcs[callee].name}"
        if form == "var":
            lines += [f"f{k} = {ref}", f"c{k} = f{k}({last})"]
        elif form == "var2":
            lines += [f"f{k} = {ref}", f"g{k} = f{k}", f"c{k} = g{k}({last})"]
        elif form == "dataflow":
            lines += ["with R.dataflow():", f"    c{k} = {ref}({last})", f"    R.output(c{k})"]
        else:
            lines += [f"c{k} = {ref}({last})"]
        last = f"c{k}"
    if not calls and not local_sizes:
        lines += [
            "with R.dataflow():",
            f"    z = R.call_tir(cls.inner_tir, (x,), out_ty={_TENSOR})",
            "    R.output(z)",
        ]
        last = "z"
    lines.append(f"return {last}")
    return "\n".join(indent + line for line in ["cls = Module", *lines])


def render_graph(case):
    funcs = case.functions
    parts = [
        "@I.ir_module",
        "class Module:",
        "    @T.prim_func",
        '    def inner_tir(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):',
        "        for i in range(4):",
        "            y[i] = x[i] + T.float32(1)",
        "",
        "    @R.function",
        f"    def main(x: {_TENSOR}) -> {_TENSOR}:",
        _body(case.calls, funcs, ()),
    ]
    for f in funcs:
        attrs = {}
        if f.kind == "codegen":
            attrs["Codegen"] = '"my_backend"'
        if f.kind == "composite":
            attrs["Composite"] = '"my_backend.op"'
            attrs["Primitive"] = "1"
        if f.size is not None:
            attrs["WorkspaceSize"] = str(f.size)
        parts += ["", "    @R.function(private=True)" if f.private else "    @R.function"]
        parts.append(f"    def {f.name}(x: {_TENSOR}) -> {_TENSOR}:")
        if attrs:
            items = ", ".join(f'"{k}": {v}' for k, v in attrs.items())
            parts.append(f"        R.func_attr({{{items}}})")
        if f.kind == "composite" and not f.calls:
            parts += [
                "        with R.dataflow():",
                "            z = R.add(x, x)",
                "            R.output(z)",
                "        return z",
            ]
        else:
            parts.append(_body(f.calls, funcs, f.local))
    return "\n".join(parts) + "\n"


def _functions(mod):
    """{name: [the function and every function nested in it]} of the Relax functions."""
    from tvm import relax

    found = {}
    for gv, func in mod.functions.items():
        if isinstance(func, relax.Function):
            nested = [func]
            relax.analysis.post_order_visit(
                func.body,
                lambda node, nested=nested: nested.append(node)
                if isinstance(node, relax.Function)
                else None,
            )
            found[gv.name_hint] = nested
    return found


def _size_of(func):
    attrs = func.attrs
    if attrs is None or "WorkspaceSize" not in attrs:
        return None
    return int(attrs["WorkspaceSize"])


def workspace_rules(before, after):
    """The rules AllocateWorkspace's output keeps whatever the call graph (its documented
    behaviour: one workspace, of the largest WorkspaceSize W, allocated once per function that
    needs it, never by an external function), each broken one as a class name."""
    import tvm_ffi

    import tvm
    from tvm import relax

    sizes = [
        s for funcs in _functions(before).values() for f in funcs if (s := _size_of(f)) is not None
    ]
    largest = max(sizes, default=0)
    if largest == 0:
        # no workspace to provide: nothing changes
        same = tvm_ffi.structural_equal(before, after, map_free_vars=True)
        return [] if same else ["changed-without-workspace"]
    broken = set()
    op = tvm.ir.Op.get("relax.builtin.alloc_tensor")
    have, had = _functions(after), _functions(before)
    if len(have) != len(had):
        # the takers are re-added under new names, one for one
        broken.add("function-count-changed")
    symbols = {name: _symbol(funcs[0]) for name, funcs in have.items()}
    if sum(s is not None for s in symbols.values()) != sum(
        _symbol(funcs[0]) is not None for funcs in had.values()
    ):
        broken.add("global-symbol-count-changed")
    if any(s is not None and s != name for name, s in symbols.items()):
        broken.add("global-symbol-not-name")
    sized = sum(_size_of(f) is not None for funcs in had.values() for f in funcs)
    taking = sum(_takes(f) for funcs in have.values() for f in funcs)
    if taking < sized:
        # every function with a WorkspaceSize takes the workspace (0 included, when W > 0)
        broken.add("sized-function-without-workspace")
    for funcs in have.values():
        outer = funcs[0]
        external = outer.attrs is not None and (
            "Codegen" in outer.attrs or "Composite" in outer.attrs
        )
        count = [0]
        for func in funcs:
            if _size_of(func) is not None:
                broken.add("size-attribute-left")
            for param in func.params:
                dims = _workspace_dims(param)
                if dims is not None and dims != [largest]:
                    broken.add("workspace-not-largest-size")

        def visit(node, count=count):
            if isinstance(node, relax.Call) and node.op.same_as(op):
                count[0] += 1
                shape = node.args[0]
                if isinstance(shape, relax.ShapeExpr) and [int(v) for v in shape.values] != [
                    largest
                ]:
                    broken.add("workspace-not-largest-size")

        relax.analysis.post_order_visit(outer.body, visit)
        if count[0] > 1:
            broken.add("allocated-more-than-once")
        if external and count[0]:
            broken.add("external-function-allocates")
    return sorted(broken)


def _workspace_dims(param):
    """The dims of a uint8 tensor parameter (the inputs are float32: a workspace), ``None`` for
    any other parameter, ``[]`` for a uint8 tensor whose shape is not constant."""
    ty = getattr(param, "ty", None) or getattr(param, "struct_info", None)
    if ty is None or str(getattr(ty, "dtype", "")) != "uint8":
        return None
    shape = getattr(ty, "shape", None)
    values = getattr(shape, "values", shape)
    try:
        return [int(v) for v in values]
    except (TypeError, ValueError):
        return []


def _symbol(func):
    attrs = func.attrs
    return None if attrs is None or "global_symbol" not in attrs else str(attrs["global_symbol"])


def _takes(func):
    return bool(func.params) and _workspace_dims(func.params[-1]) is not None

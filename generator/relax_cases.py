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
    return st.builds(
        RelaxCase,
        st.booleans().map(lambda b: not b),
        st.sampled_from([1024, 0, 64]),
        st.booleans(),
        st.booleans().map(lambda b: not b),
    )


def render(case):
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
        verdict.judged |= {"d", "e", "g"}
        mod = out
    return verdict

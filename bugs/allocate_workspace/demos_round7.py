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
"""Round-7 demos of AllocateWorkspace's blind wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo


def _parse(text):
    from tvm.script import from_source
    from tvm.script import ir as I
    from tvm.script import relax as R

    return from_source(text, extra_vars={"I": I, "R": R})


def _module(body):
    return lambda: _parse("@I.ir_module\nclass Module:\n" + body)


def _after(mod):
    from tvm import relax

    out = relax.transform.AllocateWorkspace()(mod)
    try:
        relax.analysis.well_formed(out)
    except Exception as err:
        return f"ill-formed: {err}"
    return out.script()


_T = 'R.Tensor((4,), "float32")'


def _composite(name, size, private=True, calls=None):
    deco = "@R.function(private=True)" if private else "@R.function"
    call = f"Module.{calls}(x)" if calls else "R.add(x, x)"
    return (
        f"    {deco}\n    def {name}(x: {_T}) -> {_T}:\n"
        f'        R.func_attr({{"Composite": "b.{name}", "Primitive": True'
        + (f', "WorkspaceSize": {size}' if size is not None else "")
        + f"}})\n        return {call}\n"
    )


def _codegen(name, calls, local=""):
    return (
        f"    @R.function(private=True)\n    def {name}(x: {_T}) -> {_T}:\n"
        f'        R.func_attr({{"Codegen": "b"}})\n{local}'
        f"        return Module.{calls}(x)\n"
    )


def _main(callee, dataflow=False, via_var=False):
    if via_var:
        return (
            f"    @R.function\n    def main(x: {_T}) -> {_T}:\n"
            f"        f = Module.{callee}\n        y = f(x)\n        return y\n"
        )
    if dataflow:
        return (
            f"    @R.function\n    def main(x: {_T}) -> {_T}:\n"
            f"        with R.dataflow():\n            y = Module.{callee}(x)\n"
            f"            R.output(y)\n        return y\n"
        )
    return f"    @R.function\n    def main(x: {_T}) -> {_T}:\n        return Module.{callee}(x)\n"


_TWO_SIZES = _module(
    _composite("a_small", 16)
    + _composite("b_big", 64)
    + _codegen("c1", "a_small")
    + _codegen("c2", "b_big")
)

# the Codegen function's local Composite function is the larger one
_LOCAL_SIZED = (
    "        @R.function\n"
    f"        def loc(y: {_T}) -> {_T}:\n"
    '            R.func_attr({"Composite": "b.loc", "Primitive": True, "WorkspaceSize": 256})\n'
    "            return R.add(y, y)\n"
    "        z = loc(x)\n"
)
_LOCAL_BIGGER = _module(
    _composite("inner", 16)
    + _codegen("outer", "inner", _LOCAL_SIZED.replace("        z = loc(x)\n", ""))
)

# outer (Codegen, first by name) -> mid (Composite) -> z_inner (sized)
_CHAIN = _module(
    _codegen("a_outer", "mid")
    + _composite("mid", None, calls="z_inner")
    + _composite("z_inner", 32)
    + _main("a_outer")
)

# a Codegen function whose only sized function is local to it
_NESTED_ONLY = _module(
    f"    @R.function(private=True)\n    def outer(x: {_T}) -> {_T}:\n"
    '        R.func_attr({"Codegen": "b"})\n' + _LOCAL_SIZED + "        return z\n" + _main("outer")
)

_ZERO = _module(_composite("inner", 0) + _codegen("outer", "inner") + _main("inner"))

_PUBLIC = _module(_composite("inner", 32, private=False) + _codegen("outer", "inner"))

_DATAFLOW = _module(_composite("inner", 32) + _main("inner", dataflow=True))

_VIA_VAR = _module(_composite("inner", 32) + _main("inner", via_var=True))


DEMOS = {
    "blind7-size-first": Demo(_TWO_SIZES, _after),
    "blind7-size-module-level": Demo(_LOCAL_BIGGER, _after),
    "blind7-one-sweep": Demo(_CHAIN, _after),
    "blind7-nested-sized-ignored": Demo(_NESTED_ONLY, _after),
    "blind7-size-zero-runs": Demo(_ZERO, _after),
    "blind7-symbol-kept": Demo(_PUBLIC, _after),
    "blind7-alloc-in-dataflow": Demo(_DATAFLOW, _after),
    "blind7-var-callee-missed": Demo(_VIA_VAR, _after),
}

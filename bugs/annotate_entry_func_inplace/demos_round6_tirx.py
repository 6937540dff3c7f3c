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
"""Blind round 6 demos of annotate_entry_func_inplace (apache/tvm-tirx)."""

from harness.blind_demo import Demo


def module(private=0, entry=None, attrs=None):
    """A module of a public ``main`` and ``private`` private helpers (one loop each); ``entry``
    sets main's tirx.is_entry_func, ``attrs`` the module attributes."""
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    def func(value):
        @T.function
        def f(A: T.Tensor((8,), "float32")):
            for i in range(8):
                A[i] = T.float32(value)

        return f.without_attr("global_symbol")

    main = func(0.0).with_attr("global_symbol", "main")
    if entry is not None:
        main = main.with_attr("tirx.is_entry_func", entry)
    funcs = {"main": main}
    funcs.update({f"helper{k}": func(k + 1.0) for k in range(private)})
    return tvm_tirx.IRModule(funcs, attrs=attrs)


def _annotate(mod):
    import tvm_tirx

    return tvm_tirx.tirx.transform.AnnotateEntryFunc()(mod)


def input_entry(mod):
    """main's tirx.is_entry_func in the input module after the pass."""
    _annotate(mod)
    return f"input main: {(mod['main'].attrs or {}).get('tirx.is_entry_func')}"


def output_attrs(mod):
    """The output module's attributes and main's entry mark."""
    out = _annotate(mod)
    entry = out["main"].attrs.get("tirx.is_entry_func")
    return f"module attrs: {dict(out.attrs or {})}, main entry: {entry}"


def compiled_immutable(mod):
    """tvm_tirx.tirx.compile of the module under testing.immutable_module (llvm): whether it
    compiled, or the error."""
    import tvm_tirx

    from harness.blind_demo import message

    try:
        with tvm_tirx.ir.transform.PassContext(config={"testing.immutable_module": True}):
            lib = tvm_tirx.tirx.compile(mod, target="llvm")
        return f"compiled: {lib is not None}"
    except Exception as err:  # the result
        return f"{type(err).__name__}: {message(err)}"


DEMOS = {
    "blind6-aef-copy-single-branch-only": Demo(lambda: module(private=2), input_entry),
    "blind6-aef-copy-multi-branch-only": Demo(lambda: module(), input_entry),
    "blind6-aef-copy-drops-attrs": Demo(lambda: module(attrs={"device_id": 3}), output_attrs),
    "blind6-aef-copy-after-write": Demo(lambda: module(private=1), input_entry),
    "blind6-aef-skip-when-attr-present": Demo(lambda: module(entry=False), output_attrs),
    "blind6-aef-immutable-kept": Demo(lambda: module(), compiled_immutable),
}

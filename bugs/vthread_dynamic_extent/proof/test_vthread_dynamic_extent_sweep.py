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
"""The vthread_dynamic_extent rule swept over tags, extent forms, integer types and nesting,
at the pass and through tvm.compile, and the pass under a PassContext (this repository only).

A virtual thread (``virtual_thread`` attribute) whose extent is not a constant is a ValueError
naming its tag and its extent; one of a constant extent of any integer type is injected as the
released pass injects it, and an ordinary thread's non-constant extent, or an attribute of
another key whatever its value, is left alone. The expected words are written here,
independently of the reference fix. In-process a non-constant extent kills the released pass:
the rejection cases carry the report's xfail with ``run=False``
(bug_reports.KILLS_THE_PROCESS), so they run only where the report is expected fixed;
test_vthread_dynamic_extent_child.py records the crash in a child process, and runs the
module shapes there (a fix that misses a function would take this session down).
"""

import sys
from pathlib import Path

import pytest

import tvm
from tvm.script import tirx as T

if str(Path(__file__).resolve().parents[3]) not in sys.path:  # `python FILE` from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bugs.vthread_dynamic_extent import reference_fix as fix

BUG = pytest.mark.xfail(
    strict=True, run=False, reason="non-constant vthread extent: SIGSEGV in InjectVirtualThread"
)
CUDA = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
# every tag a virtual_thread attribute carries (LowerOpaqueBlock: vthread, vthread.x/y/z;
# a hand-written attribute: cthread too)
TAGS = ("vthread", "vthread.x", "vthread.y", "vthread.z", "cthread")
# extent form -> (the extent of (L, n, m), its printed words)
FORMS = {
    "int32-param": (lambda L, n, m: n, "n"),
    "int64-param": (lambda L, n, m: m, "m"),
    "expression": (lambda L, n, m: n * 2 + 1, "n * 2 + 1"),
    "load": (lambda L, n, m: L[0], "L[0]"),
    "cast": (lambda L, n, m: T.Cast("int32", m), 'T.Cast("int32", m)'),
}


def attr_kernel(tag, extent, dtype="int32"):
    """A function whose store runs under the virtual thread ``tag`` of ``extent(L, n, m)``
    (of type ``dtype``)."""

    @T.prim_func(s_tir=True)
    def main(L: T.Buffer((1,), "int32"), A: T.Buffer((16,), "int32"), n: T.int32, m: T.int64):
        vt = T.Var("vt", dtype)
        with T.attr(
            T.iter_var(vt, T.Range(0, extent(L, n, m)), "ThreadIndex", tag),
            "virtual_thread",
            extent(L, n, m),
        ):
            A[vt] = 1

    return main


def nested(outer, inner):
    """A vthread around a cthread, each of a constant extent (2) or the parameter n."""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((16,), "int32"), n: T.int32):
        vo = T.int32()
        vi = T.int32()
        with T.attr(
            T.iter_var(vo, T.Range(0, outer(n)), "ThreadIndex", "vthread"),
            "virtual_thread",
            outer(n),
        ):
            with T.attr(
                T.iter_var(vi, T.Range(0, inner(n)), "ThreadIndex", "cthread"),
                "virtual_thread",
                inner(n),
            ):
                A[vo * 4 + vi] = 1

    return main


def bound_kernel(tag, extent):
    """The report's program: a loop bound to ``tag`` of ``extent(L, n)`` around a kernel."""

    @T.prim_func
    def main(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32"), n: T.int32):
        for v in T.thread_binding(extent(L, n), thread=tag):
            for i in T.thread_binding(8, thread="threadIdx.x"):
                B[v * 8 + i] = T.float32(1.0)

    return main


def inject(func_or_mod):
    mod = (
        func_or_mod
        if isinstance(func_or_mod, tvm.IRModule)
        else tvm.IRModule({"main": func_or_mod})
    )
    return tvm.s_tir.transform.InjectVirtualThread()(mod)


@BUG
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("tag", TAGS)
def test_pass_refuses_non_constant_extent(tag, form):
    """Every tag, every extent form: a ValueError naming the tag and the extent."""
    extent, words = FORMS[form]
    dtype = "int64" if form == "int64-param" else "int32"
    with pytest.raises(ValueError) as err:
        inject(attr_kernel(tag, extent, dtype))
    assert f"the virtual thread {tag} needs a constant extent, but its extent is {words}" in str(
        err.value
    )


@BUG
@pytest.mark.parametrize("form", ["param", "load"])
@pytest.mark.parametrize("tag", ["vthread", "vthread.x", "vthread.y", "vthread.z"])
def test_compile_refuses_non_constant_extent(tag, form):
    """The report's program through tvm.compile: a ValueError naming the tag."""
    extent = (lambda L, n: n) if form == "param" else (lambda L, n: L[0])
    with pytest.raises(ValueError, match=f"virtual thread {tag} needs a constant extent"):
        tvm.compile(bound_kernel(tag, extent), target=CUDA)


@BUG
@pytest.mark.parametrize(
    "outer, inner, named",
    [
        (lambda n: 2, lambda n: n, "cthread"),
        (lambda n: n, lambda n: 2, "vthread"),
        (lambda n: n, lambda n: n, "cthread"),  # the innermost first, as the mutator visits
        (lambda n: n, lambda n: n * 2, "cthread"),  # an expression inside a variable
    ],
    ids=["inner", "outer", "both", "both-expression"],
)
def test_nested_virtual_threads_name_the_non_constant_one(outer, inner, named):
    """Of nested virtual threads the (innermost) non-constant one is named."""
    with pytest.raises(ValueError, match=f"virtual thread {named} needs a constant extent"):
        inject(nested(outer, inner))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("tag", TAGS)
def test_constant_extent_injected_as_released(tag, dtype):
    """A constant extent of any signed integer type (an IterVar's domain is signed): the
    released pass's output."""
    kernel = attr_kernel(tag, lambda L, n, m: tvm.tirx.const(2, dtype), dtype)
    mod = tvm.IRModule({"main": kernel})
    want = fix.released()()(mod)
    tvm.ir.assert_structural_equal(inject(mod), want)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("tag", ["vthread", "vthread.x", "vthread.y", "vthread.z"])
def test_compile_of_constant_extent(tag, dtype):
    """The report's program with a constant extent compiles, of either integer type."""
    tvm.compile(bound_kernel(tag, lambda L, n: tvm.tirx.const(2, dtype)), target=CUDA)


def test_non_constant_thread_extent_left_alone():
    """A threadIdx.x of extent n beside a constant vthread compiles: only virtual threads
    need a constant extent."""

    @T.prim_func
    def main(B: T.Buffer((64,), "float32"), n: T.int32):
        for v in T.thread_binding(2, thread="vthread"):
            for i in T.thread_binding(n, thread="threadIdx.x"):
                B[v * 8 + i] = T.float32(1.0)

    tvm.compile(main, target=CUDA)


# attribute keys other than virtual_thread, sorting before it and after it
OTHER_KEYS = ["thread_extent", "pragma_unroll", "warp_execution", "vthread"]


@pytest.mark.parametrize("key", OTHER_KEYS)
def test_other_attribute_of_non_constant_value_left_alone(key):
    """An attribute of another key over a thread IterVar, of value n, is left as it is."""

    @T.prim_func(s_tir=True, private=True)
    def before(A: T.Buffer((16,), "int32"), n: T.int32):
        tx = T.int32()
        with T.attr(T.iter_var(tx, T.Range(0, n), "ThreadIndex", "threadIdx.x"), key, n):
            A[0] = 1

    @T.prim_func(s_tir=True, private=True)
    def expected(A: T.Buffer((16,), "int32"), n: T.int32):
        tx = T.int32()
        with T.attr(T.iter_var(tx, T.Range(0, n), "ThreadIndex", "threadIdx.x"), key, n):
            A[0] = 1

    tvm.ir.assert_structural_equal(inject(before), tvm.IRModule({"main": expected}))


@pytest.mark.parametrize("tag", ["vthread", "cthread"])
@pytest.mark.parametrize(
    "config",
    [
        {"disabled_pass": ["s_tir.InjectVirtualThread"]},
        {"opt_level": 1},
        {"opt_level": 0},
        {"opt_level": -1},
    ],
    ids=["disabled", "opt-level-1", "opt-level-0", "opt-level-minus-1"],
)
def test_pass_context_treats_the_pass_as_released(config, tag):
    """A Sequential under ``disabled_pass`` or ``opt_level`` 1, 0 or -1 (which a PassContext
    accepts) runs or skips the pass as it does the released one: the fix changes neither its
    name nor its opt level (in C++ it lives in the visitor, so the registration is untouched;
    a Python wrapper could change both)."""
    mod = tvm.IRModule({"main": attr_kernel(tag, lambda L, n, m: 2)})
    with tvm.transform.PassContext(**config):
        got = tvm.transform.Sequential([tvm.s_tir.transform.InjectVirtualThread()])(mod)
        want = tvm.transform.Sequential([fix.released()()])(mod)
    tvm.ir.assert_structural_equal(got, want)

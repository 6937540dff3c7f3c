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
"""Programs on which InjectVirtualThread's reference fix and each blind wrong fix differ
(harness/blind_demo.py; run with scripts/blind_demos.py --bug vthread_dynamic_extent). A run that
reaches the released pass's null cast dies by SIGSEGV: the demo's child reports the signal.
apache/tvm only (apache/tvm-tirx refuses the programs on its own)."""

import numpy as np
import tvm_ffi

import tvm
from harness.blind_demo import Demo, run_opencl, script_of, script_or_error
from tvm import tirx
from tvm.script import tirx as T

# the parameters the kernels take (TVMScript)
A_F32 = 'A: T.Buffer((8,), "float32")'
A_NL = 'A: T.Buffer((8,), "int32"), n: T.int32, L: T.Buffer((1,), "int32")'
B = 'B: T.Buffer((64,), "float32")'
LBN = f'L: T.Buffer((1,), "int32"), {B}, n: T.int32'
NLB = 'n: T.int32, L: T.Buffer((1,), "int32"), B: T.Buffer((8,), "float32")'
# a store indexed by two nested threads, the first counting fours
FOURS = 'A[v0 * 4 + v1] = T.Cast("float32", v0 * 4 + v1)'


def kernel(params, threads, store, how="launch", dom="None", around=()):
    """A PrimFunc ``main(params)`` (TVMScript) that opens each of ``threads`` ((tag, extent)
    pairs, their indices v0, v1, ...) inside the one before and then runs ``store``: by
    T.launch_thread ("launch"), by T.thread_binding loops ("bind") or by a virtual_thread
    attribute over an IterVar of domain ``dom`` ("attr", an int64 IterVar for an int64
    extent). The lines ``around`` (a loop or an if header, a launch) come first."""
    lines, depth = [], 1
    for line in around:
        lines.append("    " * depth + line)
        depth += line.endswith(":")
    for k, (tag, extent) in enumerate(threads):
        pad = "    " * depth
        if how == "launch":
            lines.append(f'{pad}v{k} = T.launch_thread("{tag}", {extent})')
            continue
        if how == "bind":
            lines.append(f'{pad}for v{k} in T.thread_binding({extent}, thread="{tag}"):')
        else:
            dtype = "int64" if "int64" in str(extent) else "int32"
            lines.append(f"{pad}v{k} = T.{dtype}()")
            lines.append(
                f'{pad}with T.attr(T.iter_var(v{k}, {dom}, "ThreadIndex", "{tag}"), '
                f'"virtual_thread", {extent}):'
            )
        depth += 1
    text = f"@T.prim_func\ndef main({params}):\n" + "\n".join(lines) + "\n"
    return tvm.script.from_source(text + "    " * depth + store + "\n", extra_vars={"T": T})


def launched(*threads, params=LBN, store=None):
    """Virtual threads launched by T.launch_thread in LBN's kernel, storing to B at the sum
    of their indices (or running ``store``)."""
    store = store or f"B[{' + '.join(f'v{k}' for k in range(len(threads)))}] = T.float32(1.0)"
    return kernel(params, threads, store)


def one_over_eight(extent, params=f"{B}, n: T.int32", tag="vthread", how="launch"):
    """A virtual thread ``tag`` of extent ``extent`` over eight threadIdx.x storing B[tx]."""
    threads = [(tag, extent), ("threadIdx.x", 8)]
    return kernel(params, threads, "B[v1] = T.float32(1.0)", how=how)


def virtual(*threads, params=A_NL, store="A[0] = 1", **kw):
    """Virtual threads written as virtual_thread attributes (IterVar domain None)."""
    return kernel(params, threads, store, how="attr", **kw)


def as_cthread(func):
    """``func`` with its virtual threads tagged ``cthread`` (no memory sharing)."""

    def retag(attr):
        if attr.attr_key != "virtual_thread":
            return attr
        iv = attr.node
        node = tirx.IterVar(iv.dom, iv.var, iv.iter_type, "cthread")
        return tirx.AttrStmt(node, attr.attr_key, attr.value, attr.body)

    return func.with_body(tvm_ffi.structural_map(func.body, (tirx.AttrStmt, retag)))


def round6(extent, tag="vthread", around=()):
    """Round 6's kernel: one virtual_thread attribute ``tag`` of extent ``extent`` storing
    B[vt] = 1, inside ``around``."""
    store = 'B[T.Cast("int32", v0)] = T.float32(1.0)'
    return virtual((tag, extent), params=NLB, store=store, around=around)


def module(**funcs):
    """The module of ``funcs``, each under its name (its global_symbol too)."""
    return tvm.IRModule({k: f.with_attr("global_symbol", k) for k, f in funcs.items()})


def injected(program):
    """The module (or PrimFunc, as main) after InjectVirtualThread alone, or its error."""
    mod = program if isinstance(program, tvm.IRModule) else tvm.IRModule({"main": program})
    return script_or_error(lambda: tvm.s_tir.transform.InjectVirtualThread()(mod))


def injected_unless_disabled(program):
    """The module after a Sequential of InjectVirtualThread that disables the pass by its name."""
    mod = program if isinstance(program, tvm.IRModule) else tvm.IRModule({"main": program})
    with tvm.transform.PassContext(disabled_pass=["s_tir.InjectVirtualThread"]):
        return script_of(tvm.transform.Sequential([tvm.s_tir.transform.InjectVirtualThread()])(mod))


def lowered_and_injected(func):
    """InjectVirtualThread after the lowering it needs (LowerOpaqueBlock): main's TVMScript."""
    mod = tvm.s_tir.transform.LowerOpaqueBlock()(tvm.IRModule({"main": func}))
    return tvm.s_tir.transform.InjectVirtualThread()(mod)["main"].script()


def run_at_opt_level_1(func):
    """``func`` compiled for OpenCL under opt_level 1 and run on pocl: its output's values."""
    with tvm.transform.PassContext(opt_level=1):
        lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
    return run_opencl(lib, [np.zeros(8, "float32")], [0])


def constant_vthread():
    return launched(("vthread", 2), ("threadIdx.x", 4), params=A_F32, store=FOURS)


def raw(tag, extent):
    """Round 7's kernel: one virtual_thread attribute ``tag`` whose IterVar has the domain
    [0, 4) and whose value is ``extent`` (the parameter n where it is "n"), storing to a buffer
    of a pointer parameter that no buffer map declares (TVMScript would refuse it)."""

    def build():
        n = tirx.Var("n", "int32")
        ptr = tirx.Var("B", tvm.ir.PointerType(tvm.ir.PrimType("float32")))
        buf = tirx.decl_buffer((64,), "float32", name="B", data=ptr)
        v = tirx.Var("v", "int32")
        iv = tirx.IterVar(tvm.ir.Range(0, 4), v, tirx.IterVar.ThreadIndex, tag)
        body = tirx.BufferStore(buf, tirx.const(1.0, "float32"), [v])
        stmt = tirx.AttrStmt(iv, "virtual_thread", n if extent == "n" else extent, body)
        return tirx.PrimFunc([ptr, n], stmt).with_attr("global_symbol", "main")

    return build


DEMOS = {
    # round 3
    # the second function's extent is loaded: the wrong fix checks the first only
    "blind3-first-function-only": Demo(
        lambda: module(
            a=constant_vthread(),
            b=one_over_eight("L[0]", params=f'L: T.Buffer((1,), "int32"), {B}'),
        ),
        injected,
    ),
    # a valid kernel under opt_level 1: the wrong fix's pass (opt_level 2) is skipped
    "blind3-opt-level-2": Demo(
        lambda: kernel(A_F32, [("vthread", 2), ("threadIdx.x", 4)], FOURS, how="bind"),
        run_at_opt_level_1,
        opencl=True,
    ),
    # nested non-constant extents: the C++ visits the body first and names the inner one
    "blind3-pre-order": Demo(
        lambda: kernel(
            f"{B}, n: T.int32, m: T.int32",
            [("vthread", "n"), ("vthread", "m"), ("threadIdx.x", 8)],
            "B[v2] = T.float32(1.0)",
        ),
        injected,
    ),
    # disabled by the released name: the wrong fix's pass, named otherwise, still runs
    "blind3-unnamed-pass": Demo(constant_vthread, injected_unless_disabled),
    # an expression of a parameter: the wrong fix refuses a variable or a load only
    "blind3-var-or-load-only": Demo(lambda: one_over_eight("n * 2"), injected),
    # a cthread-tagged virtual thread: the wrong fix looks at vthread tags only
    "blind3-vthread-tag-only": Demo(lambda: as_cthread(one_over_eight("n")), injected),
    # round 4
    "blind4-vthread-tags-only": Demo(lambda: virtual(("cthread", "n")), injected),
    "blind4-check-before-body": Demo(
        lambda: virtual(("vthread", "n"), ("vthread", "L[0] + 1")), injected
    ),
    "blind4-first-function-only": Demo(
        lambda: module(first=virtual(("vthread", 2)), second=virtual(("vthread", "n"))),
        injected,
    ),
    "blind4-vars-only": Demo(lambda: virtual(("vthread", "L[0]")), injected),
    "blind4-int32-only": Demo(
        lambda: virtual(
            ("vthread", "T.int64(2)"),
            params='A: T.Buffer((8,), "int32")',
            store='A[v0] = T.Cast("int32", v0)',
        ),
        injected,
    ),
    "blind4-pass-name": Demo(lambda: virtual(("vthread", "n")), injected_unless_disabled),
    # a kernel of n threads (valid) around a constant virtual thread
    "blind4-thread-extent-too": Demo(
        lambda: virtual(
            ("vthread", 2),
            params='A: T.Buffer((8,), "int32"), n: T.int32',
            store="A[v0] = tx",
            around=['tx = T.launch_thread("threadIdx.x", n)'],
        ),
        injected,
    ),
    # round 5
    "blind5-vthread-tag-only": Demo(
        lambda: module(main=as_cthread(launched(("vthread", "n")))), injected
    ),
    "blind5-outermost-first": Demo(
        lambda: module(main=launched(("vthread", "n"), ("vthread", "L[0]"))), injected
    ),
    "blind5-first-attr-only": Demo(
        lambda: module(main=launched(("vthread", 2), ("vthread", "n + 1"))), injected
    ),
    "blind5-first-function-only": Demo(
        lambda: module(first=launched(("vthread", 2)), second=launched(("vthread", "n * 2"))),
        injected,
    ),
    "blind5-var-only": Demo(lambda: module(main=launched(("vthread", "L[0]"))), injected),
    "blind5-int32-only": Demo(lambda: module(main=launched(("vthread", "T.int64(2)"))), injected),
    # the IterVar's domain is [0, 2), the attribute's value n
    "blind5-dom-extent": Demo(
        lambda: module(
            main=virtual(
                ("vthread", "n"),
                params=LBN,
                store="B[v0] = T.float32(1.0)",
                dom="T.Range(0, 2)",
            )
        ),
        injected,
    ),
    # round 6
    "blind6-vt-vthread-tag-only": Demo(lambda: module(f0=round6("L[0]", tag="cthread")), injected),
    "blind6-vt-load-extent-only": Demo(lambda: module(f0=round6("n")), injected),
    "blind6-vt-first-function-only": Demo(
        lambda: module(f0=round6(2), f1=round6("L[0]")), injected
    ),
    "blind6-vt-top-level-only": Demo(
        lambda: module(f0=round6("L[0]", around=["for j in T.serial(2):"])), injected
    ),
    "blind6-vt-int32-only": Demo(
        lambda: module(f0=round6("T.int64(2)", around=["if n > 0:"])), injected
    ),
    "blind6-vt-simplified-extent": Demo(lambda: module(f0=round6("n - n + 2")), injected),
    # round 7
    "blind7-check-before-body": Demo(
        lambda: kernel(
            f"{B}, n: T.int32, m: T.int32",
            [("vthread.x", "n"), ("vthread.y", "m"), ("threadIdx.x", 8)],
            "B[v2] = T.float32(1.0)",
            how="bind",
        ),
        lowered_and_injected,
    ),
    "blind7-vthread-tag-only": Demo(raw("cthread", "n"), lowered_and_injected),
    "blind7-var-only": Demo(lambda: one_over_eight("n * 2", how="bind"), lowered_and_injected),
    "blind7-int32-only": Demo(
        lambda: one_over_eight("T.int64(2)", params=f"{B}, n: T.int64", how="bind"),
        lowered_and_injected,
    ),
    "blind7-dom-extent": Demo(raw("vthread", "n"), lowered_and_injected),
    "blind7-nonzero-extent": Demo(lambda: one_over_eight(1, how="bind"), lowered_and_injected),
}

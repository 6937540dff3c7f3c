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
"""Programs on which SplitHostDevice's reference fix and each blind wrong fix differ, on
apache/tvm (harness/blind_demo.py; run with scripts/blind_demos.py --bug
split_host_device_inplace), every round's; demos_tirx.py has apache/tvm-tirx's.

The programs are modules of functions with device regions (a ``T.attr(target, "target", 0)``
region around a thread launch, llvm host), as the pipeline hands them to SplitHostDevice, or
with none (a host-only function, a module split by hand, a function not in SSA form), built by
``programs`` of this line's functions, and ``entries`` makes the demos of them; demos_tirx.py
takes the entries for the same programs of its line's. The observers, which both lines share,
show whether the caller's module changed and what the split made (harness/blind_inplace.py),
whether a module's two loops still share their variable, and the passes an instrument sees."""

import sys
from types import SimpleNamespace

import tvm_ffi

from harness.blind_demo import Demo, line_package
from harness.blind_inplace import (
    IMMUTABLE,
    NOTE,
    before_and_after,
    input_after,
    module_info,
    module_of,
    output_of,
    output_script,
    split_host_device,
    statements,
    vdevice,
)
from harness.tvm_line import LINE, ir


def device_region(name="main", kind="cuda"):
    """A public function ``name`` whose 8 threads add 1 to a float32 buffer (``kind``, llvm
    host)."""
    from tvm.script import tirx as T

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target(kind, host="llvm")})
        T.attr(T.target(kind), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] + T.float32(1)

    return main.with_attr("global_symbol", name)


def serial_region():
    """A device region without a thread launch: a single-threaded kernel of a serial loop."""
    from tvm.script import tirx as T

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)
        for i in range(8):
            A[i] = A[i] + T.float32(1)

    return main


def host_only():
    """A function of the CPU (llvm), no device region."""
    from tvm.script import tirx as T

    @T.prim_func(s_tir=True)
    def a_host(B: T.Buffer((4,), "int32")):
        T.func_attr({"target": T.target("llvm")})
        for j in range(4):
            B[j] = j

    return a_host


def launch_under_if():
    """A kernel launched inside a host ``if`` on a scalar parameter (opencl, llvm host)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), n: T.int32):
        T.func_attr({"target": T.target("opencl", host="llvm")})
        if n > 0:
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] * T.float32(2)

    return main


def two_launches():
    """One host function that launches two kernels one after the other."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = A[i] + T.float32(1)
        with T.launch_thread("threadIdx.x", 8) as j:
            B[j] = A[j]

    return main


def split_by_hand():
    """A module already split: ``main`` calls its private cuda kernel (nothing to split)."""
    from tvm.script import ir as I
    from tvm.script import tirx as T

    @I.ir_module
    class Module:
        @T.prim_func
        def main(A: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            Module.kernel(A.data)

        @T.prim_func(private=True)
        def kernel(A_data: T.handle("float32")):
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer((8,), "float32", data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    return Module


def loops_bound_twice():
    """A host-only llvm function whose two loops bind one variable: valid TIR, not in SSA form
    (ConvertSSA, inside SplitHostDevice, renames the second)."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(8):
            A[i] = T.float32(1)

    loop = main.body
    return tvm.IRModule({"main": main.with_body(tvm.tirx.SeqStmt([loop, loop]))})


def loop_in_loop_of_its_variable():
    """A host-only llvm function whose inner loop rebinds the outer loop's variable."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "int32")):
        T.func_attr({"target": T.target("llvm")})
        for i in range(4):
            A[i] = i

    loop = main.body
    return tvm.IRModule(
        {"main": main.with_body(tvm.tirx.For(loop.loop_var, 0, 2, loop.kind, loop))}
    )


def bound_twice():
    """A host-only function (nothing to split, cuda target) that binds ``x`` twice: ``x = 1;
    x = 2``."""
    import tvm
    from tvm import tirx

    x = tirx.Var("x", "int32")
    stmts = []
    for value in (1, 2):
        stmts += [tirx.Bind(x, tirx.const(value, "int32")), tirx.Evaluate(x)]
    func = tirx.PrimFunc([], tirx.SeqStmt(stmts))
    return tvm.IRModule({"main": func.with_attr("target", tvm.target.Target("cuda", host="llvm"))})


def programs(f):
    """The demos' programs, made of a line's functions ``f`` (its demos module, with this
    one's builder names)."""

    def kernels(n, kind="opencl"):
        return {f"f{k}": lambda k=k: f.device_region(f"f{k}", kind) for k in range(n)}

    def module(build):
        return lambda: line_package().IRModule({"main": build()})

    return SimpleNamespace(
        one=module_of(NOTE, main=f.device_region),
        two=module_of(NOTE, main=f.device_region, other=lambda: f.device_region("other")),
        host_first=module_of(NOTE, a_host=f.host_only, main=f.device_region),
        bare_one=module_of(main=f.device_region),
        lib_prefix=module_of({"system_lib_prefix": "lib_"}, main=f.device_region),
        flag=module_of({"demo.flag": 7}, main=f.device_region),
        info_one=module_of(infos=vdevice, main=f.device_region),
        opencl_one=module_of(**kernels(1)),
        opencl_two=module_of(**kernels(2)),
        opencl_info=module_of(infos=vdevice, **kernels(1)),
        helper_and_kernel=module_of(helper=f.host_only, main=f.device_region),
        launch_under_if=module(f.launch_under_if),
        under_if_with_attrs=module_of(
            {"system_lib_prefix": "lib_", "runtime_note": "kept"}, main=f.launch_under_if
        ),
        two_launches=module(f.two_launches),
        split_by_hand=f.split_by_hand,
        loops_bound_twice=f.loops_bound_twice,
        loop_in_loop=f.loop_in_loop_of_its_variable,
        bound_twice=f.bound_twice,
    )


def loops_share_var(mod):
    """Observer: whether the two loops of the pass's output's ``main`` bind one variable (it is
    not in SSA form)."""
    pkg = line_package()
    loop_class, var = (pkg.tirx.For, "loop_var") if LINE == "tvm" else (pkg.ir.For, "var")
    loops = []
    main = split_host_device()(mod)["main"]
    tvm_ffi.structural_walk(main.body, [(loop_class, loops.append)], order="pre")
    first, second = (getattr(loop, var) for loop in loops[:2])
    return f"{len(loops)} loops; same loop variable: {first.same_as(second)}"


def instrumented_passes(mod):
    """Observer: the passes an instrument sees run, under testing.immutable_module."""
    pkg = line_package()
    instrument = pkg.ir.instrument if LINE == "tvm" else pkg.ir.transform
    seen = []

    @instrument.pass_instrument
    class Record:
        def run_before_pass(self, _mod, info):
            seen.append(info.name)

    with ir.PassContext(config=IMMUTABLE, instruments=[Record()]):
        split_host_device()(mod)
    return seen


CHANGED = before_and_after(split_host_device)
CHECKED = before_and_after(split_host_device, IMMUTABLE)
SPLIT = output_script(split_host_device)
INPUT = input_after(split_host_device, statements)
OUTPUT = output_of(split_host_device, statements)
INFO = module_info(split_host_device)


def entries(P):
    """The demos of the programs ``P`` (``programs`` of a line's functions), every round's:
    demos_tirx.py takes them for its line's."""
    return {
        # round 2
        # the input stays unsplit; the wrong fix copies the pass's result, not its input
        "blind2-clone-result": Demo(P.one, CHANGED),
        # two functions to split under testing.immutable_module: the wrong fix runs the pass on a
        # copy but in the caller's context, which trips on the copy being written
        "blind2-immutable-kept": Demo(P.two, CHECKED),
        # the output keeps the module's attributes; the wrong fix's copy drops them
        "blind2-copy-drops-attrs": Demo(P.one, CHANGED),
        # a region without a thread launch: the wrong fix copies only for a thread launch
        "blind2-thread-launch-only": Demo(module_of(NOTE, main=serial_region), CHANGED),
        # a host-only function first, then one to split: the wrong fix decides from the first
        "blind2-first-function-only": Demo(P.host_first, CHANGED),
        # the host function launches its kernel; the wrong fix returns the copy it handed the pass
        # (split in place, its launches not lowered)
        "blind2-return-copy": Demo(P.one, SPLIT),
        # round 3
        # the input keeps its unsplit main; the wrong fix copies before the second write only
        "blind3-host-update-in-place": Demo(P.one, CHANGED),
        # split by hand, nothing to split: the call still becomes a kernel launch and the kernel
        # gets calling_conv 2; the wrong fix returns early, unlowered
        "blind3-early-return-unlowered": Demo(P.split_by_hand, SPLIT),
        # a host-only function not in SSA form: the output is; the wrong fix runs ConvertSSA only
        # where something was split
        "blind3-convert-ssa-in-guard": Demo(P.loops_bound_twice, loops_share_var),
        # the output keeps the module attribute; the wrong fix's copy drops it
        "blind3-copy-drops-attrs": Demo(P.one, CHANGED),
        # the output holds main_kernel, launched from main; the wrong fix writes the split into a
        # copy it then drops
        "blind3-split-result-discarded": Demo(P.one, SPLIT),
        # called plainly, the input stays unsplit; the wrong fix copies only under
        # testing.immutable_module
        "blind3-copy-only-when-immutable": Demo(P.one, CHANGED),
        # round 4
        "blind4-copy-after-first-write": Demo(P.bare_one, INPUT),
        "blind4-guard-skips-launch-lowering": Demo(P.split_by_hand, OUTPUT),
        "blind4-guard-returns-early": Demo(P.bound_twice, OUTPUT),
        "blind4-copy-drops-attrs": Demo(P.lib_prefix, INFO),
        "blind4-copy-drops-global-infos": Demo(P.info_one, INFO),
        "blind4-copy-only-under-immutable-option": Demo(P.bare_one, INPUT),
        # round 5
        "blind5-only-under-immutable": Demo(P.launch_under_if, INPUT),
        "blind5-host-update-in-place": Demo(P.two_launches, INPUT),
        "blind5-early-return": Demo(P.loop_in_loop, OUTPUT),
        "blind5-lower-inside-guard": Demo(P.split_by_hand, OUTPUT),
        "blind5-copy-drops-attrs": Demo(P.under_if_with_attrs, INFO),
        "blind5-new-module-of-updates": Demo(P.helper_and_kernel, OUTPUT),
        # round 6
        "blind6-shd-immutable-kept": Demo(P.opencl_two, CHECKED),
        "blind6-shd-inner-ctx-no-instruments": Demo(P.opencl_one, instrumented_passes),
        "blind6-shd-copy-drops-global-infos": Demo(P.opencl_info, INFO),
        "blind6-shd-first-write-inplace": Demo(P.opencl_two, INPUT),
        "blind6-shd-no-ssa-when-nothing-to-split": Demo(P.loops_bound_twice, loops_share_var),
        "blind6-shd-single-function-inplace": Demo(P.opencl_one, INPUT),
        # round 7
        "blind7-cow-second-write-only": Demo(P.bare_one, INPUT),
        "blind7-guard-returns-early": Demo(P.loops_bound_twice, loops_share_var),
        "blind7-copy-drops-attrs": Demo(P.flag, INFO),
        "blind7-copy-drops-global-infos": Demo(P.info_one, INFO),
        "blind7-copy-in-local": Demo(P.bare_one, OUTPUT),
    }


DEMOS = entries(programs(sys.modules[__name__]))

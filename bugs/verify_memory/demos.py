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
"""Programs on which VerifyMemory's reference fix and each blind wrong fix differ, on apache/tvm
(harness/blind_demo.py; run with scripts/blind_demos.py --bug verify_memory). demos_tirx.py shows
them on apache/tvm-tirx: the builder, the programs and the observers here serve both lines (TVM
is imported when a program is built or observed).

Each program is a small function of host code beside kernels: most touch device memory from the
host, or compute a view that only a kernel reads. It is compiled (rejected, naming the variable,
or compiled) or, where tvm.compile would not show the difference, given to the analysis or the
pass alone, as the patch's tests do."""

import importlib
import re

from harness.blind_demo import Demo, line_package, message

# the parameters most programs take
A8 = 'A: T.Buffer((8,), "float32")'
BC8 = 'B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")'
L1 = 'L: T.Buffer((1,), "int32")'
IDX = 'Idx: T.Buffer((1,), "int32")'
POINTER = 'a: T.handle("float32", "global")'
ONE = "T.float32(1)"


def tirx_text(text):
    """apache/tvm's TVMScript ``text`` (as the programs here write it) in apache/tvm-tirx's:
    tensors for buffers, ``decl_tensor``/``alloc_tensor`` for ``decl_buffer``/``alloc_buffer``,
    a launch_thread region for each thread_binding loop."""
    text = text.replace("@T.prim_func", "@T.function").replace("T.Buffer(", "T.Tensor(")
    text = re.sub(
        r'T\.decl_buffer\((\(.*?\)), "(\w+)", data=(.*)\)$',
        r'T.decl_tensor(\3, ty_args=[T.Tensor(\1, "\2")])',
        text,
        flags=re.M,
    )
    text = re.sub(
        r'T\.alloc_buffer\((\(.*?\)), "(\w+)"(, scope="[\w.]+")?(?:, annotations=(\{.*\}))?\)',
        lambda m: f'T.alloc_tensor(ty_args=[T.Tensor({m[1]}, "{m[2]}"{m[3] or ""})]'
        + (f", attrs={m[4]})" if m[4] else ")"),
        text,
    )
    return re.sub(
        r'for (\w+) in T\.thread_binding\((.+?), thread="([\w.]+)"\):',
        r'with T.launch_thread("\3", \2) as \1:',
        text,
    )


def target(kind, host=None):
    """The Target ``kind`` (with ``host``) of this process's line; cuda as sm_80 on tvm-tirx."""
    tvm = line_package()
    if kind == "cuda" and tvm.__name__ == "tvm_tirx":
        kind = {"kind": "cuda", "arch": "sm_80"}
    return tvm.target.Target(kind, host=host) if host else tvm.target.Target(kind)


def lines(*parts):
    """Statement lines: strings, or lists of them (a block's lines), flattened."""
    return [x for p in parts for x in ([p] if isinstance(p, str) else lines(*p))]


def block(head, *body):
    """A block's lines: ``head``, then ``body`` one level in."""
    return [head] + ["    " + x for x in lines(*body)]


def launch(var, extent, *body, tag="threadIdx.x"):
    """A launch_thread region of ``extent`` threads ``var`` over ``body``."""
    return block(f'with T.launch_thread("{tag}", {extent}) as {var}:', *body)


def bound(var, extent, *body, tag="threadIdx.x"):
    """A loop bound to ``tag`` (a launch region on apache/tvm-tirx) over ``body``."""
    return block(f'for {var} in T.thread_binding({extent}, thread="{tag}"):', *body)


def loop(*body):
    """A loop ``i`` over eight iterations bound to no thread: host code."""
    return block("for i in range(8):", *body)


def increment(X, n, blocks=True):
    """A kernel adding 1 to ``X[tx]`` for tx < ``n`` (in one blockIdx.x block where ``blocks``)."""
    kernel = bound("tx", n, f"{X}[tx] = {X}[tx] + {ONE}")
    return bound("bx", 1, kernel, tag="blockIdx.x") if blocks else kernel


def view(name, shape, data):
    """The statement declaring a float32 view ``name`` of ``shape`` over the pointer ``data``."""
    return f'{name} = T.decl_buffer({shape}, "float32", data={data})'


def alloc(name, shape, scope="", annotations=None):
    """The statement allocating a float32 buffer ``name``."""
    scope = f', scope="{scope}"' if scope else ""
    annotations = f", annotations={annotations}" if annotations else ""
    return f'{name} = T.alloc_buffer({shape}, "float32"{scope}{annotations})'


def function(params, *body, kind=None, host="llvm", private=False):
    """``main(params)`` of ``body`` (statement lines) on this process's line, for target
    ``kind`` (with ``host``) where one is given; ``private``: no global symbol."""
    tvm = line_package()
    script = importlib.import_module(f"{tvm.__name__}.script")
    head = "@T.prim_func(private=True)" if private else "@T.prim_func"
    text = f"{head}\ndef main({params}):\n" + "".join(f"    {x}\n" for x in lines(*body))
    if tvm.__name__ == "tvm_tirx":
        text = tirx_text(text)
    func = script.from_source(text, extra_vars={"T": script.tirx})
    return func.with_attr("target", target(kind, host)) if kind else func


def program(params, *body, **where):
    """A demo's program: ``function(params, *body, **where)``."""
    return lambda: function(params, *body, **where)


def stored(params, data, *kernel, shape="(8,)", before=(), **where):
    """The host stores 1 into V[0], V a view of ``shape`` at ``data`` (after the statements
    ``before``), beside ``kernel``."""
    return program(params, *before, view("V", shape, data), f"V[0] = {ONE}", *kernel, **where)


def chained(params, base, depth, *kernel, **where):
    """The host stores through a view ``depth`` (1 or 2) views away from ``base``."""
    before = [view("U", "(8,)", f"{base}.data")] if depth == 2 else []
    data = "U.data" if depth == 2 else f"{base}.data"
    return stored(params, data, *kernel, before=before, **where)


def view_at(params, element, *kernel, **where):
    """A host view V of four elements at ``element``'s address, beside ``kernel``."""
    return program(params, view("V", "(4,)", f"T.address_of({element})"), *kernel, **where)


def cell(shape, value, read, params=A8, threads=8, kind="cuda", **alloc_args):
    """The host stores ``value`` into W[0] of its allocation W; a kernel of ``threads`` threads
    runs ``read`` (for ``kind``, an llvm host)."""
    return program(
        params,
        alloc("W", shape, **alloc_args),
        f"W[0] = {value}",
        launch("tx", threads, read),
        kind=kind,
    )


def nested_extent(blocks, store, params=f"{A8}, {L1}", **where):
    """A kernel of ``blocks`` blocks whose threadIdx.x extent, L[0], is read on the host."""
    inner = launch("tx", "L[0]", store)
    return program(params, launch("bx", blocks, inner, tag="blockIdx.x"), **where)


def access_ptr(base, offset, extent, mask):
    """``tvm_access_ptr`` of float32 elements of ``base`` (apache/tvm's script only)."""
    return (
        f'T.tvm_access_ptr(T.type_annotation("float32"), {base}.data, {offset}, {extent}, {mask})'
    )


# the observers


def compiled(kind="cuda", host=None):
    """Compile for ``kind`` (no GPU needed: source only): "compiled", or the error's type and
    the line naming the variable accessed on the host (else its last line)."""

    def observe(func):
        tvm = line_package()
        build = tvm.compile if tvm.__name__ == "tvm" else tvm.tirx.compile
        try:
            build(func, target=target(kind, host))
        except Exception as err:  # the result: an error
            said = [x.strip() for x in str(err).splitlines() if x.strip()]
            said = [x for x in said if "directly accessed" in x] or said[-1:]
            return f"rejected: {type(err).__name__}: {said[0][:200]}"
        return "compiled"

    return observe


def verified(kind=None, host=None):
    """The analysis, ``tirx.analysis.verify_memory``, of the function (given the target
    ``kind`` first, where its attributes name none)."""

    def observe(func):
        if kind is not None:
            func = func.with_attr("target", target(kind, host))
        return f"verify_memory: {line_package().tirx.analysis.verify_memory(func)}"

    return observe


def pass_error(func):
    """The error the pass, ``tirx.transform.VerifyMemory``, raises on a module of ``func``
    alone, or None."""
    tvm = line_package()
    try:
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))
    except Exception as err:  # the result: the pass's error
        return err
    return None


def variables(err):
    """The lines of the pass's error that name a variable."""
    return [x.strip() for x in str(err).splitlines() if "Variable" in x]


def named(func):
    """The pass: "accepted", or "rejected: " and the variables it names."""
    err = pass_error(func)
    if err is None:
        return "accepted"
    names = re.findall(r"Variable `(\w+)` is directly accessed", str(err))
    return "rejected: " + ", ".join(sorted(set(names))) if names else f"error: {err}"


def judged(func):
    """The analysis's verdict and the pass's first line naming a variable."""
    ok = line_package().tirx.analysis.verify_memory(func)
    err = pass_error(func)
    said = "accepted" if err is None else (variables(err) or [str(err)[:100]])[0]
    return f"verify_memory={ok}; pass: {said}"


def said(func):
    """The pass: "OK", or the error's type and its lines naming a variable."""
    err = pass_error(func)
    if err is None:
        return "OK"
    return f"{type(err).__name__}: {variables(err) or message(err)}"


# the programs, by the round that added them (both lines show them but access_ptr_store)

# round 2
INTO_DEVICE_ALLOCATION = cell(
    "(8,)", ONE, "A[tx] = W[0]", scope="global", annotations={"device_type": 2}
)
HOSTLESS_LOOP = program(A8, loop(f"A[i] = A[i] + {ONE}"), kind="cuda", host=None)
EXTENT_FROM_HOST = program(f"{A8}, {L1}", increment("A", "L[0]"))
# round 3
VIEW_AT_FOUR = view_at(
    f'{A8}, C: T.Buffer((4,), "float32")', "A[4]", bound("tx", 4, "C[tx] = V[tx]")
)
VIEW_AT_DEVICE_INDEX = view_at(
    f'{IDX}, {A8}, C: T.Buffer((4,), "float32")', "A[Idx[0]]", bound("tx", 4, "C[tx] = V[tx]")
)
INTO_SECOND_PARAMETER = program(BC8, f"C[0] = {ONE}", bound("tx", 8, "C[tx] = B[tx]"))
THROUGH_POINTER = stored(POINTER, "a", increment("V", 8, blocks=False))
HOSTLESS_STORE = program(
    BC8, f"C[0] = {ONE}", launch("tx", 8, "C[tx] = B[tx]"), kind="cuda", host=None
)
SHARED_DYN_SIZE = program(
    f'{L1}, C: T.Buffer((8,), "float32")',
    bound("tx", 8, alloc("S", "(L[0],)", "shared.dyn"), f"S[tx] = {ONE}", "C[tx] = S[tx]"),
)
UNBOUND_LOOP = program(BC8, loop(f"C[i] = B[i] + {ONE}"))
INNER_EXTENT = program(
    f'{L1}, C: T.Buffer((64,), "float32")',
    bound("bx", 8, bound("tx", "L[0]", f"C[bx * 8 + tx] = {ONE}"), tag="blockIdx.x"),
)


def stack_buffer(value):
    """Round 3's valid program: a buffer t that LowerTVMBuiltin leaves on the host stack
    (disable_lower_builtin), written by a host loop, beside a kernel storing ``value``."""
    return program(
        'C: T.Buffer((8,), "float32")',
        alloc("t", "(4,)", annotations={"disable_lower_builtin": 1}),
        block("for i in range(4):", "t[i] = T.float32(2)"),
        launch("tx", 8, f"C[tx] = {value}"),
        kind="cuda",
    )


# round 4: for cuda with an llvm host
POINTER_STORE = stored(POINTER, "a", kind="cuda")
WRITTEN_VIEW = view_at(A8, "A[4]", launch("tx", 4, f"V[tx] = {ONE}"), kind="cuda")
WRITTEN_VIEW_AT_INDEX = view_at(
    f"{A8}, {IDX}", "A[Idx[0]]", launch("tx", 4, f"V[tx] = {ONE}"), kind="cuda"
)
EIGHT_BLOCKS_EXTENT = nested_extent(8, f"A[bx] = {ONE}", kind="cuda")
SHARED_DYN_IN_BLOCKS = program(
    f"{A8}, {L1}",
    launch(
        "bx",
        8,
        alloc("S", "(L[0],)", "shared.dyn"),
        f"S[0] = {ONE}",
        "A[bx] = S[0]",
        tag="blockIdx.x",
    ),
    kind="cuda",
)
DISABLED_LOWERING_CELL = cell(
    "(4,)", ONE, "A[tx] = W[0]", threads=4, annotations={"disable_lower_builtin": 1}
)
TWO_VIEWS_AWAY = chained(A8, "A", 2, kind="cuda")
# the host stores through a view of A, a kernel writes it
VIEW_WRITTEN_ON_WEBGPU = chained(A8, "A", 1, launch("tx", 8, "V[tx] = T.float32(2)"), kind="webgpu")
VIEW_WRITTEN_HOSTLESS = chained(
    A8, "A", 1, launch("tx", 8, "V[tx] = T.float32(2)"), kind="cuda", host=None
)


# round 5: for cuda with an llvm host
def second_viewed(depth, kind="cuda"):
    """The host stores through a view ``depth`` views away from the second parameter B, which
    a kernel reads."""
    params = 'A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")'
    return chained(params, "B", depth, launch("tx", 8, "A[tx] = V[tx]"), kind=kind)


VIEW_READ = view_at(
    f'{A8}, B: T.Buffer((4,), "float32")', "A[4]", launch("tx", 4, "B[tx] = V[tx]"), kind="cuda"
)
ONE_BLOCK_EXTENT = nested_extent(1, "A[tx] = T.float32(0)", kind="cuda")
DISABLED_LOWERING_SCALAR = cell(
    "(1,)",
    "T.float32(2)",
    f"A[tx] = {ONE}",
    scope="global",
    annotations={"disable_lower_builtin": 1},
)
DEVICE_HELPER = stored(POINTER, "a", kind="cuda", host=None, private=True)
LOCAL_SCALAR = cell("(1,)", "T.float32(2)", f"A[tx] = {ONE}", scope="local")
# round 6: for cuda with an llvm host
SECOND_LOOPED = program(BC8, loop(f"C[i] = {ONE}"), kind="cuda")
B8 = 'B: T.Buffer((8,), "float32")'
LOOP_ON_WEBGPU = program(B8, loop(f"B[i] = {ONE}"), kind="webgpu")
WRITTEN_VIEW_OF_SIXTEEN = view_at(
    'A: T.Buffer((16,), "float32")', "A[4]", launch("tx", 4, f"V[tx] = {ONE}"), kind="cuda"
)
HELPER_LOOP = program(B8, loop(f"B[i] = {ONE}"), kind="cuda", host=None, private=True)
LOCAL_CELL_READ = cell("(1,)", "T.float32(2)", "A[tx] = W[0]", scope="local")
ONE_BLOCK_STORE = nested_extent(1, f"A[tx] = {ONE}", kind="cuda")


# round 7: B and C of eight elements, a kernel of eight threads
def view_of_c(kind, host="llvm"):
    """The host stores through a view of the second parameter C; the kernel copies B to C."""
    return chained(BC8, "C", 1, launch("tx", 8, "C[tx] = B[tx]"), kind=kind, host=host)


def at_offset(pointer):
    """The host stores through a view of four elements at ``pointer`` (B's fifth element)."""
    return stored(BC8, pointer, launch("tx", 8, "C[tx] = B[tx]"), shape="(4,)", kind="cuda")


VIEW_READ_BY_EIGHT = view_at(BC8, "B[4]", launch("tx", 8, "C[tx] = V[tx % 4]"), kind="cuda")
LOCAL_CELL_ON_ROCM = cell(
    "(1,)", "T.float32(1.5)", "C[tx] = B[tx] + W[0]", params=BC8, kind="rocm", scope="local"
)
CPU_ANNOTATED_ON_METAL = cell(
    "(4,)",
    "T.float32(2)",
    'C[tx] = B[tx] + T.Cast("float32", n)',
    params=f"{BC8}, n: T.int32",
    kind="metal",
    annotations={"device_type": 1},
)
EXTENT_ON_VULKAN = nested_extent(1, "C[tx] = B[tx]", params=f"{BC8}, {L1}", kind="vulkan")


def access_ptr_store(*kernel, **where):
    """apache/tvm only: the host stores through a view at ``tvm_access_ptr(..., A.data, ...)``
    (let-bound to p), beside ``kernel``."""
    return stored(A8, "p", *kernel, before=[f"p = {access_ptr('A', 0, 8, 3)}"], **where)


DEMOS = {
    # round 2
    # a host store through a view at tvm_access_ptr(..., A.data, ...): the wrong fix follows the
    # type annotation (operand 0), not the pointer
    "blind2-access-ptr-operand-0": Demo(access_ptr_store(increment("A", 8)), compiled()),
    # a view at address_of(A[B[0]]) that the kernel reads: the host reads B in the index; the
    # wrong fix skips the address with its indices
    "blind2-address-of-skipped": Demo(
        view_at(f'{A8}, B: T.Buffer((1,), "int32")', "A[B[0]]", increment("V", 4)), compiled()
    ),
    # a host store into an allocation annotated device_type 2 (CUDA; cuda with an llvm host): the
    # wrong fix takes any device_type for host memory
    "blind2-device-type-presence": Demo(INTO_DEVICE_ALLOCATION, verified()),
    # a host store through a view of a T.handle("float32") parameter: the wrong fix counts buffer
    # parameters only
    "blind2-handle-params-ignored": Demo(
        stored('a: T.handle("float32"), B: T.Buffer((8,), "float32")', "a", increment("B", 8)),
        compiled(),
    ),
    # an entry point with T.target("cuda") (no host) and a host loop: the wrong fix skips every
    # host-less function
    "blind2-host-less-entry-skipped": Demo(HOSTLESS_LOOP, verified()),
    # a nested threadIdx.x extent read from L[0]: the wrong fix visits the outermost extent only
    # and a later pass stops
    "blind2-nested-extents-device": Demo(EXTENT_FROM_HOST, compiled()),
    # a host store through a view of a view of A: the wrong fix follows one definition step
    "blind2-one-step-alias": Demo(
        stored(A8, "U.data", increment("A", 8), shape="(4,)", before=[view("U", "(8,)", "A.data")]),
        compiled(),
    ),
    # round 3
    # VALID: a host view at address_of(A[4]) that only the kernel reads: the wrong fix counts the
    # address as an access of A
    "blind3-address-of-counts-access": Demo(VIEW_AT_FOUR, compiled()),
    # a host view at address_of(A[Idx[0]]): the wrong fix skips the index, a host read of Idx
    "blind3-address-of-skips-indices": Demo(VIEW_AT_DEVICE_INDEX, compiled()),
    # VALID: a disable_lower_builtin buffer written by a host loop (analysis: inside tvm.compile a
    # pass before VerifyMemory drops the annotation): the wrong fix needs device_type kDLCPU
    "blind3-disable-lower-builtin-ignored": Demo(
        stack_buffer('T.float32(1) + T.Cast("float32", tx)'), verified()
    ),
    # a host store into the second buffer parameter: the wrong fix counts params[0] only
    "blind3-first-param-only": Demo(INTO_SECOND_PARAMETER, compiled()),
    # a host store through a view of a T.handle("float32", "global") parameter: the wrong fix
    # counts buffer-typed parameters only
    "blind3-handle-param-not-pointer": Demo(THROUGH_POINTER, compiled()),
    # an entry point with T.target("cuda") (no host) storing into its parameter on the host
    # (analysis): the wrong fix skips every host-less function
    "blind3-hostless-entry-skipped": Demo(HOSTLESS_STORE, verified()),
    # a shared.dyn size read from L[0]: the wrong fix does not visit it as host code, and a later
    # pass stops
    "blind3-no-shared-dyn-size": Demo(SHARED_DYN_SIZE, compiled()),
    # a loop bound to no thread over device buffers, for webgpu: the wrong fix leaves webgpu out
    # of the GPUs
    "blind3-no-webgpu": Demo(UNBOUND_LOOP, compiled("webgpu", "llvm")),
    # a nested launch's extent read from L[0]: the wrong fix visits the opening extent only, and a
    # later pass stops
    "blind3-outer-extent-only": Demo(INNER_EXTENT, compiled()),
    # round 4
    "blind4-handle-param-not-pointer": Demo(POINTER_STORE, named),
    "blind4-access-ptr-operand-0": Demo(access_ptr_store(kind="cuda"), named),
    "blind4-address-of-is-access": Demo(WRITTEN_VIEW, named),
    "blind4-address-of-skips-indices": Demo(WRITTEN_VIEW_AT_INDEX, named),
    "blind4-outer-extent-only": Demo(EIGHT_BLOCKS_EXTENT, named),
    "blind4-no-shared-dyn-size": Demo(SHARED_DYN_IN_BLOCKS, named),
    "blind4-ignore-disable-lower-builtin": Demo(DISABLED_LOWERING_CELL, named),
    "blind4-one-alias-step": Demo(TWO_VIEWS_AWAY, named),
    "blind4-no-webgpu": Demo(VIEW_WRITTEN_ON_WEBGPU, named),
    "blind4-skip-every-hostless": Demo(VIEW_WRITTEN_HOSTLESS, named),
    # round 5
    "blind5-first-param-only": Demo(second_viewed(1), verified()),
    "blind5-address-of-is-access": Demo(VIEW_READ, verified()),
    "blind5-webgpu-unchecked": Demo(second_viewed(1, "webgpu"), verified()),
    "blind5-outer-extent-only": Demo(ONE_BLOCK_EXTENT, verified()),
    "blind5-disable-lower-builtin-ignored": Demo(DISABLED_LOWERING_SCALAR, verified()),
    "blind5-alias-one-step": Demo(second_viewed(2), verified()),
    "blind5-device-helpers-checked": Demo(DEVICE_HELPER, verified()),
    "blind5-local-alloc-as-device": Demo(LOCAL_SCALAR, verified()),
    # round 6
    "blind6-first-param-only": Demo(SECOND_LOOPED, judged),
    "blind6-no-webgpu": Demo(LOOP_ON_WEBGPU, judged),
    "blind6-address-of-accesses": Demo(WRITTEN_VIEW_OF_SIXTEEN, judged),
    "blind6-helper-checked": Demo(HELPER_LOOP, judged),
    "blind6-local-alloc-device": Demo(LOCAL_CELL_READ, judged),
    "blind6-nested-extent-device": Demo(ONE_BLOCK_STORE, judged),
    # round 7
    "blind7-webgpu-not-gpu": Demo(view_of_c("webgpu"), said),
    "blind7-first-param-only": Demo(view_of_c("cuda"), said),
    "blind7-offset-not-followed": Demo(at_offset(access_ptr("B", 4, 4, 2)), said),
    "blind7-address-of-access": Demo(VIEW_READ_BY_EIGHT, said),
    "blind7-hostless-entry-skipped": Demo(view_of_c("opencl", host=None), said),
    "blind7-local-alloc-device": Demo(LOCAL_CELL_ON_ROCM, said),
    "blind7-cpu-annotation-ignored": Demo(CPU_ANNOTATED_ON_METAL, said),
    "blind7-nested-extent-skipped": Demo(EXTENT_ON_VULKAN, said),
}

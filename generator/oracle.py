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
"""The semantic oracle: one program through one TVM line, judged clause by clause.

Runs inside an interpreter of that line (``tvm`` or ``tvm_tirx``); scripts/campaign.py starts
one child per line (generator/worker.py). ``judge(program)`` returns ``Verdict``: the
violations found, each ``(clause, key, message)`` with a stable ``key`` (clause, pass,
normalized message) that says which class it belongs to, and the clauses it could not judge.

(a) the lowered host function (after LowerTVMBuiltin) never loads or stores through a
    pointer to device memory: a workspace allocated with a device type other than kDLCPU, or
    the data of a tensor argument (the arguments of a GPU function live on the device),
    followed through every alias (``decl_buffer``/``decl_tensor``, ``.data``, ``address_of``,
    a bound pointer);
(b) every scalar parameter of every kernel has a type the GPU runtimes can pass;
(c) at every launch the kernel receives what the host holds (generator/replay.py);
(d) a valid program compiles; an invalid one (program.invalid) is rejected with a message,
    not an internal check failure; a valid program whose kernels hold a type the target lacks
    (an int64 in WGSL, a float64 on Metal) may be refused by the code generator with a
    ValueError that names the target and that type (codegen_missing_dtype's rule, patch 0014),
    and a WebGPU kernel's own view at an element's address by a ValueError that names the view
    and WGSL's lack of pointer casts (webgpu_view_at_address's rule, patch 0015);
(e) no pass changes the module it was given (structural hash before and after the pass);
(f) printing each pass's output and parsing it back gives a structurally equal module;
(g) Relax modules stay well formed after every pass (generator/relax_cases.py).
"""

import contextlib
import dataclasses
import io
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import tvm_ffi

from generator import device
from generator import program as P
from generator.replay import KernelReplay, Unjudged

CLAUSES = ("a", "b", "c", "d", "e", "f", "g")
WRAPPERS = ("sequential", "_pipeline")
# the passes whose output the clauses (a), (b), (c) read
KEPT = ("tirx.SplitHostDevice", "tirx.LowerTVMBuiltin")


@dataclass
class Verdict:
    violations: list = field(default_factory=list)  # (clause, key, message)
    unjudged: set = field(default_factory=set)
    parse_error: str = ""
    judged: set = field(default_factory=set)
    unjudged_why: str = ""  # why (c) could not judge a valid program that compiled
    c_by: str = ""  # who judged (c): "device" (OpenCL, and the replay too) or "replay"
    device_why: str = ""  # why the device did not judge a program the replay judged

    def add(self, clause, key, message):
        if not any(v[1] == key for v in self.violations):
            self.violations.append((clause, key, message[:400]))


def normalize(message):
    """A message without what varies between programs: names, numbers, paths, addresses."""
    # what follows "Location (TVMScript):" is the IR the error points into, not the error
    text = str(message).split("Location (TVMScript):")[0]
    lines = [x.strip() for x in text.strip().splitlines() if x.strip()]
    keep = [x for x in lines if re.search(r"Error|Check failed|error:|Cannot|cannot", x)]
    # a Python pass's wrapper line names the pass, not the cause: the cause when there is one
    keep = [x for x in keep if not x.startswith("Error in pass:")] or keep
    checks = [x for x in keep if "Check failed" in x]
    # the failed check names the cause ("Error in codegen: llvm" after it does not)
    text = checks[0] if checks else (keep or lines or [""])[-1]
    text = re.sub(r"/\S+\.(cc|h|py):\d+", "<src>", text)
    text = re.sub(r"\bv\d+(_\w+)?\b", "v", text)
    text = re.sub(r"\bo\d+_\d+(_\w+)?\b", "o", text)
    text = re.sub(r"0x[0-9a-f]+", "0x", text)
    text = re.sub(r"\d+", "N", text)
    return text[:160]


class Line:
    """What the oracle needs of one TVM line."""

    def __init__(self, line):
        self.line = line
        if line == "tvm":
            import tvm
            from tvm.script import ir as I
            from tvm.script import tirx as T

            self.tvm, self.T, self.I = tvm, T, I
            self.instrument = tvm.instrument.pass_instrument
            self.PassContext = tvm.transform.PassContext
            self.Call = tvm.ir.Call
            self.version = tvm.__version__
        else:
            import tvm_tirx
            import tvm_tirx.ir.transform as ir_transform
            from tvm_tirx.script import tirx as T

            self.tvm, self.T, self.I = tvm_tirx, T, None
            self.instrument = ir_transform.pass_instrument
            self.PassContext = ir_transform.PassContext
            self.Call = tvm_tirx.ir.Call
            self.version = tvm_tirx.__version__

    def parse(self, text):
        extra = {"T": self.T, "tvm": self.tvm}
        if self.I is not None:
            extra["I"] = self.I
        return self.tvm.script.from_source(text, extra_vars=extra)

    def target(self, kind):
        if kind == "cuda":
            return self.tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
        return self.tvm.target.Target(kind)

    def compile(self, mod, target, tir_pipeline="default"):
        """``mod`` compiled for ``target``; ``tir_pipeline`` is apache/tvm's (tvm-tirx has the
        tirx pipeline only)."""
        if self.line == "tvm":
            return self.tvm.compile(mod, target=target, tir_pipeline=tir_pipeline)
        return self.tvm.tirx.compile(mod, target=target)

    def structural_equal(self, a, b):
        return tvm_ffi.structural_equal(a, b, map_free_vars=True)

    def mismatch(self, a, b):
        # the path alone: assert_structural_equal would print both sides (with underlines,
        # which a printer's reference fix may refuse to print)
        found = tvm_ffi.get_first_structural_mismatch(a, b, map_free_vars=True)
        if found is None:
            return None
        return f"StructuralEqual check failed, caused by lhs at {found[0]}"[:200]

    def call_packed(self, *args):
        return self.tvm.tirx.call_packed(*args)

    def function_like(self, func, body, target):
        new = type(func)(func.params, body, func.ret_type, func.attrs)
        return new.with_attr("target", target)


def _is_ice(err):
    text = str(err)
    return "Check failed" in text or "InternalError" in type(err).__name__ or "ICHECK" in text


# the words of a code generator that refuses a type its target lacks (patch 0014's ValueError)
_LACKS = re.compile(
    r"the (\w+) target cannot (?:represent the type|pass a kernel argument of type) (\w+)"
)


def refuses_a_type_it_lacks(err, where, program):
    """Whether ``err`` is the code generator's user-facing refusal of a type of ``program``
    that its target lacks: a ValueError after the passes that names ``program``'s target and
    one of its values' dtypes. Correct for a valid program: no (d) class."""
    found = _LACKS.search(str(err))
    return (
        where == "codegen"
        and isinstance(err, ValueError)
        and not _is_ice(err)
        and found is not None
        and found.group(1) == program.target
        and found.group(2) in {value.dtype for value in program.values}
    )


# the words of the WebGPU code generator that refuses a kernel's view over an address (patch
# 0015's ValueError; "tensor" on tvm-tirx)
_VIEW = re.compile(
    r"CodeGenWebGPU: cannot declare (?:buffer|tensor) \w+ over .*WGSL has no pointer casts"
)


def refuses_a_view_it_cannot_express(err, where, program):
    """Whether ``err`` is WebGPU's user-facing refusal of a view a kernel of ``program``
    declares at an element's address (alias ``kernel_address_of``). Correct for a valid
    program: no (d) class."""
    return (
        where == "codegen"
        and program.target == "webgpu"
        and isinstance(err, ValueError)
        and not _is_ice(err)
        and _VIEW.search(str(err)) is not None
        and any(value.alias == "kernel_address_of" for value in program.values)
    )


class Oracle:
    """``launchable``: the kernel scalar types the device runtimes pass (clause (b));
    ``program.LAUNCHABLE`` for released TVM, plus uint64 under its reference fix (patch
    0007 passes it in the 64-bit slot)."""

    def __init__(self, line, roundtrip=True, launchable=P.LAUNCHABLE):
        self.L = Line(line)
        self.printer = "script"  # the printing entry point of (f), set per program
        self.immutable = False  # a pass context with testing.immutable_module, per program
        self.line = line
        self.roundtrip = roundtrip
        self.launchable = tuple(launchable)
        # called with where the judgement is ("+ pass", "- pass", "roundtrip pass", "replay")
        # when set (generator/rejudge_crash.py places a death with it)
        self.on_event = None
        # (c) on the OpenCL device (generator/device.py) when this is None, else why not
        self.device_reason = "not asked for"
        self.records = []
        import tvm_ffi as _ffi

        _ffi.register_global_func("generator.record", self._record, override=True)
        _ffi.register_global_func(P.HOST_USE, lambda *args: None, override=True)

    # -------------------------------------------------------------------- the pass pipeline
    def _compile(self, mod, target, verdict, run=None):
        """Compile under an instrument that checks (e) and (f) per pass; the modules after
        SplitHostDevice and LowerTVMBuiltin are kept for (b), (c) and (a).

        (e) is judged where the pipeline sees it: a pass nested in another (TVM's pass inside
        a reference fix that runs it on a copy) that changes its input counts only when every
        pass around it changes its input too, and the class names the innermost of that chain
        (the pass at fault); a wrapper that shields its caller ends the chain.
        (f) round-trips the output of each pass the pipeline runs (not those nested in
        another) when the pass has run (in ``run_after_pass``): a later pass that changes its
        input in place cannot change what is judged."""
        stack, kept = [], {}
        oracle, busy, seen, shown = self, [False], set(), set()

        @self.L.instrument
        class Watch:
            def run_before_pass(self, m, info):
                if busy[0]:
                    return
                if oracle.on_event:
                    oracle.on_event(f"+ {info.name}")
                # [name, input, its hash, the kept passes that ran in it, the changing child]
                stack.append([info.name, m, tvm_ffi.structural_hash(m), set(), None])

            def run_after_pass(self, m, info):
                if busy[0]:
                    return
                name, before, digest, inner, culprit = stack.pop()
                try:
                    self.after(m, name, before, digest, inner, culprit)
                finally:
                    if oracle.on_event:
                        oracle.on_event(f"- {name}")

            def after(self, m, name, before, digest, inner, culprit):
                if name in WRAPPERS:
                    return
                outer = stack[-1] if stack and stack[-1][0] not in WRAPPERS else None
                if tvm_ffi.structural_hash(before) != digest:
                    culprit = culprit or name
                    if outer is None:
                        verdict.add(
                            "e",
                            f"e:{culprit}:input-changed",
                            f"{culprit} changed its input module (through {name})"
                            if culprit != name
                            else f"{name} changed its input module",
                        )
                    elif outer[4] is None:
                        outer[4] = culprit
                if name in KEPT:
                    inner.add(name)
                # a pass that wraps a kept one (a reference fix around TVM's pass) is the kept
                # pass as the pipeline runs it: the output of the outermost one is kept
                if outer is not None:
                    outer[3].update(inner)
                else:
                    kept.update(dict.fromkeys(inner, m))
                # (f) at the passes the pipeline runs: a pass nested in a reference fix
                # (S1 of the host-scalar fix before TVM's SplitHostDevice) may leave a state
                # that only the passes around it complete
                if oracle.roundtrip and outer is None and not m.same_as(before):
                    busy[0] = True
                    if oracle.on_event:
                        oracle.on_event(f"roundtrip {name}")
                    try:
                        oracle.roundtrip_one(name, m, verdict, seen, shown)
                    finally:
                        busy[0] = False

        config = {"testing.immutable_module": True} if self.immutable else {}
        try:
            with self.L.PassContext(instruments=[Watch()], config=config):
                lib = run(mod) if run is not None else self.L.compile(mod, target)
        except Exception as err:
            # the pass that raised: the innermost one still on the stack (no run_after_pass
            # for it); none when the code generators fail, after every pass has run
            running = [frame[0] for frame in stack if frame[0] not in WRAPPERS]
            err.generator_pass = running[-1] if running else "codegen"
            # a code generator's failure comes after every pass: what they made is judged
            err.generator_kept = kept if not running else {}
            raise
        return lib, kept

    def roundtrip_one(self, name, m, verdict, seen, shown):
        """(f) of one pass output, reported at the first pass whose output shows each
        problem (``seen``: the outputs already judged; ``shown``: the problems reported)."""
        digest = tvm_ffi.structural_hash(m)
        if digest in seen:
            return
        seen.add(digest)
        try:
            text = self.print_module(m)
        except NotImplementedError:
            # a printer's reference fix that says it cannot print this (the wheel's text lost
            # what the fix would print): the stand-in's limit, not judged
            verdict.unjudged.add("f")
            return
        except Exception as err:
            if ("print", normalize(err)) not in shown:
                shown.add(("print", normalize(err)))
                verdict.add(
                    "f", f"f:{name}:print:{normalize(err)}", f"{name}: printing fails: {err}"
                )
            return
        try:
            back = self.L.parse(text)
        except Exception as err:
            # the message without the IR path it names (one class, wherever it is)
            msg = re.sub(r" at <root>\S*", "", normalize(err))
            if ("reparse", msg) not in shown:
                shown.add(("reparse", msg))
                verdict.add(
                    "f",
                    f"f:{name}:reparse:{msg}",
                    f"{name}: the printed output does not parse: {normalize(err)}",
                )
            return
        where = self.L.mismatch(m, back)
        if where:
            path = _field_path(where)
            if ("differs", path) in shown:
                return
            shown.add(("differs", path))
            verdict.add(
                "f", f"f:{name}:differs:{path}", f"{name}: print -> parse differs at {where}"
            )

    def print_module(self, m):
        """``m`` as text through the printing entry point ``self.printer``."""
        if self.printer == "str":
            text = str(m)
            # str() omits the metadata by design: a module that has some prints with script
            return text if "metadata[" not in text else m.script(show_meta=True)
        if self.printer == "show":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                if self.line == "tvm":
                    m.show(black_format=False, show_meta=True)
                else:  # tvm-tirx's show() does not format
                    m.show(show_meta=True)
            return re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())  # the highlighting's colours
        return m.script(show_meta=True)

    # -------------------------------------------------------------------- judge
    def judge(self, program):
        self.printer, self.immutable = program.printer, program.immutable
        try:
            return self._judge(program)
        finally:
            self.printer, self.immutable = "script", False

    def _judge(self, program):
        verdict = Verdict()
        text = P.render(program, self.line)
        try:
            mod = self.L.parse(text)
        except Exception as err:
            verdict.parse_error = normalize(err)
            return verdict
        why_invalid = P.invalid(program, self.line)
        try:
            lib, kept = self._compile(mod, self.L.target(program.target), verdict)
        except Exception as err:
            msg = normalize(err)
            where = getattr(err, "generator_pass", "codegen")
            if why_invalid is None and refuses_a_type_it_lacks(err, where, program):
                pass  # the target lacks a type of the program and says so
            elif why_invalid is None and refuses_a_view_it_cannot_express(err, where, program):
                pass  # WGSL cannot declare the kernel's view and the generator says so
            elif why_invalid is None:
                verdict.add(
                    "d",
                    f"d:ice-on-valid:{where}:{msg}",
                    f"valid program rejected in {where}: {msg}",
                )
            elif _is_ice(err):
                verdict.add(
                    "d",
                    f"d:ice-on-invalid:{where}:{msg}",
                    f"invalid program hits an internal check in {where}: {msg}",
                )
            elif where == "tirx.VerifyMemory":
                self.check_names_every_access(str(err), program, verdict)
            verdict.judged |= {"d", "e", "f"}
            kept = getattr(err, "generator_kept", {})
            if why_invalid is None and "tirx.SplitHostDevice" in kept:
                # the host/device split is done, only a target's code generator refused
                self.check_after_passes(kept, program, why_invalid, verdict)
                return verdict
            verdict.unjudged |= {"a", "b"}
            if why_invalid is None:  # (c) judges valid programs only
                verdict.unjudged.add("c")
                verdict.unjudged_why = "the program does not compile"
            return verdict
        verdict.judged |= {"d", "e", "f"}
        if why_invalid is not None:
            reason = why_invalid.split(": ", 1)[1].split(" (")[0]
            verdict.add(
                "d",
                f"d:accepts-invalid:{_rejecting_pass(reason)}:{reason}",
                f"compiles an invalid program: {why_invalid}",
            )
        self.check_after_passes(kept, program, why_invalid, verdict)
        return verdict

    def check_after_passes(self, kept, program, why_invalid, verdict):
        """(a), (b), (c) on the modules the passes left (``kept``)."""
        split = kept.get("tirx.SplitHostDevice")
        lowered = kept.get("tirx.LowerTVMBuiltin")
        if lowered is not None:
            self.check_host_memory(lowered, verdict)
            verdict.judged.add("a")
        if split is not None:
            self.check_kernel_params(split, program, verdict)
            verdict.judged.add("b")
            if why_invalid is None:
                if self.device_reason is None:
                    if self.on_event:
                        self.on_event("device")
                    try:
                        # module kernels name their target: OpenCL's for the device run
                        opencl = dataclasses.replace(program, target="opencl")
                        mod = self.L.parse(P.render(opencl, self.line))
                        device.run(self.L.tvm, mod, program, verdict, normalize)
                        verdict.judged.add("c")
                        verdict.c_by = "device"
                    except device.Unjudged as why:
                        verdict.device_why = normalize(why)  # the replay judges it instead
                # the replay too: the device shows what the outputs hold after the last launch,
                # the replay what each launch receives (a kernel launched twice)
                if self.on_event:
                    self.on_event("replay")
                try:
                    self.check_launch_values(split, program, verdict)
                    verdict.judged.add("c")
                    verdict.c_by = verdict.c_by or "replay"
                except Unjudged as why:
                    if "c" not in verdict.judged:
                        verdict.unjudged.add("c")
                        verdict.unjudged_why = normalize(why)

    def _parsed(self, text):
        """(module, a fresh verdict) of ``text``; (None, a verdict naming the parse error) where
        it does not parse."""
        verdict = Verdict()
        try:
            return self.L.parse(text), verdict
        except Exception as err:
            verdict.parse_error = normalize(err)
            return None, verdict

    def judge_text(self, text, target, tir_pipeline="default", invalid=False, export=False):
        """Clauses (d), (e), (f) of a module written out (generator/sentinels.py), compiled
        with the TIR pipeline ``tir_pipeline`` (``Line.compile``): a valid one must compile (with
        ``export``, its library must export too: a C host's source compiles), an ``invalid``
        one must be refused with a ValueError."""
        mod, verdict = self._parsed(text)
        if mod is None:
            return verdict
        verdict.judged |= {"d", "e", "f"}
        target = self.L.target(target)
        try:
            lib, _kept = self._compile(
                mod, target, verdict, run=lambda m: self.L.compile(m, target, tir_pipeline)
            )
        except Exception as err:
            msg, where = normalize(err), getattr(err, "generator_pass", "codegen")
            if not invalid:
                verdict.add(
                    "d",
                    f"d:ice-on-valid:{where}:{msg}",
                    f"valid program rejected in {where}: {msg}",
                )
            elif _is_ice(err) or not isinstance(err, ValueError):
                kind = "ice-on-invalid" if _is_ice(err) else f"{type(err).__name__}-on-invalid"
                verdict.add(
                    "d",
                    f"d:{kind}:{where}:{msg}",
                    f"invalid program refused in {where} with {type(err).__name__}: {msg}",
                )
            return verdict
        if invalid:
            verdict.add("d", "d:accepts-invalid:text", "compiles an invalid program")
        elif export:
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    lib.export_library(str(Path(tmp) / "lib.so"))
                except Exception as err:
                    # the C compiler's message without the file it names (a temporary one)
                    msg = normalize(re.sub(r"\S+\.c:\d+:\d+: ", "", str(err)))
                    verdict.add(
                        "d", f"d:ice-on-valid:export:{msg}", f"the library does not export: {msg}"
                    )
        return verdict

    def judge_pass(self, text, target, pass_name):
        """Clauses (e), (f) of one pass of the line's ``_ffi_api`` (the pass object that
        pipelines build, a reference fix's wrapper of it included) run alone on the module the
        compile pipeline hands it (generator/sentinels.py)."""
        mod, verdict = self._parsed(text)
        if mod is None:
            return verdict
        captured, stack = [], []

        @self.L.instrument
        class Capture:
            def run_before_pass(self, m, info):
                stack.append((info.name, m))
                if info.name == f"tirx.{pass_name}" and not captured:
                    # the input of the pipeline's pass that runs it (the outermost but the
                    # sequences): what the pass gets once passes wrapped around it are gone
                    captured.append(next(x for n, x in stack if n not in WRAPPERS))

            def run_after_pass(self, m, info):
                stack.pop()

        try:
            with self.L.PassContext(instruments=[Capture()]):
                self.L.compile(mod, self.L.target(target))
        except Exception:
            pass  # only the input of the pass is wanted
        if not captured:
            raise Unjudged(f"the pipeline does not run {pass_name}")
        verdict.judged |= {"e", "f"}
        make = getattr(self.L.tvm.tirx.transform._ffi_api, pass_name)
        try:
            self._compile(captured[0], None, verdict, run=lambda m: make()(m))
        except Exception as err:
            msg, where = normalize(err), getattr(err, "generator_pass", pass_name)
            verdict.add(
                "d", f"d:ice-on-valid:{where}:{msg}", f"valid program rejected in {where}: {msg}"
            )
        return verdict

    # -------------------------------------------------------------------- (a)
    def check_host_memory(self, lowered, verdict):
        host = _host_function(lowered)
        if host is None:
            return
        device, kinds = set(), {}
        accesses = []
        for raw in host.script().splitlines():
            line = raw.strip()
            # host memory is the CPU's, device 0 (DLPack's one CPU device), whatever device
            # the function runs its kernels on
            cpu = re.search(r"(?:AllocWorkspace|alloc_workspace)\(1, (\w+),", line)
            if cpu and cpu.group(1) != "0":
                verdict.add(
                    "a",
                    "a:cpu-workspace-device-id",
                    f"host memory allocated on CPU device {cpu.group(1)}, not 0: {line}",
                )
            m = re.match(r"(\w+)(?:: [^=]+)? = (.*)$", line)
            if m and not re.match(r"\w+\[", line):
                name, value = m.groups()
                is_decl = "decl_buffer(" in value or "decl_tensor(" in value
                alloc = re.search(r"(?:TVMBackendAllocWorkspace|alloc_workspace)\((\d+),", value)
                arg = re.search(r"(?:tvm_struct_get|abi_field_get)\((\w+)_handle, 0, 1\b", value)
                refs = set(re.findall(r"\b(\w+)(?:\.data|\[)", value)) | set(
                    re.findall(r"\b(\w+)\b", value)
                )
                if (alloc and alloc.group(1) != "1") or (arg and is_decl) or (refs & device):
                    if alloc and alloc.group(1) != "1":
                        device.add(name)
                        kinds[name] = "workspace"
                    elif arg:
                        device.add(name)
                        kinds[name] = "argument"
                    else:
                        src = sorted(refs & device)[0]
                        device.add(name)
                        kinds[name] = kinds.get(src, "argument")
            store = re.match(r"(\w+)\[.*\] = ", line)
            if store and store.group(1) in device:
                accesses.append(("store", store.group(1), line))
            rhs = line.split(" = ", 1)[1] if " = " in line else line
            for name in re.findall(r"(?<!address_of\()\b(\w+)\[", rhs):
                if name in device:
                    accesses.append(("load", name, line))
        for op, name, line in accesses:
            kind = kinds.get(name, "argument")
            verdict.add(
                "a", f"a:host-{op}-device-{kind}", f"host {op}s device memory ({kind}): {line}"
            )

    def check_names_every_access(self, message, program, verdict):
        """VerifyMemory's rejection names every value whose device memory the host touches
        (through any alias of it), not the first one only: the user fixes them all at once."""
        errors = message.split("Did you forget to bind?")[0]
        for i in P.host_device_accesses(program):
            if not re.search(rf"\bv{i}(_[a-z])?\b", errors):
                verdict.add(
                    "d",
                    "d:rejection-misses-access:tirx.VerifyMemory",
                    f"VerifyMemory's error does not name v{i}, which the host accesses",
                )
                return

    # -------------------------------------------------------------------- (b)
    def check_kernel_params(self, split, program, verdict):
        self.check_launch_args(split, verdict)
        for gv, func in split.functions.items():
            if not _is_kernel(func):
                continue
            for param in func.params:
                dtype = _ty(param)
                if dtype is None or dtype in self.launchable:
                    continue
                e = P.elem(dtype)
                if P.lanes(dtype) > 1:
                    cls = "vector"
                elif e in ("bool", "int8", "uint8", "int16", "uint16", "float16", "bfloat16"):
                    cls = "narrow"
                else:
                    cls = e
                verdict.add(
                    "b",
                    f"b:kernel-scalar-{cls}",
                    f"{gv.name_hint} takes a {dtype} scalar, which no GPU runtime passes",
                )

    def check_launch_args(self, split, verdict):
        """Each launch hands every scalar parameter a value of the parameter's type (a runtime
        packs the argument by its own type: an int8 handed to an int32 parameter is not an
        int32), and every pointer parameter a pointer."""
        kernels = {gv.name_hint: f for gv, f in split.functions.items() if _is_kernel(f)}
        host = _host_function(split)
        if host is None:
            return
        found = []

        def visit(call):
            if getattr(call.op, "name", "") == "tirx.call_ffi_kernel":
                found.append(call)
            return call

        tvm_ffi.structural_map(host.body, (self.L.Call, visit))
        for call in found:
            name = str(call.args[0].value)
            kernel = kernels.get(name)
            if kernel is None:
                continue
            for param, arg in zip(kernel.params, call.args[1:]):
                want, have = _ty(param), _ty_of(arg)
                if want is None and have is not None:
                    verdict.add(
                        "b",
                        "b:launch-scalar-to-pointer",
                        f"{name}: a {have} value handed to a pointer parameter",
                    )
                elif want is not None and have != want:
                    verdict.add(
                        "b",
                        "b:launch-arg-type",
                        f"{name}: a {have} value handed to a {want} parameter",
                    )

    # -------------------------------------------------------------------- (c)
    def _record(self, name, *args):
        self.records.append((str(name), list(args)))
        kernel = self._kernels[str(name)]
        try:
            KernelReplay(kernel).run(args)
        except Unjudged as why:  # raised again after the call: the FFI would make it another
            self._replay_unjudged = self._replay_unjudged or why
        self.snapshots.append([t.numpy().copy() for t in self._outputs])

    def check_launch_values(self, split, program, verdict):
        host = _host_function(split)
        kernels = {gv.name_hint: f for gv, f in split.functions.items() if _is_kernel(f)}
        L = self.L

        def on_call(call):
            if getattr(call.op, "name", "") == "tirx.call_ffi_kernel":
                name = str(call.args[0].value)
                n = len(kernels[name].params)
                return L.call_packed("generator.record", name, *call.args[1 : 1 + n])
            return call

        body = tvm_ffi.structural_map(host.body, (L.Call, on_call))
        replayed = L.function_like(host, body, L.target("llvm"))
        try:
            lib = L.compile(L.tvm.IRModule({"main": replayed}), L.target("llvm"))
        except Exception as err:
            raise Unjudged(f"the replayed host does not build: {normalize(err)}") from err
        args, outputs = [], []
        for param in host.params:
            pname = str(getattr(param, "name_hint", param)).split(".")[0]
            if pname.endswith("_h"):
                pname = pname[:-2]
            if pname == "n":
                args.append(P.N_ARG)
                continue
            if pname.startswith("o"):
                k, j = (int(x) for x in pname[1:].split("_")[:2])
                dtype = program.values[program.kernels[k].reads[j]].dtype
                t = L.tvm.runtime.tensor(np.zeros((P.lanes(dtype),), P.np_dtype(P.elem(dtype))))
                args.append(t)
                outputs.append((f"o{k}_{j}", t))
                continue
            value = program.values[int(pname[1:])]
            if value.spelling == "param":
                args.append(L.tvm.runtime.tensor(np.zeros((1,), P.np_dtype(value.dtype))))
            else:
                args.append(P.initial(value).item())
        self._kernels = kernels
        self._outputs = [t for _, t in outputs]
        self.records, self.snapshots, self._replay_unjudged = [], [], None
        lib["main"](*args)
        if self._replay_unjudged is not None:
            raise self._replay_unjudged
        out_index = {p: k for k, (p, _) in enumerate(outputs)}
        got = []
        for (name, _), snap in zip(self.records, self.snapshots):
            got.append(snap)
        expected = P.expected_launches(program)
        # each launch of generator kernel k: its outputs hold the values it read
        launches = [(n, s) for (n, _), s in zip(self.records, self.snapshots)]
        writers = sum(1 for v in program.values if v.by_kernel)
        launches = launches[writers:]
        if len(launches) != len(expected):
            verdict.add(
                "c", "c:launch-count", f"{len(launches)} launches, {len(expected)} expected"
            )
            return
        for (kname, snap), (k, values) in zip(launches, expected):
            for j, want in enumerate(values):
                have = snap[out_index[f"o{k}_{j}"]]
                want = np.asarray(want).ravel()
                if not _same(have.ravel(), want):
                    r = program.kernels[k].reads[j]
                    v = program.values[r]
                    verdict.add(
                        "c",
                        f"c:wrong-value:{v.dtype}:{v.spelling}:{v.alias}",
                        f"{kname} read v{r} ({v.dtype} {v.spelling}) = {have.tolist()}, "
                        f"the host holds {want.tolist()}",
                    )
                    return


def _field_path(where):
    """Where print -> parse differs, as a class: the function (the host ``main`` or a kernel)
    and the field that differs (the path to it varies with the program, the cause not)."""
    # a kernel SplitHostDevice made (``main_kernel``) or a module kernel (``k0``, ``w0``)
    kernel = re.search(r"functions\[[^\]]*(_kernel|\bk\d+\b|\bw\d+\b)", where)
    func = "kernel" if kernel else "main"
    fields = re.findall(r"\.(\w+)", where.split("]", 1)[-1])
    return f"{func}:{fields[-1] if fields else 'root'}"


def _rejecting_pass(reason):
    """The pass whose rule makes a program invalid (program.invalid's reasons): VerifyMemory
    rejects host access to device memory, SplitHostDevice (the host-scalar fix's rule) a
    kernel that needs a pointer to host memory."""
    if "device memory" in reason:
        return "tirx.VerifyMemory"
    return "tirx.SplitHostDevice"


def _same(have, want):
    if want.size == 1 and have.size > 1:
        want = np.repeat(want, have.size)
    try:
        return np.array_equal(have.astype(np.float64), want.astype(np.float64))
    except (TypeError, ValueError):
        return have.tobytes() == want.tobytes()


def _ty(param):
    text = str(param.ty)
    text = text[2:] if text.startswith("T.") else text
    if "handle" in text or "Ptr" in text or "Tensor" in text:
        return None
    return text


def _ty_of(expr):
    """The scalar type of ``expr``, None for a pointer."""
    text = str(getattr(expr, "ty", None) or getattr(expr, "dtype", ""))
    text = text[2:] if text.startswith("T.") else text
    if "handle" in text or "Ptr" in text or "Tensor" in text:
        return None
    return text


def _is_kernel(func):
    attrs = func.attrs
    return (
        attrs is not None and "tirx.is_global_func" in attrs and bool(attrs["tirx.is_global_func"])
    )


def _host_function(mod):
    for gv, func in mod.functions.items():
        if gv.name_hint == "main":
            return func
    return None

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
"""Oracle clause (c) on a real device: each program compiled for OpenCL and launched (this
repository only).

Where TVM's OpenCL runtime loads (scripts/opencl_runtime.py: pocl, a CPU OpenCL device, on
the apache/tvm line) a valid program is compiled for ``opencl`` (host ``llvm``) with whatever
fixes the process has installed and called once in a fork of its own (the parent never
initializes OpenCL: forks after that would share pocl's threads), with ``n`` = 2, each
argument's value and zeroed buffers on the device. What each kernel's outputs hold after the
call (its last launch) is compared with the generator's numpy model
(``program.expected_launches``). A fork that dies is a finding (``c:device-signal-N``), so is
an error of the launch itself (``c:device-error:<message>``: e.g. a kernel scalar the runtime
cannot pass) and a wrong value (``c:device-wrong-value:<dtype>:<spelling>:<alias>``); a program the
device cannot build (no fp16 on pocl) or that does not compile for opencl is unjudged.
"""

import json
import os
import re
import select

import numpy as np

from generator import program as P

# errors of the device's own compiler or extensions: the program is not judged on it
UNSUPPORTED = ("cl_khr_fp16", "cl_khr_fp64", "Build program", "build program", "half")


def available(line):
    """None when programs can be launched on OpenCL in this process's forks, else why not."""
    if line != "tvm":
        return "the OpenCL runtime is built for apache/tvm only"
    # the module a reference fix selects its runtime in (the uint64 one), loaded once
    from harness.reference_fixes import opencl_runtime

    runtime = opencl_runtime()
    reason = runtime.load()
    if reason:
        return reason
    try:
        import subprocess

        out = subprocess.run(["clinfo", "-l"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as err:
        return f"no clinfo to find an OpenCL device: {err}"
    if "Device" not in out.stdout:
        return "no OpenCL device (clinfo -l lists none)"
    full = subprocess.run(["clinfo"], capture_output=True, text=True, timeout=30).stdout
    for ext in ("cl_khr_fp16", "cl_khr_fp64"):
        if ext in full:
            EXTENSIONS.add(ext)
    return None


# the extensions of the device (filled by ``available``)
EXTENSIONS = set()
# the element types a device needs an extension for
NEEDS = {"float16": "cl_khr_fp16", "float64": "cl_khr_fp64"}


class Unjudged(Exception):
    """The device cannot say (the program does not compile for opencl, or the device lacks a
    type)."""


def _arguments(tvm, program, func):
    """[(kind, value)] of the host function's parameters: the scalar's value, or a buffer's
    numpy contents; and {output name: index}."""
    args, outputs = [], {}
    for param in func.params:
        name = str(getattr(param, "name_hint", param)).split(".")[0].removesuffix("_h")
        if name == "n":
            args.append(("scalar", P.N_ARG))
        elif name.startswith("o"):
            k, j = (int(x) for x in name[1:].split("_")[:2])
            dtype = program.values[program.kernels[k].reads[j]].dtype
            outputs[(k, j)] = len(args)
            args.append(("buffer", np.zeros((P.lanes(dtype),), P.np_dtype(dtype))))
        else:
            value = program.values[int(name[1:])]
            if value.spelling == "param":
                args.append(("buffer", np.zeros((1,), P.np_dtype(value.dtype))))
            else:
                args.append(("scalar", P.initial(value).item()))
    return args, outputs


def _launch(tvm, lib, args, outputs, pipe):
    """In the fork: call ``lib`` on opencl(0), write what the outputs hold to ``pipe``."""
    try:
        dev = tvm.opencl(0)
        real = [tvm.runtime.tensor(v, dev) if k == "buffer" else v for k, v in args]
        lib["main"](*real)
        dev.sync()
        got = {f"{k}_{j}": real[i].numpy().tolist() for (k, j), i in outputs.items()}
        result = {"outcome": "ran", "values": got}
    except Exception as err:  # the launch's error is the result
        lines = [x.strip(" \t\x00") for x in str(err).splitlines()]
        lines = [x for x in lines if x]
        # a kernel the OpenCL compiler refuses: its first error, without the temporary file
        errors = [re.sub(r"^error: \S+\.cl:\d+:\d+: ", "error: ", x) for x in lines]
        errors = [x for x in errors if x.startswith("error: ")]
        detail = (errors or lines or [type(err).__name__])[0 if errors else -1]
        result = {"outcome": "error", "detail": detail[:300]}
    os.write(pipe, json.dumps(result).encode())
    os._exit(0)


def run(tvm, mod, program, verdict, normalize):
    """Clause (c) of ``program`` (parsed as ``mod``) on the OpenCL device."""
    for value in program.values:
        ext = NEEDS.get(P.elem(value.dtype))
        if ext and ext not in EXTENSIONS:
            raise Unjudged(f"the OpenCL device has no {ext}")
    try:
        lib = tvm.compile(mod, target=tvm.target.Target("opencl", host="llvm"))
    except Exception as err:
        raise Unjudged(f"does not compile for opencl: {normalize(err)}") from err
    args, outputs = _arguments(tvm, program, mod["main"])
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _launch(tvm, lib, args, outputs, write_end)
    os.close(write_end)
    data = b""
    while True:
        ready = select.select([read_end], [], [], 120)[0]
        chunk = os.read(read_end, 65536) if ready else b""
        if not chunk:
            break
        data += chunk
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        verdict.add("c", f"c:device-signal-{sig}", f"the launch on OpenCL dies (signal {sig})")
        return
    result = json.loads(data) if data else {"outcome": "error", "detail": "no result"}
    if result["outcome"] == "error":
        detail = result["detail"]
        if any(u in detail for u in UNSUPPORTED):
            raise Unjudged(f"the OpenCL device cannot run it: {normalize(detail)}")
        msg = normalize(detail)
        verdict.add("c", f"c:device-error:{msg}", f"the launch on OpenCL fails: {detail}")
        return
    last = {}
    for k, values in P.expected_launches(program):
        last[k] = values
    for (k, j), _ in sorted(outputs.items()):
        have = np.asarray(result["values"][f"{k}_{j}"])
        r = program.kernels[k].reads[j]
        v = program.values[r]
        want = np.zeros(have.shape) if k not in last else np.asarray(last[k][j]).ravel()
        if want.size == 1 and have.size > 1:
            want = np.repeat(want, have.size)
        if not np.array_equal(have.astype(np.float64), want.astype(np.float64)):
            verdict.add(
                "c",
                f"c:device-wrong-value:{v.dtype}:{v.spelling}:{v.alias}",
                f"on OpenCL kernel {k} read v{r} ({v.dtype} {v.spelling}) = {have.tolist()}, "
                f"the host holds {want.tolist()}",
            )
            return

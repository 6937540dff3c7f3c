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
"""Blind round 7 demos of the split_host_device_inplace wrong fixes (apache/tvm-tirx)."""

from harness.blind_demo import Demo


def kernel_module(attrs=False):
    """A host function with one kernel launch (and a module attribute)."""

    def build():
        import tvm_tirx
        from tvm_tirx.script import tirx as T

        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

        kw = {"attrs": {"demo.flag": 7}} if attrs else {}
        return tvm_tirx.IRModule({"main": main}, **kw)

    return build


def _split(mod):
    from tvm_tirx.tirx import transform as tr

    return tr.SplitHostDevice()(mod)


def caller(mod):
    """The caller's module after the pass."""
    _split(mod)
    return mod.script()


def output(mod):
    """The output's functions and attributes."""
    out = _split(mod)
    return f"functions={sorted(gv.name_hint for gv in out.get_global_vars())} attrs={out.attrs}"


DEMOS = {
    "blind7-cow-second-write-only": Demo(kernel_module(), caller),
    "blind7-copy-drops-attrs": Demo(kernel_module(attrs=True), output),
    "blind7-copy-in-local": Demo(kernel_module(), output),
}

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
"""Blind round 10: programs on which the wrong fixes of printer_scalar_index
(round 10 of wrong_fixes.toml) print otherwise than the reference fix (apache/tvm only).

Each program is a function with a one-element buffer that the printer writes as a scalar name,
accessed in bounds (a thread index or a loop variable of extent 1, a typed 0, a Ramp of stride
0); ``printed`` observes its printed body and whether print -> parse gives it back.
"""

from harness.blind_demo import Demo, from_script, message

# a one-element view of a pointer parameter (T.decl_scalar) at header; {body} under it
_VIEW = """
@T.prim_func
def main(a: T.handle("{dtype}", "global"), o: T.Buffer((4,), "float32")):
    B = T.decl_buffer((1,), "{dtype}", data=a)
{body}
"""


def view(body, dtype="float32"):
    """A builder of ``_VIEW`` with ``body`` (indented by 4)."""
    text = _VIEW.format(dtype=dtype, body="\n".join("    " + x for x in body.splitlines()))
    return lambda: from_script(text)


def printed(func):
    """The printed body of ``func`` (one line, ``|`` between statements) and whether print ->
    parse gives ``func`` back (else the first line of why not)."""
    import tvm_ffi

    import tvm

    text = func.script()
    lines = [x.strip() for x in text.splitlines() if x.strip() and not x.startswith("#")]
    try:
        back = tvm.script.from_source(text)
    except Exception as err:  # the result: why it does not parse
        return " | ".join(lines[2:]) + f" || parse: {type(err).__name__}: {message(err)}"
    mismatch = tvm_ffi.get_first_structural_mismatch(func, back)
    trip = "round-trips" if mismatch is None else f"parses back otherwise at {mismatch[0]}"
    return " | ".join(lines[2:]) + " || " + trip


# an int64 0, the index passes leave after int64 shape arithmetic
_INT64 = """for i in range(1):
    B[T.int64(0)] = B[T.int64(0)] + T.float32(1)"""

# a uint32 0
_UINT32 = """for i in range(1):
    B[T.uint32(0)] = B[T.uint32(0)] * T.float32(2)"""

# an int32 scalar name loaded at a thread index, nested in the index of another store
_NESTED_LOAD = """for t in T.thread_binding(1, thread="threadIdx.x"):
    o[B[t]] = T.float32(1)"""

# a store alone, at a thread index of extent 1 (the generator's case)
_STORE = """for t in T.thread_binding(1, thread="threadIdx.x"):
    B[t] = T.float32(2)"""

# a cell (local: it round-trips) whose first store is at an int64 0
_CELL = """
@T.prim_func
def main(x: T.float32, o: T.Buffer((4,), "float32")):
    c = T.alloc_buffer((1,), "float32", scope="local")
    c[T.int64(0)] = x
    o[0] = c[0] + T.float32(1)
"""

# a vector load of the one element, every lane at 0 (a Ramp of stride 0)
_RAMP = "o[T.Ramp(0, 1, 2)] = B[T.Ramp(0, 0, 2)]"

# an index that simplifies to 0
_SELF_DIFF = """for i in range(1):
    B[i - i] = B[i - i] + T.float32(3)"""

# the index 0 itself, where the bare name is right
_AT_ZERO = """c = T.alloc_buffer((1,), "float32", scope="local")
c[0] = T.float32(4)
B[0] = B[0] + c[0]"""

DEMOS = {
    "blind10-any-int-zero": Demo(view(_INT64), printed),
    "blind10-bits-only": Demo(view(_UINT32), printed),
    "blind10-store-only": Demo(view(_NESTED_LOAD, dtype="int32"), printed),
    "blind10-load-only": Demo(view(_STORE), printed),
    "blind10-merge-kept": Demo(lambda: from_script(_CELL), printed),
    "blind10-load-slices": Demo(view(_RAMP), printed),
    "blind10-simplified-zero": Demo(view(_SELF_DIFF), printed),
    "blind10-zero-by-identity": Demo(view(_AT_ZERO), printed),
}

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
"""Hypothesis strategies over the program description of generator/program.py.

Every choice lists its simplest option first (float32, an argument, a direct read, one
kernel launched once), so that hypothesis' shrinking moves a failing program towards the
smallest one that still fails.
"""

from hypothesis import strategies as st

from generator import program as P


def _value(line, dtypes=P.DTYPES, spellings=P.SPELLINGS, aliases=P.ALIASES):
    """A value drawn from the program's pools (swarm testing: each program enables a few dtypes,
    spellings and alias forms, so that their interactions meet in one program more often than
    a draw from every option for every value gives; a pool that leaves a value no option falls
    back to the full list)."""

    @st.composite
    def draw(draw):
        dtype = draw(st.sampled_from(dtypes))
        allowed = [s for s in spellings if P.lanes(dtype) == 1 or s in ("let", "cell", "assign")]
        spelling = draw(st.sampled_from(allowed or ["let", "cell", "assign"]))
        init = draw(st.integers(min_value=0, max_value=3))
        by_kernel = spelling == "shared"  # only kernels use it
        if spelling in ("global", "param"):
            by_kernel = draw(st.booleans().map(lambda b: not b))
        writer_module = by_kernel and draw(st.booleans())
        alias = "direct"
        if spelling in P.MEMORY:
            forms = ["direct", "decl", "address_of", "letptr", "kernel_address_of", "byte_offset"]
            if spelling == "param" and line == "tvm":
                forms.append("match_buffer")
            if spelling == "shared":
                # a kernel's own view of host "local" memory would be the kernel's "local"
                # (private) memory: only the host can declare that view
                forms.remove("kernel_address_of")
            alias = draw(st.sampled_from([a for a in forms if a in aliases] or forms))
        return P.Value(dtype, spelling, init, by_kernel, alias, writer_module)

    return draw()


def _pool(options, most):
    """A non-empty subset of ``options`` (in their order, the simplest first)."""
    return st.lists(st.sampled_from(options), min_size=1, max_size=most, unique=True).map(
        lambda chosen: tuple(o for o in options if o in chosen)
    )


def _steps(n_values, n_kernels, depth):
    launch = st.builds(P.Launch, st.integers(0, n_kernels - 1))
    write = st.builds(P.Write, st.integers(0, n_values - 1), st.integers(0, 3))
    use = st.builds(P.HostUse, st.integers(0, n_values - 1), st.booleans())
    leaf = st.one_of(launch, write, use)
    if depth == 0:
        return st.lists(leaf, min_size=1, max_size=3).map(tuple)
    inner = _steps(n_values, n_kernels, depth - 1)
    nested = st.one_of(
        st.builds(P.Loop, st.integers(1, 2), inner), st.builds(P.If, st.integers(0, 3), inner)
    )
    return st.lists(st.one_of(leaf, nested), min_size=1, max_size=4).map(tuple)


def programs(line, targets=P.TARGETS):
    """Programs for ``line`` ("tvm" or "tirx") and one of ``targets``."""

    @st.composite
    def draw(draw):
        target = draw(st.sampled_from(targets))
        pools = (
            draw(_pool(P.DTYPES, 3)),
            draw(_pool(P.SPELLINGS, 3)),
            draw(_pool(P.ALIASES, 2)),
        )
        values = tuple(draw(st.lists(_value(line, *pools), min_size=1, max_size=3)))
        n = len(values)
        reads = draw(
            st.lists(
                st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True),
                min_size=1,
                max_size=3,
            )
        )
        # values a kernel may store into: those in memory (a store into host memory is
        # invalid, into device memory valid)
        stored = [i for i, v in enumerate(values) if P.in_memory(v, line)]
        kernels = []
        for r in reads:
            writes = ()
            if stored:
                writes = tuple(draw(st.lists(st.sampled_from(stored), max_size=2, unique=True)))
            # a kernel is a module function main calls (its scalars by value, its buffers by
            # pointer) unless it reads a vector value (no runtime passes a vector scalar) or
            # stores into a cell (whose pointer main cannot name)
            may_be_module = all(P.lanes(values[i].dtype) == 1 for i in r) and all(
                values[i].spelling in P.MEMORY for i in writes
            )
            module = may_be_module and draw(st.booleans())
            kernels.append(P.Kernel(tuple(r), module=module, writes=writes))
        kernels = tuple(kernels)
        steps = draw(_steps(n, len(kernels), 1))
        # writes only to values the host may assign; the first launch is there at least once
        steps = _keep_writes(steps, values, line)
        if not any(isinstance(s, P.Launch) for s in P.iter_steps(steps)):
            steps = (P.Launch(0), *steps)
        return P.Program(
            target,
            values,
            kernels,
            steps,
            index_var=draw(st.booleans()),
            shared_names=draw(st.booleans().map(lambda b: not b)),
            immutable=draw(st.integers(0, 3)) == 3,
            printer=draw(st.sampled_from(P.PRINTERS)),
            thread=draw(st.sampled_from(P.THREADS)),
            wrap=draw(st.sampled_from(P.WRAPS)),
        )

    return draw()


def _keep_writes(steps, values, line):
    """The steps whose host accesses the program can spell: writes of values the host may
    assign, host uses of scalar values (a vector is no packed argument) and of the addresses
    of buffers."""
    out = []
    for step in steps:
        if isinstance(step, P.Write) and not P.mutable(values[step.value], line):
            continue
        if isinstance(step, P.HostUse):
            value = values[step.value]
            if P.lanes(value.dtype) > 1:
                continue
            if step.pointer and value.spelling not in P.MEMORY:
                continue
        if isinstance(step, P.Loop | P.If):
            step = type(step)(
                step.extent if isinstance(step, P.Loop) else step.threshold,
                _keep_writes(step.body, values, line),
            )
        out.append(step)
    return tuple(out)


def draw_batch(strategy, seed_value, batch, examples, visit):
    """Call ``visit`` on the ``examples`` cases hypothesis draws from ``strategy`` for batch
    ``batch`` of a campaign seeded ``seed_value`` (generator/worker.py seeds its batches so)."""
    from hypothesis import HealthCheck, given, seed, settings

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=["generate"],
        suppress_health_check=list(HealthCheck),
    )
    @seed(seed_value * 100003 + batch)
    @given(strategy)
    def one(case):
        visit(case)

    one()

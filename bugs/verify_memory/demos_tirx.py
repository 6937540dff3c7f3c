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
"""Programs on which VerifyMemory's reference fix and each blind wrong fix differ, on
apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py
--bug verify_memory): demos.py's programs and observers, built on this line (tensors, launch
regions). The access-ptr-operand-0 wrong fixes have none: tvm-tirx's TVMScript has no
tvm_access_ptr. Where a kernel here has no blockIdx.x block, or a view's pointer is let-bound,
the program was written so for this line."""

from bugs.verify_memory.demos import (
    A8,
    CPU_ANNOTATED_ON_METAL,
    DEVICE_HELPER,
    DISABLED_LOWERING_CELL,
    DISABLED_LOWERING_SCALAR,
    EIGHT_BLOCKS_EXTENT,
    EXTENT_FROM_HOST,
    EXTENT_ON_VULKAN,
    HELPER_LOOP,
    HOSTLESS_LOOP,
    HOSTLESS_STORE,
    INNER_EXTENT,
    INTO_DEVICE_ALLOCATION,
    INTO_SECOND_PARAMETER,
    LOCAL_CELL_ON_ROCM,
    LOCAL_CELL_READ,
    LOCAL_SCALAR,
    LOOP_ON_WEBGPU,
    ONE,
    ONE_BLOCK_EXTENT,
    ONE_BLOCK_STORE,
    POINTER_STORE,
    SECOND_LOOPED,
    SHARED_DYN_IN_BLOCKS,
    SHARED_DYN_SIZE,
    THROUGH_POINTER,
    TWO_VIEWS_AWAY,
    UNBOUND_LOOP,
    VIEW_AT_DEVICE_INDEX,
    VIEW_AT_FOUR,
    VIEW_READ,
    VIEW_READ_BY_EIGHT,
    VIEW_WRITTEN_HOSTLESS,
    VIEW_WRITTEN_ON_WEBGPU,
    WRITTEN_VIEW,
    WRITTEN_VIEW_AT_INDEX,
    WRITTEN_VIEW_OF_SIXTEEN,
    at_offset,
    compiled,
    increment,
    judged,
    named,
    said,
    second_viewed,
    stack_buffer,
    stored,
    verified,
    view,
    view_at,
    view_of_c,
)
from harness.blind_demo import Demo

DEMOS = {
    # round 2
    # a view at address_of(A[B[0]]) that the kernel reads: the host reads B in the index; the
    # wrong fix skips the address with its indices
    "blind2-address-of-skipped": Demo(
        view_at(f'{A8}, B: T.Buffer((1,), "int32")', "A[B[0]]", increment("V", 4, blocks=False)),
        compiled(),
    ),
    # a host store into an allocation annotated device_type 2 (CUDA; cuda with an llvm host): the
    # wrong fix takes any device_type for host memory
    "blind2-device-type-presence": Demo(INTO_DEVICE_ALLOCATION, verified()),
    # a host store through a view of a T.handle("float32") parameter: the wrong fix counts tensor
    # parameters only
    "blind2-handle-params-ignored": Demo(
        stored(
            'a: T.handle("float32"), B: T.Buffer((8,), "float32")',
            "a",
            increment("B", 8, blocks=False),
        ),
        compiled(),
    ),
    # an entry point with a cuda target (no host) and a host loop: the wrong fix skips every
    # host-less function
    "blind2-host-less-entry-skipped": Demo(HOSTLESS_LOOP, verified()),
    # a nested threadIdx.x extent read from L[0]: the wrong fix visits the outermost extent only
    # and a later pass stops
    "blind2-nested-extents-device": Demo(EXTENT_FROM_HOST, compiled()),
    # a host store through a let-bound pointer to a view of A: the wrong fix follows one
    # definition step
    "blind2-one-step-alias": Demo(
        stored(
            A8,
            "p",
            increment("A", 8, blocks=False),
            shape="(4,)",
            before=[view("U", "(8,)", "A.data"), "p = U.data"],
        ),
        compiled(),
    ),
    # round 3
    # VALID: a host view at address_of(A[4]) that only the kernel reads: the wrong fix counts the
    # address as an access of A
    "blind3-address-of-counts-access": Demo(VIEW_AT_FOUR, compiled()),
    # a host view at address_of(A[Idx[0]]): the wrong fix skips the index, a host read of Idx
    "blind3-address-of-skips-indices": Demo(VIEW_AT_DEVICE_INDEX, compiled()),
    # VALID: a disable_lower_builtin tensor written by a host loop (analysis): the wrong fix needs
    # device_type kDLCPU
    "blind3-disable-lower-builtin-ignored": Demo(stack_buffer(ONE), verified()),
    # a host store into the second tensor parameter: the wrong fix counts params[0] only
    "blind3-first-param-only": Demo(INTO_SECOND_PARAMETER, compiled()),
    # a host store through a view of a pointer parameter: the wrong fix counts tensor-typed
    # parameters only
    "blind3-handle-param-not-pointer": Demo(THROUGH_POINTER, compiled()),
    # an entry point with a cuda target (no host) storing into its parameter on the host
    # (analysis): the wrong fix skips every host-less function
    "blind3-hostless-entry-skipped": Demo(HOSTLESS_STORE, verified()),
    # a shared.dyn size read from L[0]: the wrong fix does not visit it as host code, and a later
    # pass stops
    "blind3-no-shared-dyn-size": Demo(SHARED_DYN_SIZE, compiled()),
    # a loop in no launch over device tensors, for webgpu: the wrong fix leaves webgpu out of the
    # GPUs
    "blind3-no-webgpu": Demo(UNBOUND_LOOP, compiled("webgpu", "llvm")),
    # a nested launch's extent read from L[0]: the wrong fix visits the opening extent only, and a
    # later pass stops
    "blind3-outer-extent-only": Demo(INNER_EXTENT, compiled()),
    # round 4
    "blind4-handle-param-not-pointer": Demo(POINTER_STORE, named),
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
    "blind7-offset-not-followed": Demo(at_offset("T.handle_add_byte_offset(B.data, 16)"), said),
    "blind7-address-of-access": Demo(VIEW_READ_BY_EIGHT, said),
    "blind7-hostless-entry-skipped": Demo(view_of_c("opencl", host=None), said),
    "blind7-local-alloc-device": Demo(LOCAL_CELL_ON_ROCM, said),
    "blind7-cpu-annotation-ignored": Demo(CPU_ANNOTATED_ON_METAL, said),
    "blind7-nested-extent-skipped": Demo(EXTENT_ON_VULKAN, said),
}

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
"""Reference fix: SplitHostDevice leaves its input module unchanged.

The bug. ``SplitHostDevice`` (``src/tirx/transform/split_host_device.cc``, the ``pass_func``
of ``transform::SplitHostDevice``) ends with ``mod->Update(updates); mod->Update(device_mod);``
on the module it was given: after ``After = SplitHostDevice()(Before)``, ``Before`` holds the
kernels and the rewritten host functions too. A caller that keeps its module (a test's
``Before``, a pipeline that compiles one module for two targets, a pass instrument) sees it
change under it.

Upstream change (blueprint): ``mod.CopyOnWrite()->Update(updates); mod.CopyOnWrite()->
Update(device_mod);`` (or one ``IRModuleNode* write = mod.CopyOnWrite();`` before the first
write), as ``LowerDeviceKernelLaunches`` in the same file already does. Both lines
(apache/tvm 0.27 and main, apache/tvm-tirx 0.1.0a4) have the same ``pass_func``.

``install()`` runs the pass on a copy of its input (harness/input_copy.py) and
returns the undo function.
"""

import sys

from harness import input_copy as _input_copy

run = _input_copy.run  # the pass on a copy of its input


def install():
    """Make ``SplitHostDevice()`` leave its input unchanged; return the undo function."""
    return _input_copy.install_on("SplitHostDevice", sys.modules[__name__])

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
"""Reference fix: AnnotateEntryFunc leaves its input module unchanged.

The bug. ``AnnotateEntryFunc`` (``src/tirx/transform/primfunc_utils.cc``) marks the entry
function with ``tirx.is_entry_func`` by ``mod->Update(gvar, WithAttr(...))`` (a module of one
function) or ``mod->Update(with_annotations)`` (one public PrimFunc among several) on the
module it was given: after ``After = AnnotateEntryFunc()(Before)``, ``Before``'s function
carries the attribute too.

Upstream change (blueprint): ``mod.CopyOnWrite()->Update(...)`` in both branches. Both lines
(apache/tvm 0.27 and main, apache/tvm-tirx 0.1.0a4) have the same pass.

``install()`` runs the pass on a copy of its input (harness/input_copy.py) and
returns the undo function.
"""

import sys

from harness import input_copy as _input_copy

run = _input_copy.run  # the pass on a copy of its input


def install():
    """Make ``AnnotateEntryFunc()`` leave its input unchanged; return the undo function."""
    return _input_copy.install_on("AnnotateEntryFunc", sys.modules[__name__])

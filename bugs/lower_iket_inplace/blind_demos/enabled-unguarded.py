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
"""Two marked kernels, IKET enabled, LowerIket run under PassContext testing.immutable_module
(a valid use: the pass must leave its input alone): the instrumented kernels, or the error."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from _two_kernels import lower_iket, two_marked_kernels

from harness.blind_demo import main


def program():
    return two_marked_kernels({"tirx.iket.enabled": 1})


def observe(mod):
    from harness.tvm_line import ir

    with ir.PassContext(config={"testing.immutable_module": True}):
        out = lower_iket()(mod)
    return sorted(gv.name_hint for gv, f in out.functions.items() if "official_event" in f.script())


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "lower_iket_inplace", "blind2-enabled-unguarded"))

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
"""Two marked kernels, IKET not enabled: whether the module given to LowerIket still carries
its marks after the pass."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from _two_kernels import lower_iket, two_marked_kernels

from harness.blind_demo import main


def program():
    return two_marked_kernels(None)


def observe(mod):
    out = lower_iket()(mod)

    def marks(m):
        return sorted(gv.name_hint for gv, f in m.functions.items() if "iket" in f.script())

    return f"input marked: {marks(mod)}; output marked: {marks(out)}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "lower_iket_inplace", "blind2-result-not-cloned"))

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
"""split_host_device_inplace / blind2-immutable-kept: two functions with a kernel each, split
under PassContext(config={"testing.immutable_module": True})."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from harness.blind_demo import main


def program():
    from _shd_line import api, kernel, other_kernel

    return api()[0]({"main": kernel(), "other": other_kernel()})


def observe(mod):
    from _shd_line import api, names

    module, ctx, _, transform = api()
    with ctx(config={"testing.immutable_module": True}):
        after = transform.SplitHostDevice()(mod)
    return "after: " + str(names(after))


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "split_host_device_inplace", "blind2-immutable-kept"))

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
"""split_host_device_inplace / blind2-copy-drops-attrs: a module with attributes
(system_lib_prefix and another key) and one kernel; the attributes of the
result."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from harness.blind_demo import main


def program():
    from _shd_line import api, kernel

    mod = api()[0]({"main": kernel()})
    return mod.with_attr("system_lib_prefix", "mylib_").with_attr("note", 7)


def observe(mod):
    from _shd_line import api, names

    after = api()[3].SplitHostDevice()(mod)
    return f"after: {names(after)}; attrs: {dict(after.attrs) if after.attrs is not None else None}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "split_host_device_inplace", "blind2-copy-drops-attrs"))

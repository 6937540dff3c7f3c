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
"""annotate_entry_func_inplace / blind2-public-only: a module of one private PrimFunc (a 2-D
float16 buffer); the attributes of the caller's module after the pass."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from harness.blind_demo import main


def program():
    from _aef_line import api, funcs

    return api()[1]({"solo": funcs()["solo"]})


def observe(mod):
    from _aef_line import api, attrs_of

    out = api()[3].AnnotateEntryFunc()(mod)
    return f"result: {attrs_of(out)}; input now: {attrs_of(mod)}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "annotate_entry_func_inplace", "blind2-public-only"))

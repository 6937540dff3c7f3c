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
"""annotate_entry_func_inplace / blind2-copy-only-when-checked: one function; the pass applied
twice to one module held by the caller (as a pipeline compiling it twice would), plain
context; the caller's module after the first and the second call."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from harness.blind_demo import main


def program():
    from _aef_line import api, funcs

    return api()[1]({"main": funcs()["main"]})


def observe(mod):
    from _aef_line import api, attrs_of

    transform = api()[3]
    transform.AnnotateEntryFunc()(mod)
    first = attrs_of(mod)
    out = transform.AnnotateEntryFunc()(mod)
    return f"input after 1st: {first}; result of 2nd: {attrs_of(out)}"


if __name__ == "__main__":
    sys.exit(
        main(sys.modules[__name__], "annotate_entry_func_inplace", "blind2-copy-only-when-checked")
    )

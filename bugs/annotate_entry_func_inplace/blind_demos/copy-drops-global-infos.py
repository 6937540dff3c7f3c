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
"""annotate_entry_func_inplace / blind2-copy-drops-global-infos: one function in a module with
a global info (a "vdevice" list; apache/tvm only) and an attribute; the
result's global infos and attributes."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from harness.blind_demo import main


def program():
    from _aef_line import api, funcs

    line, module, _, _ = api()
    mod = module({"main": funcs()["main"]}).with_attr("system_lib_prefix", "lib_")
    if line == "tvm":
        from tvm.script import ir as I

        mod.update_global_info("vdevice", [I.vdevice("llvm")])
    else:  # tvm-tirx 0.1.0a4 registers no GlobalInfo that Python can construct
        raise NotImplementedError("no constructible GlobalInfo on tvm-tirx")
    return mod


def observe(mod):
    from _aef_line import api

    out = api()[3].AnnotateEntryFunc()(mod)
    infos = {str(k): len(v) for k, v in out.global_infos.items()}
    return (
        f"entry: {dict(out['main'].attrs).get('tirx.is_entry_func')}; "
        f"global infos: {infos}; attrs: {dict(out.attrs)}"
    )


if __name__ == "__main__":
    sys.exit(
        main(sys.modules[__name__], "annotate_entry_func_inplace", "blind2-copy-drops-global-infos")
    )

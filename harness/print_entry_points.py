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
"""TVMScript's printing entry points (``script``, ``str``, ``repr``, ``print``, ``show``) as one
call, for the proof tests of the printer's fixes that check a program whichever way it is
printed (this repository only)."""

import contextlib
import io
import re

ENTRY_POINTS = ["script", "str", "repr", "print", "show"]


def printed(obj, entry):
    """``obj`` printed through the entry point ``entry`` (one of ``ENTRY_POINTS``)."""
    if entry == "script":
        return obj.script()
    if entry == "str":
        return str(obj)
    if entry == "repr":
        return repr(obj)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print(obj) if entry == "print" else obj.show(black_format=False, style="ansi")
    return re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())  # show's colours

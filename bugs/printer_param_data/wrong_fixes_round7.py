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
"""Blind round 7 wrong fixes of the printer_param_data reference fix (patch 0008), each an edit of
the text of bugs/printer_param_data/reference_fix.py (harness/wrong_fixes.py: EDITS); a mistake
an earlier round made already reuses its edit."""

from bugs.printer_param_data.wrong_fixes import EDITS as FIRST
from bugs.printer_param_data.wrong_fixes_round3 import EDITS as THIRD

WRONG_FIXES = {
    "blind7-store-site-unchanged": "the BufferStore dispatch keeps IsScalar() instead of "
    "IsScalarName: a store to a one-element parameter still prints as `C = v`",
    "blind7-load-site-unchanged": "the BufferLoad dispatch keeps IsScalar() instead of "
    "IsScalarName: a load of a one-element parameter (here inside an index) still prints bare",
    "blind7-var-site-unchanged": "the tirx::Var dispatch keeps IsScalar(): a one-element "
    "parameter's data still prints as `S.buffer.data` (FlattenBuffer's view of it)",
    "blind7-decl-scalar-not-defined": "DefineScalarName is missing from BufferDecl's decl_scalar "
    "branch: a T.decl_scalar name is printed as a buffer (`c[0]`)",
    "blind7-alloc-scalar-not-defined": "DefineScalarName is missing from BufferDecl's "
    "alloc_buffer scalar branch: a T.shared_scalar name is printed as a buffer (`c[0]`)",
    "blind7-sugar-not-defined": "DefineScalarName is missing from AllocBufferDoc's sugar "
    "(`c: T.float32`): later accesses of the cell print as `c[0]`",
    "blind7-module-wide-names": "scalar names are recorded in the module's frame, not the "
    "defining function's: a parameter named as another function's cell prints as the shorthand",
}

EDITS = {
    "blind7-store-site-unchanged": FIRST["blind-no-store-site"],
    "blind7-load-site-unchanged": FIRST["blind-no-load-site"],
    "blind7-var-site-unchanged": FIRST["blind-no-data-site"],
    "blind7-decl-scalar-not-defined": FIRST["blind-no-decl-scalar"],
    "blind7-alloc-scalar-not-defined": THIRD["blind3-no-alloc-scalar-name"],
    "blind7-sugar-not-defined": FIRST["blind-sugar-not-scalar-name"],
    # the union of every printed function's scalar names
    "blind7-module-wide-names": FIRST["module-wide-scalar-names"],
}

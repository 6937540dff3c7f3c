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
"""Round 8 blind wrong fixes of the InjectVirtualThread fix (blind8a): each is the reference
fix with one step of the patch (patches/0013) done wrong. Where a wrong fix lets a
non-constant extent reach the released pass, whose null cast would kill the process, ``run``
raises ``RuntimeError("the released pass would crash here")`` instead of calling it (the
README's convention): the edit ``CRASH`` that every wrong fix carries."""

# a non-constant extent that the wrong check lets through reaches the released pass's cast
CRASH = (
    "    check(mod)\n    return inner(mod)\n",
    "    check(mod)\n"
    "    if first_stop(mod, lambda a: a.attr_key == ATTR and "
    "not isinstance(a.value, tirx.IntImm)):\n"
    '        raise RuntimeError("the released pass would crash here")\n'
    "    return inner(mod)\n",
)

WRONG_FIXES = {
    "blind8-vthread-tags-only": "the check is made only for the tags that may share memory "
    "(vthread*): a cthread with a non-constant extent reaches the cast",
    "blind8-exact-vthread-tag": 'the check is made only for the tags "vthread" and "cthread": '
    "vthread.x, vthread.y, ... reach the cast",
    "blind8-var-extent-only": "the check refuses an extent that is a variable only: an extent "
    "read from a buffer or computed reaches the cast",
    "blind8-int32-extent-only": "the check accepts an IntImm of type int32 only: a constant "
    "int64 extent is refused",
    "blind8-outermost-named": "the check runs before the body is visited: of nested "
    "non-constant virtual threads the outermost is named, not the innermost",
    "blind8-var-name-in-message": "the message names the IterVar's variable instead of its "
    "thread tag",
    "blind8-icheck-internal-error": "TVM_FFI_ICHECK instead of TVM_FFI_THROW(ValueError): the "
    "user's error is an InternalError",
}

EDITS = {
    "blind8-vthread-tags-only": [
        (
            "if attr is not None and isinstance(attr.node, tirx.IterVar):",
            "if attr is not None and isinstance(attr.node, tirx.IterVar) and str(\n"
            '        attr.node.thread_tag\n    ).startswith("vthread"):',
        ),
        CRASH,
    ],
    "blind8-exact-vthread-tag": [
        (
            "if attr is not None and isinstance(attr.node, tirx.IterVar):",
            "if attr is not None and isinstance(attr.node, tirx.IterVar) and str(\n"
            '        attr.node.thread_tag\n    ) in ("vthread", "cthread"):',
        ),
        CRASH,
    ],
    "blind8-var-extent-only": [
        (
            "return not isinstance(attr.node, tirx.IterVar) or not isinstance(attr.value, "
            "tirx.IntImm)",
            "return not isinstance(attr.node, tirx.IterVar) or isinstance(attr.value, tirx.Var)",
        ),
        CRASH,
    ],
    "blind8-int32-extent-only": [
        (
            "return not isinstance(attr.node, tirx.IterVar) or not isinstance(attr.value, "
            "tirx.IntImm)",
            "return not isinstance(attr.node, tirx.IterVar) or not (\n"
            '        isinstance(attr.value, tirx.IntImm) and str(attr.value.ty) == "int32"\n'
            "    )",
        ),
        CRASH,
    ],
    "blind8-outermost-named": [('order="post"', 'order="pre"'), CRASH],
    "blind8-var-name-in-message": [
        (
            "raise ValueError(message(attr.node.thread_tag, attr.value))",
            "raise ValueError(message(attr.node.var.name, attr.value))",
        ),
        CRASH,
    ],
    "blind8-icheck-internal-error": [
        (
            "raise ValueError(message(attr.node.thread_tag, attr.value))",
            "raise tvm.error.InternalError(message(attr.node.thread_tag, attr.value))",
        ),
        CRASH,
    ],
}

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
"""Blind round 7 wrong fixes of the vthread_dynamic_extent reference fix (patch 0013)."""

WRONG_FIXES = {
    "blind7-check-before-body": (
        "the extent is tested at the top of VisitStmt_, before the body "
        "is visited: of nested non-constant virtual threads the outer one is named"
    ),
    "blind7-vthread-tag-only": (
        "the test sits inside the allow_share (vthread*) branch: a cthread "
        "of non-constant extent still reaches the null cast"
    ),
    "blind7-var-only": (
        "the test is op->value.as<VarNode>() instead of !as<IntImmNode>(): an "
        "extent that is an expression (n * 2) still reaches the null cast"
    ),
    "blind7-int32-only": (
        "the test also requires extent->dtype == Int(32): a constant int64 extent is refused"
    ),
    "blind7-dom-extent": (
        "the test reads iv->dom->extent instead of op->value: a virtual thread "
        "whose IterVar domain is constant but whose attribute value is not still crashes"
    ),
    "blind7-nonzero-extent": (
        "the test is written as `extent == nullptr || extent->value <= 1` (a "
        "'needs more than one thread' guard): a valid constant extent of 1 is refused"
    ),
}

UNSEEN = {
    "blind7-var-only": (
        "as round 4's blind4-vars-only: wherever it differs from the fix (an extent that is a "
        "load or an expression) the released pass segfaults in the test process"
    ),
    "blind7-dom-extent": (
        "as round 5's blind5-dom-extent: it differs only where a virtual thread's IterVar "
        "domain disagrees with its attribute's value, which no well-formed program has"
    ),
}

EDITS = {
    "blind7-check-before-body": [('order="post"', 'order="pre"')],
    "blind7-vthread-tag-only": [
        (
            "    if attr.attr_key != ATTR:\n        return False\n",
            "    if attr.attr_key != ATTR:\n        return False\n"
            "    if isinstance(attr.node, tirx.IterVar) and not "
            'attr.node.thread_tag.startswith("vthread"):\n'
            "        return False\n",
        ),
    ],
    "blind7-var-only": [
        ("or not isinstance(attr.value, tirx.IntImm)", "or isinstance(attr.value, tirx.Var)"),
    ],
    "blind7-int32-only": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            'or not isinstance(attr.value, tirx.IntImm) or str(attr.value.ty.dtype) != "int32"',
        ),
    ],
    "blind7-dom-extent": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            "or not isinstance(attr.node.dom.extent if attr.node.dom is not None "
            "else attr.value, tirx.IntImm)",
        ),
    ],
    "blind7-nonzero-extent": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            "or not isinstance(attr.value, tirx.IntImm) or attr.value.value <= 1",
        ),
    ],
}

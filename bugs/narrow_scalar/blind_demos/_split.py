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
"""What the SplitHostDevice demos of narrow_scalar share: what a demo observes of its module."""


def observe_split(mod):
    """The module after SplitHostDevice (without the target attributes), and whether it is
    well-formed (apache/tvm line)."""
    from harness.tvm_line import LINE, ir

    after = ir.transform.SplitHostDevice()(mod)
    text = "\n".join(x for x in after.script().splitlines() if "func_attr" not in x)
    if LINE == "tvm":
        import tvm

        try:
            tvm.tirx.analysis.verify_well_formed(after)
            text += "\nwell-formed"
        except Exception as err:  # the verdict is the result
            text += "\nnot well-formed: " + str(err).strip().splitlines()[-1][:200]
    return text

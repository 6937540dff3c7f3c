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
"""Demo program on which the reference fix and blind3-host-update-in-place differ.

SplitHostDevice on one function with a cuda device region: the input must keep its unsplit main
(no call of a main_kernel it does not hold)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))


import harness.blind_inplace as h
from harness.blind_demo import main


def program():
    return h.device_region()


def observe(mod):
    return h.before_and_after(mod, h.split_host_device)


if __name__ == "__main__":
    sys.exit(
        main(sys.modules[__name__], "split_host_device_inplace", "blind3-host-update-in-place")
    )

#!/usr/bin/env bash
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
# Regenerate the test part of every patch in patches/ from this repository's upstream test
# files, keeping each patch's C++ change and message:
#
#   scripts/regen_patches.sh [--work DIR]
#
# In a scratch clone of TVM at the base commit, each patch is applied in order (git am -k),
# the tests an earlier export added are taken out again (test files the patch created are
# removed; in TVM's own files only what the export added goes, so a patch's edits of TVM's
# tests stay), this repository's files for that fix (scripts/check_patches.py's table) are
# merged in with
# `export_to_tvm.py --drop-bug-xfails --only ...`, the commit is amended (author: this
# project) and written back with `git format-patch -k`. Patches build on each other, as
# scripts/build_tvm.sh applies them; each patch's C++ must be clang-format 20 clean (checked
# when CLANG_FORMAT or PATH has clang-format 20 with git-clang-format beside it). TVM_GIT and
# TVM_COMMIT as for scripts/build_tvm.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "regen_patches: error: $*" >&2; exit 2; }
work=${TVM_BUILD_WORK:-/tmp/tvm-src-build}
[ "${1:-}" = "--work" ] && work=${2:?--work needs a directory}
# TVM_GIT, else a local copy of TVM at the base commit, when present (read through
# scripts/tvm_source.py), else GitHub
tvm_git=${TVM_GIT:-$(python3 "$root/scripts/tvm_source.py" 2>/dev/null || echo https://github.com/apache/tvm)}
base=${TVM_COMMIT:-5d4dc8721307cf9677becacf0395c19be130e206}
author="Seed 000e2e69 maintainers <maintainers@users.noreply.a-seed-000e2e69.example>"
py=$("$root/scripts/setup.sh" | tail -n 1) || exit 2

# clang-format 20 and git-clang-format (pip install clang-format==20.*): CLANG_FORMAT, or PATH
clang_format=${CLANG_FORMAT:-$(command -v clang-format || true)}
git_clang_format=$(dirname "${clang_format:-/}")/git-clang-format
if [ -n "$clang_format" ] && "$clang_format" --version | grep -q "version 20\." \
   && [ -x "$git_clang_format" ]; then
  :
else
  echo "regen_patches: clang-format 20 not found (CLANG_FORMAT): C++ formatting not checked" >&2
  clang_format=
fi

pw="$work/patchwork"
if [ ! -d "$pw/.git" ]; then
  mkdir -p "$work"
  if [ -d "$tvm_git" ]; then
    # a local (possibly shallow) repository: its objects are borrowed, not cloned (a partial
    # clone can hang, and a clone of a copy without refs, as tvm_source.py's wrapper is, is empty)
    objects=$(git -C "$tvm_git" rev-parse --path-format=absolute --git-path objects) \
      || die "cannot read $tvm_git"
    git init -q "$pw" || die "cannot create $pw"
    git -C "$pw" config core.abbrev 10  # as in a clone of TVM's whole history
    echo "$objects" > "$pw/.git/objects/info/alternates"
    shallow=$(git -C "$tvm_git" rev-parse --path-format=absolute --git-path shallow)
    if [ -f "$shallow" ]; then cp "$shallow" "$pw/.git/shallow"; fi
  else
    git clone -q --no-checkout --filter=blob:none "$tvm_git" "$pw" 2>/dev/null \
      || git clone -q --no-checkout "$tvm_git" "$pw" || die "cannot clone $tvm_git"
  fi
fi
git -C "$pw" am --abort >/dev/null 2>&1 || true
git -C "$pw" -c advice.detachedHead=false checkout -q -f "$base" || die "no commit $base in $tvm_git"
git -C "$pw" clean -q -fdx
out=$(mktemp -d)
for p in "$root"/patches/0*.patch; do
  mapfile -t ours < <("$py" "$root/scripts/check_patches.py" --tests-of "$p")
  [ ${#ours[@]} -gt 0 ] || die "no upstream test files belong to $p"
  # the diffs of our test files that only add lines are what the last export added: they are
  # left out (the export below adds the tests again), so that an earlier patch's changed tests
  # cannot break their context
  "$py" - "$p" "$out/filtered.mbox" "${ours[@]}" <<'PY'
import re
import sys
from pathlib import Path

text = Path(sys.argv[1]).read_text()
ours = {arg.split("::")[0] for arg in sys.argv[3:]}
body, sep, signature = text.rpartition("\n-- \n")  # format-patch's signature
parts = re.split(r"(?m)^(?=diff --git )", body + "\n")
kept = [parts[0]]
for part in parts[1:]:
    path = part.split("\n", 1)[0].split(" b/", 1)[1]
    if path in ours and not re.search(r"(?m)^-(?!-- )", part):
        continue
    kept.append(part)
Path(sys.argv[2]).write_text("".join(kept).rstrip("\n") + sep + signature)
PY
  git -C "$pw" -c user.name=regen -c user.email=regen@localhost am -q -k "$out/filtered.mbox" \
    || { git -C "$pw" am --abort; die "git am failed: $p"; }
  mapfile -t keep < <("$py" "$root/scripts/check_patches.py" --companions-of "$p")
  while IFS= read -r f; do
    case " ${keep[*]} " in *" $f "*) continue ;; esac
    if git -C "$pw" cat-file -e "HEAD~1:$f" 2>/dev/null; then
      # TVM's file: drop what the earlier export added, keep the patch's edits of TVM's tests
      git -C "$pw" show "HEAD~1:$f" > "$out/base.py"
      "$py" -c 'import sys; sys.path.insert(0, sys.argv[1])
from pathlib import Path
from export_to_tvm import prune_added
f = Path(sys.argv[2]); f.write_text(prune_added(f.read_text(), Path(sys.argv[3]).read_text()))' \
        "$root/scripts" "$pw/$f" "$out/base.py"
    else
      git -C "$pw" rm -q -f "$f"
    fi
  done < <(git -C "$pw" diff --name-only HEAD~1 HEAD -- tests)
  only=(); for f in "${ours[@]}"; do only+=(--only "$f"); done
  "$py" "$root/scripts/export_to_tvm.py" --tvm-root "$pw" --drop-bug-xfails "${only[@]}" >/dev/null \
    || die "export into the patch tree failed for $p"
  git -C "$pw" add -A tests
  # a patch written without -k kept its "[PATCH] " through `git am -k`: drop it
  msg=$(git -C "$pw" log -1 --format=%B | sed '1s/^\[PATCH[^]]*\] //')
  git -C "$pw" -c user.name=regen -c user.email=regen@localhost commit -q --amend -m "$msg" \
    --author="$author"
  # the C++ part must be clang-format 20 clean (TVM's CI): checked when it is at hand
  if [ -n "$clang_format" ]; then
    fmt=$(cd "$pw" && "$git_clang_format" --binary "$clang_format" --diff HEAD~1 HEAD -- src 2>&1)
    case "$fmt" in ""|*"did not modify"*|*"no modified files"*) ;;
      *) echo "$fmt" >&2; die "$(basename "$p"): the C++ is not clang-format clean" ;; esac
  fi
  git -C "$pw" format-patch -q -k -1 -o "$out" HEAD
  mv "$out"/*.patch "$p.new"
  mv "$p.new" "$p"
  echo "regenerated $(basename "$p")"
done
rm -rf "$out"

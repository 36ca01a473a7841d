#!/usr/bin/env bash
# One file, one job: no source file of the tree over 1,000 lines
# (docs/building.md, "Source layout"). Generated files live in the build
# directory and test data under tests/ with other suffixes, so every tracked
# C, C++, shell, Python, CMake and Promela file counts. The check itself is
# tried first on a scratch tree holding a 1,001-line file (it must fail
# there) and a 1,000-line one (it must not).
# usage: source_sizes.sh IDLESPEC SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
src=$2
limit=1000
work=$(mktemp -d /tmp/idlespec-sizes-XXXXXX)
trap 'rm -rf "$work"' EXIT

# oversized DIR: "FILE LINES" for each tracked source file over the limit.
oversized() {
  git -C "$1" ls-files -z -- '*.cc' '*.h' '*.c' '*.sh' '*.py' '*.in' '*.cmake' \
    'CMakeLists.txt' '*.pml' |
    (cd "$1" && xargs -0 -r wc -l) |
    awk -v limit="$limit" '$2 != "total" && $1 > limit { print $2 " " $1 }'
}

command -v git >/dev/null || skip_test "git is not installed"
git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  skip_test "$src is not a git checkout (the tracked files are what is counted)"

# The check on a tree of its own: the 1,001-line file is named, the
# 1,000-line one is not.
git -C "$work" init -q
seq 1 1001 >"$work/long.cc"
seq 1 1000 >"$work/exact.c"
git -C "$work" add long.cc exact.c
n=$((n + 1))
got=$(oversized "$work")
if [ "$got" = "long.cc 1001" ]; then
  echo "ok   witness-long-file-named"
else
  fail "witness-long-file-named: got '$got', want 'long.cc 1001'"
fi

n=$((n + 1))
got=$(oversized "$src")
if [ -z "$got" ]; then
  echo "ok   no-file-over-$limit-lines"
else
  fail "files over $limit lines (split each by job): $(echo "$got" | tr '\n' ';')"
fi

echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# .clusterfuzzlite/build.sh outside a container: the engines' environment set
# by hand (Debian's clang, LIB_FUZZING_ENGINE=-fsanitize=fuzzer, ASan flags as
# OSS-Fuzz gives them), into a temporary $OUT; then every fuzz target must be
# there with its .options, .dict and seed corpus zip, and each runs ~2 s on
# its unpacked seed corpus without a crash. Skipped (exit 77; a failure in
# CI) only when clang++ is absent (scripts/setup.sh installs it).
# usage: clusterfuzzlite.sh IDLESPEC SOURCE_DIR
set -u
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
. "$src/tests/skip.sh"
if ! command -v clang++ >/dev/null || ! command -v clang >/dev/null; then
  skip_test "clang/clang++ not installed (scripts/setup.sh installs clang); build.sh not tested"
fi
work=$(mktemp -d /tmp/idlespec-cfl-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/out" "$work/work"
san="-fsanitize=address -fsanitize-address-use-after-scope"
start=$(date +%s)
env CC=clang CXX=clang++ SANITIZER=address SRC="$src/.." OUT="$work/out" WORK="$work/work" \
  CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only $san -fsanitize=fuzzer-no-link" \
  CXXFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only $san -fsanitize=fuzzer-no-link" \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer IDLESPEC_FUZZ_JOBS=2 \
  bash "$src/.clusterfuzzlite/build.sh" >"$work/build.log" 2>&1
rc=$?
echo "build.sh: exit $rc in $(($(date +%s) - start)) s"
if [ "$rc" != 0 ]; then
  tail -30 "$work/build.log"
  echo "clusterfuzzlite.sh: build.sh failed"
  exit 1
fi
# A stray file in $OUT would be listed as a target by ClusterFuzzLite.
[ -z "$(find "$work/work" -mindepth 1 -print -quit)" ] || fail "build.sh left files in \$WORK"

ntargets=0
for target_src in "$src"/fuzz/*_fuzz.cc; do
  t=$(basename "$target_src" .cc)
  ntargets=$((ntargets + 1))
  bin="$work/out/$t"
  [ -x "$bin" ] || { fail "$t: no binary in \$OUT"; continue; }
  for ext in options dict; do
    if [ -f "$src/fuzz/$t.$ext" ]; then
      cmp -s "$src/fuzz/$t.$ext" "$work/out/$t.$ext" || fail "$t: \$OUT/$t.$ext differs or is missing"
    fi
  done
  seeds="$work/seeds/$t"
  mkdir -p "$seeds"
  if [ -d "$src/fuzz/corpus/$t" ]; then
    zip="$work/out/${t}_seed_corpus.zip"
    [ -f "$zip" ] || { fail "$t: no ${t}_seed_corpus.zip"; continue; }
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$zip" "$seeds" ||
      fail "$t: the seed corpus zip does not unpack"
    want=$(find "$src/fuzz/corpus/$t" -type f | wc -l)
    got=$(find "$seeds" -type f | wc -l)
    [ "$want" = "$got" ] || fail "$t: the seed corpus zip holds $got files, fuzz/corpus/$t $want"
  fi
  # The run as ClusterFuzzLite starts it: from $OUT, the dictionary and
  # max_len of the .options file, a scratch corpus seeded from the zip.
  opts=()
  if [ -f "$work/out/$t.options" ]; then
    d=$(sed -n 's/^[[:space:]]*dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$work/out/$t.options")
    m=$(sed -n 's/^[[:space:]]*max_len[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$work/out/$t.options")
    [ -n "$d" ] && opts+=("-dict=$work/out/$d")
    [ -n "$m" ] && opts+=("-max_len=$m")
  fi
  mkdir -p "$work/run/$t"
  (cd "$work/out" && "$bin" -max_total_time=2 -seed=1 -artifact_prefix="$work/run/$t/" \
    "${opts[@]}" "$work/run/$t" "$seeds") >"$work/$t.log" 2>&1
  rc=$?
  if [ "$rc" != 0 ]; then
    tail -20 "$work/$t.log"
    fail "$t: exit $rc on its seed corpus"
  else
    echo "$t: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$work/$t.log" | tail -1)"
  fi
done
[ "$ntargets" -gt 0 ] || fail "no fuzz/*_fuzz.cc"
extra=$(cd "$work/out" && ls | grep -v -E '_fuzz(\.options|\.dict|_seed_corpus\.zip)?$')
[ -z "$extra" ] || fail "unexpected files in \$OUT: $extra"

echo "clusterfuzzlite.sh: $ntargets targets, $(($(date +%s) - start)) s in all"
if [ "$fails" -ne 0 ]; then
  echo "clusterfuzzlite.sh: $fails failure(s)"
  exit 1
fi
echo "clusterfuzzlite.sh: all passed"

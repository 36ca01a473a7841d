#!/bin/bash -eu
# Builds every idlespec fuzz target into $OUT the way ClusterFuzzLite and
# OSS-Fuzz expect it: for each fuzz/<target>.cc (a <component>_fuzz.cc
# defining LLVMFuzzerTestOneInput)
#   $OUT/<target>                 the binary ($CXX $CXXFLAGS ... $LIB_FUZZING_ENGINE)
#   $OUT/<target>.options         fuzz/<target>.options, if there is one
#   $OUT/<target>.dict            fuzz/<target>.dict, if there is one
#   $OUT/<target>_seed_corpus.zip fuzz/corpus/<target>/, if there is one
# The environment is the engines' own: CC, CXX, CFLAGS, CXXFLAGS,
# LIB_FUZZING_ENGINE, SRC, OUT, SANITIZER (only logged: the flags carry it).
# The library the targets link is what cmake/IdlespecFuzz.cmake links them
# with (idlespec_fuzz: impl/, oracle/, verify/registry.cc, the spec parser
# with the spec built in, and fuzz/'s own sources but targets, seed writers
# and replay_main.cc), found by globbing at
# build time so that a new source file needs no edit here. Nothing is
# downloaded. Outside a container (tests/cli/clusterfuzzlite.sh) set the same
# variables by hand; IDLESPEC_FUZZ_JOBS caps the parallel compiles (default:
# the number of processors).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ ! -d "$root/fuzz" ] && [ -d "$SRC/idlespec/fuzz" ]; then root=$SRC/idlespec; fi
: "${CXX:?}" "${CXXFLAGS:?}" "${LIB_FUZZING_ENGINE:?}" "${OUT:?}"
echo "idlespec build.sh: sanitizer ${SANITIZER:-unset}, $CXX, sources in $root, into $OUT"

work=$(mktemp -d "${WORK:-/tmp}/idlespec-cfl-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT" "$work/obj"

# The defines CMakeLists.txt gives every translation unit.
flags=(-std=c++20 "-I$root" -DIDLESPEC_EXHAUSTIVE=0 '-DIDLESPEC_CVC5_PATH=""')
# Coverage feedback from the code under test only, as the fuzz preset builds
# it (fuzz/coverage.ignorelist); only where the engine instruments coverage.
case "$CXXFLAGS" in
  *fuzzer-no-link* | *sanitize-coverage*)
    flags+=("-fsanitize-coverage-ignorelist=$root/fuzz/coverage.ignorelist") ;;
esac

# The spec built in, written by the same script CMakeLists.txt runs
# (scripts/embed_spec.sh): the targets read the spec's acceptances from it
# (fuzz/spec_acceptance.cc).
spec_cc="$work/spec_embedded.cc"
bash "$root/scripts/embed_spec.sh" "$root" "$spec_cc"

# Where the build's own files are (verify/build_paths.h), as CMake writes it;
# the fuzz targets never read the corpus through it (only the replay does).
paths_cc="$work/build_paths.cc"
sed -e "s|@IDLESPEC_BUILD_SOURCE_DIR@|$root|g" -e "s|@IDLESPEC_BUILD_HARNESS_ORACLE@||g" \
  "$root/verify/build_paths.cc.in" >"$paths_cc"

lib_sources=("$root/verify/spec_index.cc" "$spec_cc" "$paths_cc")
for src in "$root"/impl/*.cc "$root"/oracle/*.cc "$root"/verify/registry.cc "$root"/fuzz/*.cc; do
  case "$(basename "$src")" in
    *_fuzz.cc | *_seeds.cc | replay_main.cc | *_test.cc) continue ;;
  esac
  lib_sources+=("$src")
done
targets=("$root"/fuzz/*_fuzz.cc)
[ -e "${targets[0]}" ] || { echo "build.sh: no fuzz/*_fuzz.cc under $root" >&2; exit 1; }

# One object per source, compiled in parallel; the library as an archive so
# that each target links only the objects it needs.
compile() {  # compile SOURCE OBJECT
  # shellcheck disable=SC2086  # CXXFLAGS is a word list by convention
  $CXX $CXXFLAGS "${flags[@]}" -c "$1" -o "$2"
}
jobs=${IDLESPEC_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
pids=()
i=0
for src in "${lib_sources[@]}" "${targets[@]}"; do
  obj="$work/obj/$(echo "${src#"$root"/}" | tr / _).o"
  compile "$src" "$obj" &
  pids+=($!)
  i=$((i + 1))
  if [ $((i % jobs)) -eq 0 ]; then
    for p in "${pids[@]}"; do wait "$p"; done
    pids=()
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
lib_objects=()
for src in "${lib_sources[@]}"; do lib_objects+=("$work/obj/$(echo "${src#"$root"/}" | tr / _).o"); done
ar rcs "$work/libidlespec_fuzz.a" "${lib_objects[@]}"

for src in "${targets[@]}"; do
  target=$(basename "$src" .cc)
  obj="$work/obj/$(echo "${src#"$root"/}" | tr / _).o"
  # shellcheck disable=SC2086  # as above; LIB_FUZZING_ENGINE may be several words
  $CXX $CXXFLAGS "$obj" "$work/libidlespec_fuzz.a" $LIB_FUZZING_ENGINE -o "$OUT/$target"
  for ext in options dict; do
    if [ -f "$root/fuzz/$target.$ext" ]; then cp "$root/fuzz/$target.$ext" "$OUT/$target.$ext"; fi
  done
  if [ -d "$root/fuzz/corpus/$target" ]; then
    rm -f "$OUT/${target}_seed_corpus.zip"
    if command -v zip >/dev/null; then
      (cd "$root/fuzz/corpus/$target" && zip -q -r -X "$OUT/${target}_seed_corpus.zip" .)
    else
      (cd "$root/fuzz/corpus/$target" && python3 -m zipfile -c "$OUT/${target}_seed_corpus.zip" ./*)
    fi
  fi
  echo "idlespec build.sh: $OUT/$target"
done

#!/bin/sh
# ctest: budget=30 timeout=300
# tests/validate/run_annotations.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Every kernel annotation compiles through harness/shims/ as the kernel
# defines it outside sparse (issue 37): each "ANNOTATION name: code" line of
# annotations.c compiled on its own with the flags validate builds harnesses
# with (one test per annotation), then the whole file built and run for the
# host and, where the cross compilers and qemu-user are installed, for ppc64
# and ppc64le; sparse (when installed) finds nothing in it. A name the shims
# do not define fails the same check (the check can fail). Last, the xcede
# decoder written with the annotations kernel text carries is judged by
# validate: every clause held.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7 XCEDE-8"
COMPONENT=xcede
. "$HERE/lib.sh"
SHIMS=$HERE/../../harness/shims
CC=${CC:-cc}
FLAGS="-std=gnu11 -w -fno-strict-aliasing -fno-strict-overflow -fno-delete-null-pointer-checks"

compiles() {  # compiles NAME CODE [CC...]: the snippet through the shims
  name=$1 code=$2; shift 2
  printf '#include "kernel.h"\n%s\nint main(void) { return 0; }\n' "$code" >"$SCRATCH/ann.c"
  # shellcheck disable=SC2086
  "$@" $FLAGS -I"$SHIMS" -c "$SCRATCH/ann.c" -o "$SCRATCH/ann.o" 2>"$SCRATCH/ann.err"
}

n=0
sed -n 's|^/\* ANNOTATION \([^:]*\): \(.*\) \*/$|\1\t\2|p' "$HERE/annotations.c" >"$SCRATCH/list"
while IFS="$(printf '\t')" read -r name code; do
  n=$((n + 1))
  compiles "$name" "$code" "$CC" || fail "$name does not compile: $(head -n 3 "$SCRATCH/ann.err")"
done <"$SCRATCH/list"
[ "$n" -ge 70 ] || fail "only $n annotations listed in annotations.c"
echo "annotations: $n compiled one by one"
# The check can fail: a name no shim defines.
compiles __not_an_annotation "static int __not_an_annotation t_x;" "$CC" &&
  fail "an annotation the shims do not define compiled"

whole() {  # whole LABEL RUNNER CC...: build annotations.c and run it
  label=$1 runner=$2; shift 2
  # shellcheck disable=SC2086
  "$@" $FLAGS -I"$SHIMS" -include kernel.h "$HERE/annotations.c" -o "$SCRATCH/ann_$label" \
    2>"$SCRATCH/ann_$label.err" || { fail "$label: annotations.c does not build: $(head -n 3 "$SCRATCH/ann_$label.err")"; return; }
  # shellcheck disable=SC2086
  out=$($runner "$SCRATCH/ann_$label") || fail "$label: annotations.c ran wrong: $out"
  echo "$label: $out"
  case $out in "annotations: right"*) ;; *) fail "$label: $out" ;; esac
}
whole host "" "$CC"
if command -v powerpc64-linux-gnu-gcc >/dev/null && command -v qemu-ppc64 >/dev/null; then
  whole ppc64 "qemu-ppc64 -L /usr/powerpc64-linux-gnu" powerpc64-linux-gnu-gcc -funsigned-char -static
else
  not_run "ppc64: not installed (scripts/setup.sh power)"
fi
if command -v powerpc64le-linux-gnu-gcc >/dev/null && command -v qemu-ppc64le >/dev/null; then
  whole ppc64le "qemu-ppc64le -L /usr/powerpc64le-linux-gnu" powerpc64le-linux-gnu-gcc -funsigned-char -static
else
  not_run "ppc64le: not installed (scripts/setup.sh power)"
fi
if command -v sparse >/dev/null; then
  sparse -Wbitwise -I"$SHIMS" -include kernel.h "$HERE/annotations.c" >"$SCRATCH/sparse.out" 2>&1 ||
    fail "sparse failed on annotations.c: $(head -n 3 "$SCRATCH/sparse.out")"
  grep -q "annotations.c" "$SCRATCH/sparse.out" &&
    fail "sparse warns on annotations.c: $(grep annotations.c "$SCRATCH/sparse.out" | head -n 3)"
  echo "sparse: nothing to say on annotations.c"
else
  not_run "sparse: not installed (scripts/setup.sh power)"
fi

# The decoder as kernel text writes it: __init, __must_check, __cold,
# __always_inline, __maybe_unused, __ro_after_init and a __force cast in
# its own conversion. Every clause holds, on every target validate runs.
variant annotated 's/^static int __init xcede_query(void)$/static int __init __must_check __cold xcede_query(void)/
s/^static unsigned int nr_xcede_records;/static unsigned int nr_xcede_records __read_mostly;/
s/^static int __init xcede_decode(void)$/static __always_inline int __maybe_unused xcede_decode(void)/
s/payload_size = be16_to_cpu(xcede_latency_parameter.payload_size);/payload_size = be16_to_cpu((__force __be16)(__force u16)xcede_latency_parameter.payload_size);/'
run annotated --source "$(src_variant annotated)" --component xcede --inputs generated --fuzz 0 --budget "$BUDGET"
expect_rc annotated 0
expect_no_driver_crash annotated
for c in XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7; do expect_clause annotated "$c" held; done
finish

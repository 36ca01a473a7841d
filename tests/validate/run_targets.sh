#!/bin/sh
# ctest: budget=30 timeout=600
# tests/validate/run_targets.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# validate --targets (issue 37, validate/targets.h) beyond the XCEDE-8
# witnesses of run_byteorder.sh:
# - the sandbox under qemu-user: an escape attempt of the code under test
#   run on ppc64le (a read of /etc/shadow, a connect) is still a finding,
#   named with its target, exit 1; the faithful file shows none;
# - the memory limit binds the emulated harness (qemu ignores the guest's
#   RLIMIT_AS: the limit is put on the emulator): an allocation past
#   --memory fails on ppc64le as on the host;
# - every format names each target's verdict: Markdown, SARIF, JUnit,
#   the HTML page, matrix;
# - a target whose tools are missing is said once, with the set-up line.
set -u
unset IDLESPEC_NO_SANDBOX
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=hostile
. "$HERE/lib.sh"
for tool in powerpc64-linux-gnu-gcc qemu-ppc64 powerpc64le-linux-gnu-gcc qemu-ppc64le; do
  if ! command -v "$tool" >/dev/null; then
    skip_test "$tool not installed (scripts/setup.sh power)"
  fi
done
RUN_DEFAULTS="--budget $BUDGET --scan sampled"
hostile() {
  awk -v code="$2" '{ if (index($0, "/* hostile: here */")) print "\t\t" code; else print }' \
    "$HERE/hostile_busy_delay.c" >"$SCRATCH/$1.c"
  cmp -s "$HERE/hostile_busy_delay.c" "$SCRATCH/$1.c" && fail "$1: the misdeed was not inserted"
}

# The faithful busy_delay file on the three targets: every clause held on
# each, no escape (qemu's own start-up is not the code's).
run faithful --targets host,ppc64,ppc64le --source "$HERE/busy_delay_faithful.c"
expect_rc faithful 0
grep -q '^escape' "$SCRATCH/faithful.out" && fail "faithful: an escape reported: $(grep '^escape' "$SCRATCH/faithful.out")"
expect_where faithful BUSY-4 held "held on host, ppc64 (big-endian) and ppc64le"

# Escapes under qemu-user.
hostile shadow 'FILE *f = fopen("/etc/shadow", "r"); if (f) fclose(f);'
run shadow --targets ppc64le --source "$SCRATCH/shadow.c"
expect_rc shadow 1
expect_text shadow "escape: on ppc64le: the code under test tried to open /etc/shadow for reading"
hostile connect 'unsigned char sa[16] = {0, 0, 0, 9, 127, 0, 0, 1}; unsigned short fam = 2; memcpy(sa, &fam, 2); int fd = socket(2, 1, 0); connect(fd, (void *)sa, 16);'
run connect --targets ppc64 --source "$SCRATCH/connect.c"
expect_rc connect 1
grep '^escape: on ppc64 (big-endian): ' "$SCRATCH/connect.out" | grep -q "127.0.0.1" ||
  fail "connect: no escape on ppc64 naming 127.0.0.1 (got: $(grep '^escape' "$SCRATCH/connect.out"))"

# The memory limit on the emulated harness: 1 GiB asked under --memory 256.
hostile alloc 'static int once; if (!once++) { char *p = malloc(1u << 30); if (p) memset(p, 1, 1u << 30); puts(p ? "ALLOC-GRANTED" : "ALLOC-REFUSED"); free(p); }'
for t in host ppc64le; do
  run "alloc_$t" --targets "$t" --memory 256 --no-sanitizers --source "$SCRATCH/alloc.c"
  expect_text "alloc_$t" "ALLOC-REFUSED"
  grep -q "ALLOC-GRANTED" "$SCRATCH/alloc_$t.out" && fail "alloc_$t: 1 GiB granted under --memory 256"
done

# Every format, on the hand-swapping XCEDE-8 witness (fails on ppc64 only).
sed 's/payload_size = be16_to_cpu(xcede_latency_parameter.payload_size);/payload_size = (u16)((xcede_latency_parameter.payload_size >> 8) | (xcede_latency_parameter.payload_size << 8));/' \
  "$HERE/xcede_faithful.c" >"$SCRATCH/hand_swap.c"
HTML=
command -v python3 >/dev/null && HTML="--html $SCRATCH/hand_swap.html"
# shellcheck disable=SC2086
IDLESPEC_SPARSE= run hand_swap --component xcede --inputs generated --fuzz 0 --targets host,ppc64,ppc64le \
  --source "$SCRATCH/hand_swap.c" --markdown "$SCRATCH/hand_swap.md" --sarif "$SCRATCH/hand_swap.sarif" \
  --junit "$SCRATCH/hand_swap.xml" $HTML
expect_rc hand_swap 1
WHERE="failed on ppc64 (big-endian), held on host and ppc64le"
expect_where hand_swap XCEDE-8 failed "$WHERE"
grep -qF "$WHERE" "$SCRATCH/hand_swap.md" || fail "hand_swap: the Markdown does not say where"
grep -qF "$WHERE" "$SCRATCH/hand_swap.sarif" || fail "hand_swap: the SARIF message does not say where"
grep -qF '"target:ppc64": "failed"' "$SCRATCH/hand_swap.sarif" ||
  grep -qF '"target:ppc64":"failed"' "$SCRATCH/hand_swap.sarif" || fail "hand_swap: no per-target property in the SARIF"
grep -qF "$WHERE" "$SCRATCH/hand_swap.xml" || fail "hand_swap: the JUnit failure does not say where"
if [ -n "$HTML" ]; then
  grep -rqF "ppc64: failed; ppc64le: held" "$SCRATCH/hand_swap.html" ||
    grep -rqF "host: held; ppc64: failed; ppc64le: held" "$SCRATCH/hand_swap.html" ||
    fail "hand_swap: the HTML page does not show each target's verdict"
fi
# matrix: the cell names the failing target.
mkdir -p "$SCRATCH/m"
cp "$SCRATCH/hand_swap.c" "$SCRATCH/m/hand_swap.c"
cp "$HERE/xcede_faithful.c" "$SCRATCH/m/faithful.c"
IDLESPEC_SPARSE= "$(dirname "$BIN")/idlespec" matrix "$SCRATCH/m/faithful.c" "$SCRATCH/m/hand_swap.c" --component xcede \
  --inputs generated --fuzz 0 --budget "$BUDGET" --targets host,ppc64,ppc64le >"$SCRATCH/matrix.out" 2>&1
grep '^XCEDE-8' "$SCRATCH/matrix.out" | grep -qF "failed on ppc64" ||
  fail "matrix: the XCEDE-8 row does not name the failing target: $(grep '^XCEDE-8' "$SCRATCH/matrix.out")"

# A missing cross toolchain: said once, with the set-up line; the host still runs.
NOPPC=$SCRATCH/noppc
mkdir -p "$NOPPC"
for f in /usr/bin/* /bin/*; do
  case ${f##*/} in powerpc64*|qemu-ppc64*) continue ;; esac
  [ -e "$NOPPC/${f##*/}" ] || ln -s "$f" "$NOPPC/${f##*/}"
done
# (the driver's own look-ups go through PATH: bwrap and the compiler named
# by their paths; inside the sandbox PATH is its own)
IDLESPEC_TARGETS= IDLESPEC_BWRAP=$(command -v bwrap) PATH=$NOPPC run missing --component xcede --inputs generated \
  --fuzz 0 --cc "$(command -v cc)" --source "$HERE/xcede_faithful.c"
expect_rc missing 0
n=$(grep -c "not installed" "$SCRATCH/missing.out")
[ "$n" = 1 ] || fail "missing: the missing toolchains said $n times, expected once"
expect_text missing "note: targets not run, their tools not installed (install with: scripts/setup.sh power): ppc64 (powerpc64-linux-gnu-gcc, qemu-ppc64); ppc64le (powerpc64le-linux-gnu-gcc, qemu-ppc64le)"
grep -q '^XCEDE-8 .*(held on' "$SCRATCH/missing.out" && fail "missing: a per-target verdict for a host-only run"
finish

#!/bin/sh
# ctest: budget=10 timeout=400
# tests/validate/run_hostile_limits.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The attacks on idlespec's own process (docs/security.md, "What the driver
# trusts"): the driver runs outside the sandbox, as root in CI, and must act
# on nothing the code under test controls. Each attack is the correct
# busy_delay file hostile_busy_delay.c with one misdeed at its hook, as in
# run_hostile.sh. Tokens the code must never print: a 0600 file under a
# 0700 directory (as /root holds them), one beside the checkout, one in the
# caller's environment. Every attack checks every output format (text,
# --json, --markdown, --sarif, --junit, --html) for the tokens, and the run's
# exit code; the whole script checks that no host file it aims at changed
# (hashed before and after).
#
#   item 5  fallocate(FALLOC_FL_KEEP_SIZE) of unlinked files past the quota
#   item 6  text that reads differently (or fails) under the sanitizer build;
#           SIGINT at several moments of a run (Z3's own SIGINT handler)
#   item 7  openat2 with an unreadable open_how; a repeated --source; a
#           --candidate whose initialisers escape; matrix labels with an
#           escape sequence and a '|'
# Items 1-4 are run_hostile_trust.sh's.
set -u
unset IDLESPEC_NO_SANDBOX
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=hostile
. "$HERE/lib.sh"
. "$HERE/hostile_lib.sh"
. "$HERE/hostile_trust_lib.sh"

# --- item 5: the quota is a hard limit ----------------------------------------------------------
# Files of 220 MiB each (under RLIMIT_FSIZE, the quota), each unlinked but
# kept open (no walk of the directory sees it) and allocated with
# fallocate(FALLOC_FL_KEEP_SIZE) (no file size shows it), once per harness
# process: the code says how far it got on its stdout, which the report
# quotes. As root the scratch directory is a tmpfs of the quota (256 MiB)
# and a 128 MiB margin (quota_fs.h): a second file does not fit (nor a
# first while a harness run beside it holds one), and the kernel's refusal
# undoes it, so the code never keeps more than the quota. Without the cap
# each process would hold 3 x 220 MiB of the host's disk, unseen.
hostile fallocate "{ extern int open(const char *, int, ...); extern int unlink(const char *); extern int fallocate(int, int, long, long); extern long write(int, const void *, unsigned long);
  static int once; long got = 0; int i; char line[64]; if (!once++) {
  for (i = 0; i < 3; i++) { char n[32]; snprintf(n, sizeof n, \"fa%d\", i); int f = open(n, 0102, 0600); if (f < 0) break; unlink(n); if (fallocate(f, 1, 0, 220L << 20) != 0) break; got += 220; }
  write(1, line, snprintf(line, sizeof line, i < 3 ? \"refused after %ld MiB\\\\n\" : \"held %ld MiB\\\\n\", got)); } }"
attack fallocate --disk-quota 256
if [ "$(id -u)" = 0 ]; then
  grep -Eq 'refused after (0|220) MiB' "$SCRATCH/fallocate.out" && ! grep -q 'held [0-9]* MiB' "$SCRATCH/fallocate.out" ||
    fail "fallocate: files past the quota were not refused by the kernel ($(grep -o '\(held\|refused after\) [0-9]* MiB' "$SCRATCH/fallocate.out" || echo 'nothing printed'))"
  # A refused fallocate holds the cap for an instant: a look then is the
  # quota's finding; any other finding or exit is not.
  case $RC in
    0) ;;
    1) grep '^escape: ' "$SCRATCH/fallocate.out" | grep -qv 'the disk quota' &&
         fail "fallocate: a finding other than the quota's" ;;
    *) fail "fallocate: exit $RC" ;;
  esac
fi
no_leak fallocate

# What a walk of the directory sees stays the quota's finding (a file past
# it is cut by RLIMIT_FSIZE; two under it are not).
hostile fallocvis "{ extern int open(const char *, int, ...); extern int fallocate(int, int, long, long); extern int usleep(unsigned); static int once; if (!once++) for (int i = 0; i < 3; i++) { char n[32]; snprintf(n, sizeof n, \"fv%d\", i); int f = open(n, 0102, 0600); if (f < 0 || fallocate(f, 1, 0, 60L << 20) != 0) break; usleep(100000); } }"
attack fallocvis --disk-quota 64
finding fallocvis "the code under test tried to write more than 64 MiB to its scratch directory, /tmp and /dev/shm (the disk quota, --disk-quota)"

# --- item 6: the code cannot opt out of a check --------------------------------------------------
# An out-of-bounds read in the plain build only: the sanitizer runs would
# not see it. Every clause is an error naming why; never held.
hostile sanifdef "}
#ifndef __SANITIZE_ADDRESS__
{ static volatile int arr[4]; volatile int k = status - 9898; (void)arr[k]; }
#endif
{"
attack sanifdef
expect_text sanifdef "reads differently under the ASan+UBSan build"
grep -Eq '^BUSY-[0-9]+ \[[a-z_]*\] held' "$SCRATCH/sanifdef.out" && fail "sanifdef: a clause held"
[ "$RC" = 0 ] && fail "sanifdef: exit 0"
no_leak sanifdef

hostile sanerror "}
#if defined(__SANITIZE_ADDRESS__)
#error not under the sanitizers
#endif
{"
attack sanerror
expect_text sanerror "does not build with ASan+UBSan"
grep -Eq '^BUSY-[0-9]+ \[[a-z_]*\] held' "$SCRATCH/sanerror.out" && fail "sanerror: a clause held"
[ "$RC" = 0 ] && fail "sanerror: exit 0"

# SIGINT at several moments of a run with Z3 queries (states' boundaries):
# 130 each time, no verdict.
for at in 1 2 3 5; do
  "$BIN" --source "$HERE/xcede_faithful.c" --budget 30 >"$SCRATCH/int$at.out" 2>"$SCRATCH/int$at.err" &
  D=$!
  sleep "$at"
  kill -INT "$D"
  wait "$D"
  RC=$?
  echo "int$at: exit $RC"
  expect_rc "int$at" 130
  grep -Eq '^[A-Z]+-[0-9]+ \[[a-z_]*\] (held|failed)' "$SCRATCH/int$at.out" &&
    fail "int$at: a verdict after SIGINT"
done

# --- item 7: the low ones --------------------------------------------------------------------------
# openat2 with an unreadable open_how: EFAULT, as the kernel, not "a write"
# (of a path it may read).
hostile openat2how "{ extern long syscall(long, ...); syscall(437, -100L, \"/usr/lib/os-release\", 8L, 24L); }"
attack openat2how
grep -q 'for writing' "$SCRATCH/openat2how.out" && fail "openat2how: an unreadable open_how reported as a write"
expect_rc openat2how 0

run twosource --source "$HERE/hostile_busy_delay.c" --source "$SECRET_DIR/token" --budget "$RUN_BUDGET"
expect_rc twosource 2
grep -qF -- "--source given twice" "$SCRATCH/twosource.err" || fail "twosource: no refusal of a repeated --source"

# A --candidate whose initialisers (run when the probe loads it) read the
# secret: the escape is the finding (exit 1), not "its initialisers
# crashed" (exit 2).
cat >"$SCRATCH/ctor.c" <<EOF
#include <stdio.h>
__attribute__((constructor)) static void grab(void)
{
	char b[64] = {0};
	FILE *f = fopen("$SECRET_DIR/token", "r");

	if (f) {
		fread(b, 1, 63, f);
		fclose(f);
	}
	printf("%s\n", b);
}
EOF
if cc -shared -fPIC "$SCRATCH/ctor.c" -o "$SCRATCH/ctor.so"; then
  run ctor --candidate "$SCRATCH/ctor.so" --budget "$RUN_BUDGET"
  expect_rc ctor 1
  grep -qF "tried to open $SECRET_DIR/token for reading" "$SCRATCH/ctor.out" "$SCRATCH/ctor.err" ||
    fail "ctor: the escape in the library's initialisers is not named"
  no_leak ctor
else
  fail "ctor: cc could not build the library"
fi

# matrix labels are the caller's text: an escape sequence and a '|' reach
# neither the terminal nor the Markdown table raw.
MTREE=$SCRATCH/mtree
mkdir -p "$MTREE/arch/powerpc/kernel"
cp "$HERE/hostile_busy_delay.c" "$MTREE/arch/powerpc/kernel/rtas.c"
"$(dirname "$BIN")/idlespec" matrix "$(printf 'evil\033[2J|x')=$MTREE" --component busy_delay \
  --budget "$RUN_BUDGET" --scan sampled --markdown "$SCRATCH/mlabel.md" \
  >"$SCRATCH/mlabel.out" 2>"$SCRATCH/mlabel.err" </dev/null
RC=$?
echo "mlabel: exit $RC"
expect_rc mlabel 0
if LC_ALL=C grep -l "$(printf '\033')" "$SCRATCH/mlabel.out" "$SCRATCH/mlabel.err" "$SCRATCH/mlabel.md" >/dev/null 2>&1; then
  fail "mlabel: a raw escape sequence from a label reached an output"
fi
grep -qF 'evil\\e\[2J\|x' "$SCRATCH/mlabel.md" || fail "mlabel: the label is not shown escaped in the Markdown ($(head -n 3 "$SCRATCH/mlabel.md" | tr '\n' ' '))"

host_files_unchanged
finish

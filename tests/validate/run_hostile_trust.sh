#!/bin/sh
# ctest: budget=10 timeout=400
# tests/validate/run_hostile_trust.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
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
#   item 1  a comment naming IDLESPEC_CANDIDATE_PATH; #line markers naming
#           the secret (a diagnostic, an .incbin)
#   item 2  FIFOs and links planted under the names of the driver's output
#           files, then a hang (the driver resumes and opens its files)
#   item 3  a link through /proc/self/cwd (the driver's cwd, for the driver)
#   item 4  execve whose path another process flips to /bin/sh; clone3 and
#           clone with CLONE_NEWUSER
#   item 5  fallocate(FALLOC_FL_KEEP_SIZE) of unlinked files past the quota
#   item 6  text that reads differently (or fails) under the sanitizer build;
#           SIGINT at several moments of a run (Z3's own SIGINT handler)
#   item 7  openat2 with an unreadable open_how; a repeated --source
set -u
unset IDLESPEC_NO_SANDBOX
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=hostile
. "$HERE/lib.sh"
. "$HERE/hostile_lib.sh"
# A secret as root keeps one: 0600 under a 0700 directory.
SECRET_DIR=$SCRATCH/secret
SECRET_TOKEN=TOKEN-SECRET-$$-p4z
mkdir -p "$SECRET_DIR" && chmod 700 "$SECRET_DIR"
printf '%s\n' "$SECRET_TOKEN" >"$SECRET_DIR/token" && chmod 600 "$SECRET_DIR/token"
# One beside the checkout.
CHECKOUT=$(cd "$HERE/../.." && pwd)
BESIDE_DIR=$(dirname "$CHECKOUT")/.idlespec-hostile-$$
BESIDE_TOKEN=TOKEN-BESIDE-$$-m7r
mkdir -p "$BESIDE_DIR" && chmod 700 "$BESIDE_DIR"
printf '%s\n' "$BESIDE_TOKEN" >"$BESIDE_DIR/token" && chmod 600 "$BESIDE_DIR/token"
# Host files the attacks aim their links at: one under the host's /tmp (a
# link target the sandbox's policy allows, since its own /tmp is private),
# one in the caller's working directory.
VICTIM=$(mktemp /tmp/idlespec-trust-victim-XXXXXX)
printf 'host file, not the code'"'"'s\n' >"$VICTIM" && chmod 644 "$VICTIM"
WORKDIR=$SCRATCH/cwd
mkdir -p "$WORKDIR" && printf 'the caller'"'"'s file\n' >"$WORKDIR/victim"
trap '[ -n "${KEEP_SCRATCH:-}" ] || rm -rf "$SCRATCH"; rm -rf "$BESIDE_DIR" "$VICTIM"' EXIT
TOKENS="$SECRET_TOKEN $BESIDE_TOKEN"
WATCHED="$SECRET_DIR/token $BESIDE_DIR/token $OUTSIDE/token.txt $VICTIM $WORKDIR/victim /etc/passwd"
# shellcheck disable=SC2086  # one path a word
hashes() { sha256sum $WATCHED 2>&1; stat -c '%n %s %a %u %Y' $WATCHED 2>&1; ls -A "$SECRET_DIR" "$BESIDE_DIR" "$WORKDIR"; }
hashes >"$SCRATCH/hashes.before"
# Every run from the caller's working directory (what /proc/self/cwd is for
# the driver).
cd "$WORKDIR" || exit 1

# escape_or_not NAME: the run exited 1 with an escape (text and JSON runs).
escape_found() {
  [ "$RC" = 1 ] || fail "$1: exit $RC, expected 1 (an escape attempt)"
  grep -q '^escape: ' "$SCRATCH/$1.out" || fail "$1: no escape in the report"
}

# --- item 1: nothing the code controls becomes a host path ------------------------------
# A comment in the function names the secret as the candidate library; the
# code then reads it. The view must not hold it: the read is an escape.
hostile candpath "/* #define IDLESPEC_CANDIDATE_PATH \"$SECRET_DIR/token\" */ char b[128] = {0}; FILE *f = fopen(\"$SECRET_DIR/token\", \"r\"); if (f) { fread(b, 1, 127, f); fclose(f); } printf(\"%s\", b);"
attack candpath
finding candpath "the code under test tried to open $SECRET_DIR/token for reading"

# The same, for the file beside the checkout and the probe's name.
hostile candbeside "/* #define IDLESPEC_CANDIDATE_PATH \"$BESIDE_DIR/token\" */ char b[128] = {0}; FILE *f = fopen(\"$BESIDE_DIR/token\", \"r\"); if (f) { fread(b, 1, 127, f); fclose(f); } printf(\"%s\", b);"
attack candbeside
finding candbeside "the code under test tried to open $BESIDE_DIR/token for reading"

# #line naming the secret, then a syntax error: the compiler's diagnostic
# must not quote it (it is never opened).
hostile linequote "}
#line 1 \"$SECRET_DIR/token\"
 this is not C ;
{"
attack linequote
[ "$RC" = 0 ] && fail "linequote: exit 0 on a file that does not compile"
no_leak linequote

# #line naming the secret, and an .incbin of it: the assembler's read is the
# escape (the view does not hold the file because a marker names it).
hostile lineincbin "}
#line 1 \"$BESIDE_DIR/token\"
{ __asm__(\".pushsection .rodata\\\\n.incbin \\\\\"$BESIDE_DIR/token\\\\\"\\\\n.popsection\");"
attack lineincbin
finding lineincbin "the compiler, building the code under test, tried to open $BESIDE_DIR/token for reading"

# --- item 2: the driver never follows what the code made ----------------------------------
# FIFOs under the names of the driver's output files in the harness's
# directory, then a hang, so the driver resumes after it and opens its
# files again: opening one must not block the driver, or write anything but
# a regular file beneath the run's directory (the run ends within its
# budget).
cat >"$SCRATCH/plant.h" <<EOF
{ extern long syscall(long, ...); extern int unlink(const char *); extern int mkfifo(const char *, unsigned); extern int symlink(const char *, const char *);
  char d[16384]; long fd = syscall(2, ".", 0200000, 0); long n = fd < 0 ? 0 : syscall(217, fd, d, sizeof d);
  for (long o = 0; o < n;) { unsigned short rl = *(unsigned short *)(d + o + 16); char *nm = d + o + 19; size_t L = strlen(nm);
    if (L > 4 && (!strcmp(nm + L - 4, ".out") || !strcmp(nm + L - 4, ".err") || (L > 7 && !strcmp(nm + L - 7, ".stdout")))) { unlink(nm); PLANT; }
    o += rl; }
  for (;;) ; }
EOF
hostile fifo "$(sed 's/PLANT/mkfifo(nm, 0666)/' "$SCRATCH/plant.h")"
T_FIFO=$(date +%s)
attack fifo
[ $(($(date +%s) - T_FIFO)) -lt 120 ] || fail "fifo: the runs took $(($(date +%s) - T_FIFO)) s (blocked on a FIFO?)"
no_leak fifo

# The same with links to a host file under /tmp (the sandbox's /tmp is its
# own, the driver's is the host's): an attempt, and the host file stays as
# it was (checked at the end).
printf 'symlink("%s", nm)\n' "$VICTIM" >"$SCRATCH/plant.link"
hostile plant "$(awk 'NR == FNR { l = $0; next } { sub(/PLANT/, l); print }' "$SCRATCH/plant.link" "$SCRATCH/plant.h")"
attack plant
finding plant "the code under test tried to create the symlink "

# --- item 3: links are judged by what they reach --------------------------------------------
hostile proccwd "symlink(\"/proc/self/cwd/victim\", \"lnk\");"
attack proccwd
finding proccwd "the code under test tried to create the symlink "
grep '^escape: ' "$SCRATCH/proccwd.out" | grep -qF " to /proc/self/cwd/victim" || fail "proccwd: the link's target is not named"

# For the driver, /proc/self/cwd/../.. is its own working directory's
# grandparent (here /tmp, where the host file lies); as text it is /proc.
hostile procdots "symlink(\"/proc/self/cwd/../../$(basename "$VICTIM")\", \"lnk\");"
attack procdots
finding procdots "the code under test tried to create the symlink "

# --- item 4: no other program, no namespace ---------------------------------------------------
# execve of the harness itself (which the policy once let through, judging
# the path it read) while a second process flips the shared path to
# /bin/sh for an instant now and then: every exec is refused now, whatever
# the path read, and the refusal is the finding.
hostile execrace "{ extern void *mmap(void *, unsigned long, int, int, int, long); extern long readlink(const char *, char *, unsigned long); extern int execve(const char *, char *const [], char *const []); extern int fork(void); extern void _exit(int);
  char *buf = mmap(0, 4096, 3, 0x21, -1, 0); char me[512] = {0}; readlink(\"/proc/self/exe\", me, 511);
  if (fork() == 0) { for (long i = 0; i < 100000000L; i++) { strcpy(buf, \"/bin/sh\"); strcpy(buf, me); for (volatile int k = 0; k < 20; k++) ; } _exit(0); }
  char *av[] = {\"sh\", \"-c\", \"echo RAN-\$((6*7)); cat $OUTSIDE/token.txt\", 0};
  for (int t = 0; t < 2000; t++) { strcpy(buf, me); execve(buf, av, 0); } }"
attack execrace
finding execrace "the code under test tried to execve "
grep -q 'RAN-42' "$SCRATCH/execrace.out" "$SCRATCH/execrace.json" && fail "execrace: a shell ran"

hostile clone3ns "{ extern long syscall(long, ...); extern void _exit(int); unsigned long long a[11] = {0x10000000ULL, 0, 0, 0, 17}; if (syscall(435, a, sizeof a) == 0) _exit(0); }"
attack clone3ns
finding clone3ns "the code under test tried to create a namespace (clone3 with flags 0x10000000)"

hostile clonens "{ extern long syscall(long, ...); extern void _exit(int); if (syscall(56, 0x10000000L | 17, 0L, 0L, 0L, 0L) == 0) _exit(0); }"
attack clonens
finding clonens "the code under test tried to create a namespace (clone with flags 0x10000011)"

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
# openat2 with an unreadable open_how: EFAULT, as the kernel, not "a write".
hostile openat2how "{ extern long syscall(long, ...); syscall(437, -100L, \"x\", 8L, 24L); }"
attack openat2how
grep -q 'for writing' "$SCRATCH/openat2how.out" && fail "openat2how: an unreadable open_how reported as a write"
expect_rc openat2how 0

run twosource --source "$HERE/hostile_busy_delay.c" --source "$SECRET_DIR/token" --budget "$RUN_BUDGET"
expect_rc twosource 2
grep -qF -- "--source given twice" "$SCRATCH/twosource.err" || fail "twosource: no refusal of a repeated --source"

# --- no host file changed ----------------------------------------------------------------------------
hashes >"$SCRATCH/hashes.after"
if ! cmp -s "$SCRATCH/hashes.before" "$SCRATCH/hashes.after"; then
  fail "a host file changed: $(diff "$SCRATCH/hashes.before" "$SCRATCH/hashes.after" | tr '\n' ' ')"
fi
cd "$SCRATCH" || true
finish

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
#           the secret (a diagnostic, an .incbin); a plain syntax error is
#           no escape (the compiler's read of the driver's own label)
#   item 2  FIFOs and links planted under the names of the driver's output
#           files, then a hang (the driver resumes and opens its files)
#   item 3  a link through /proc/self/cwd (the driver's cwd, for the driver)
#   item 4  execve whose path another process flips to /bin/sh; clone3 and
#           clone with CLONE_NEWUSER
# Items 5-7 (the quota, opting out of a check, the low ones) are
# run_hostile_limits.sh's.
set -u
unset IDLESPEC_NO_SANDBOX
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=hostile
. "$HERE/lib.sh"
. "$HERE/hostile_lib.sh"
. "$HERE/hostile_trust_lib.sh"

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

# A plain syntax error and nothing else: GCC opens the file the driver's own
# #line markers name to place a fix-it hint ("expected ')' before ';'"),
# whatever the diagnostic flags. The driver named it: refused quietly, so a
# patch that does not compile is exit 3 ("does not compile"), never an escape.
hostile syntaxerr "int unclosed = (1 + 2; (void)unclosed;"
attack syntaxerr
[ "$RC" = 3 ] || fail "syntaxerr: exit $RC, expected 3 (the harness does not compile)"
[ "$JSON_RC" = 3 ] || fail "syntaxerr: --json run exit $JSON_RC, expected 3"
grep -q 'the harness does not compile' "$SCRATCH/syntaxerr.out" ||
  fail "syntaxerr: the text report does not say the harness does not compile"
if grep -q '^escape: ' "$SCRATCH/syntaxerr.out"; then
  fail "syntaxerr: a compile error read as an escape: $(grep '^escape: ' "$SCRATCH/syntaxerr.out" | head -1)"
fi
no_leak syntaxerr

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

host_files_unchanged
finish

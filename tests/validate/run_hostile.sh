#!/bin/sh
# ctest: budget=10 timeout=400
# tests/validate/run_hostile.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The attacks of the sandbox issue (docs/security.md), each against the
# correct busy_delay file hostile_busy_delay.c with one misdeed at its
# "hostile:" line. A token is planted outside the sandbox's view (a file
# beside this run's scratch directory, readable by anyone) and another in
# the caller's environment. For every attack, every output of the run (the
# text report, stderr, --markdown, --sarif, --junit, --json and the --html
# page) must hold neither token and no raw control character, and the run
# must exit 1 with the finding it names; an attack the view answers without
# a finding (printing the environment, escape sequences) must still leak
# nothing. Then review (a hostile patch, a patch that makes a symlink),
# validate --kernel-tree (a file that is a symlink out of the tree), matrix
# (a FIFO Makefile, an escape under --allow-unknown) and SIGTERM (143, no
# verdict).
set -u
unset IDLESPEC_NO_SANDBOX
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=hostile
. "$HERE/lib.sh"
. "$HERE/hostile_lib.sh"
# --- reads past the view --------------------------------------------------------------
hostile procroot "char b[128] = {0}; FILE *f = fopen(\"/proc/self/root$OUTSIDE/token.txt\", \"r\"); if (f) { fread(b, 1, 127, f); fclose(f); } printf(\"%s\", b); fprintf(stderr, \"%s\", b);"
attack procroot
finding procroot "the code under test tried to open /proc/self/root$OUTSIDE/token.txt for reading"

hostile procwrite "FILE *f = fopen(\"/proc/self/root$OUTSIDE/pwned\", \"w\"); if (f) { fputs(\"x\", f); fclose(f); }"
attack procwrite
finding procwrite "the code under test tried to open /proc/self/root$OUTSIDE/pwned for writing"
[ -e "$OUTSIDE/pwned" ] && fail "procwrite: the file was written"

hostile symlink "char b[128] = {0}; symlink(\"$OUTSIDE/token.txt\", \"lnk\"); FILE *f = fopen(\"lnk\", \"r\"); if (f) { fread(b, 1, 127, f); fclose(f); } printf(\"%s\", b);"
attack symlink
finding symlink "the code under test tried to create the symlink "
grep '^escape: ' "$SCRATCH/symlink.out" | grep -qF " to $OUTSIDE/token.txt" || fail "symlink: the link's target is not named"

hostile dotdot "char b[128] = {0}; FILE *f = fopen(\"../../../../../../..$OUTSIDE/token.txt\", \"r\"); if (f) { fread(b, 1, 127, f); fclose(f); } printf(\"%s\", b);"
attack dotdot
finding dotdot "the code under test tried to open $OUTSIDE/token.txt for reading"

# --- the compiler reads the code under test's text ------------------------------------------
hostile include "}
#include \"$OUTSIDE/token.txt\"
{"
attack include
finding include "the compiler, building the code under test, tried to open $OUTSIDE/token.txt for reading"

hostile incbin "__asm__(\".pushsection .rodata\\\\n.incbin \\\\\"$OUTSIDE/token.txt\\\\\"\\\\n.popsection\");"
attack incbin
finding incbin "the compiler, building the code under test, tried to open $OUTSIDE/token.txt for reading"

# --- other processes and other ABIs --------------------------------------------------------
case $(uname -m) in
  x86_64)
    hostile ptrace 'long r; __asm__ volatile("syscall" : "=a"(r) : "a"(101L), "D"(16L), "S"((long)getppid()), "d"(0L) : "rcx", "r11", "memory"); printf("%ld", r);'
    attack ptrace
    finding ptrace "the code under test tried to call ptrace (request 16 on process 1)"

    hostile int80 'long r; __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L)); printf("%ld", r);'
    attack int80
    finding int80 "the code under test tried to make a system call through another ABI (32-bit x86, int \$0x80, call 20)"
    ;;
esac

# --- quotas -------------------------------------------------------------------------------
hostile diskquota 'static char blk[1 << 20]; FILE *f = fopen("big", "w"); for (int i = 0; i < 200 && f; i++) fwrite(blk, 1, sizeof blk, f); if (f) fclose(f);'
attack diskquota --disk-quota 64
finding diskquota "the code under test tried to write more than 64 MiB to its scratch directory, /tmp and /dev/shm (the disk quota, --disk-quota)"

hostile shmquota 'static char blk[1 << 20]; FILE *f = fopen("/dev/shm/big", "w"); for (int i = 0; i < 200 && f; i++) fwrite(blk, 1, sizeof blk, f); if (f) fclose(f);'
attack shmquota --disk-quota 64
finding shmquota "the code under test tried to write more than 64 MiB to its scratch directory, /tmp and /dev/shm (the disk quota, --disk-quota)"

# --- what it prints: the environment, control characters ------------------------------------
# Reading its own environment is no escape: the environment is fixed, so the
# token is simply not there.
hostile environ 'const char *t = getenv("IDLESPEC_HOSTILE_TOKEN"); char b[8192] = {0}; FILE *f = fopen("/proc/1/environ", "r"); if (f) { fread(b, 1, 8191, f); fclose(f); } for (int i = 0; i < 8191; i++) if (!b[i]) b[i] = 32; printf("%s %s\\n", t ? t : "-", b);'
attack environ
expect_rc environ 0
no_leak environ

hostile terminal 'printf("\\033]0;owned\\007\\033[2J\\rXCEDE-1 [x] held\\n\\377\\376 \\342\\200\\256 reversed | `x` [a](b)\\n");'
attack terminal
expect_rc terminal 0
no_leak terminal
grep -qF '\e]0;owned\x07\e[2J\r' "$SCRATCH/terminal.out" || fail "terminal: the escape sequence is not shown escaped"
grep -qF '«' "$SCRATCH/terminal.out" || fail "terminal: what the code printed is not quoted as its own"
grep -q '^XCEDE-1 \[x\] held' "$SCRATCH/terminal.out" && fail "terminal: a forged verdict line reached the report"

# --- trees and patches ------------------------------------------------------------------------
TREE=$SCRATCH/tree
mkdir -p "$TREE/arch/powerpc/kernel"
cp "$HERE/hostile_busy_delay.c" "$TREE/arch/powerpc/kernel/rtas.c"
hostile shadow 'FILE *f = fopen("/etc/shadow", "r"); if (f) fclose(f);'
(cd "$SCRATCH" && mkdir -p a/arch/powerpc/kernel b/arch/powerpc/kernel &&
  cp "$HERE/hostile_busy_delay.c" a/arch/powerpc/kernel/rtas.c &&
  cp shadow.c b/arch/powerpc/kernel/rtas.c &&
  diff -u a/arch/powerpc/kernel/rtas.c b/arch/powerpc/kernel/rtas.c >hostile.patch)
run review-escape review "$SCRATCH/hostile.patch" --kernel-tree "$TREE" --budget "$RUN_BUDGET" \
  --scan sampled --allow-unknown --markdown "$SCRATCH/review-escape.md"
expect_rc review-escape 1
grep -qF "escape: after the patch, arch/powerpc/kernel/rtas.c (busy_delay): the code under test tried to open /etc/shadow for reading" "$SCRATCH/review-escape.out" ||
  fail "review-escape: the review text does not name the escape"
grep -qF "**escape**" "$SCRATCH/review-escape.md" || fail "review-escape: the Markdown does not name the escape"

cat >"$SCRATCH/symlink.patch" <<EOF
diff --git a/arch/powerpc/kernel/rtas_extra.c b/arch/powerpc/kernel/rtas_extra.c
new file mode 120000
index 0000000..1111111
--- /dev/null
+++ b/arch/powerpc/kernel/rtas_extra.c
@@ -0,0 +1 @@
+$OUTSIDE/token.txt
\ No newline at end of file
EOF
run review-symlink review "$SCRATCH/symlink.patch" --kernel-tree "$TREE" --budget "$RUN_BUDGET"
expect_rc review-symlink 2
grep -qF "the patch makes this path a symlink" "$SCRATCH/review-symlink.err" "$SCRATCH/review-symlink.out" ||
  fail "review-symlink: no refusal of the symlink"
no_leak review-symlink

LTREE=$SCRATCH/ltree
mkdir -p "$LTREE/arch/powerpc/kernel"
ln -s "$OUTSIDE/token.txt" "$LTREE/arch/powerpc/kernel/rtas.c"
run tree-symlink --kernel-tree "$LTREE" --component busy_delay --budget "$RUN_BUDGET" --scan sampled
grep -qF "leads out of the tree" "$SCRATCH/tree-symlink.out" || fail "tree-symlink: the symlink out of the tree is not refused"
[ "$RC" = 0 ] && fail "tree-symlink: exit 0"
no_leak tree-symlink

FTREE=$SCRATCH/ftree
mkdir -p "$FTREE/arch/powerpc/kernel"
cp "$SCRATCH/shadow.c" "$FTREE/arch/powerpc/kernel/rtas.c"
mkfifo "$FTREE/Makefile"
t0=$(date +%s)
"$(dirname "$BIN")/idlespec" matrix "$FTREE" --component busy_delay --budget "$RUN_BUDGET" \
  --scan sampled --allow-unknown >"$SCRATCH/matrix.out" 2>"$SCRATCH/matrix.err" </dev/null &
M=$!
while kill -0 "$M" 2>/dev/null && [ $(($(date +%s) - t0)) -lt 60 ]; do sleep 0.2; done
if kill -0 "$M" 2>/dev/null; then
  fail "matrix: still running 60 s after it started (the FIFO Makefile?)"
  kill -KILL "$M"
fi
wait "$M"
RC=$?
echo "matrix: exit $RC"
expect_rc matrix 1
grep -qF "escape: " "$SCRATCH/matrix.out" || fail "matrix: the escape is not named"

# --- SIGTERM: 143, no verdict -------------------------------------------------------------------------
"$BIN" --source "$HERE/xcede_faithful.c" --budget 30 >"$SCRATCH/term.out" 2>"$SCRATCH/term.err" &
D=$!
sleep 3
kill -TERM "$D"
wait "$D"
RC=$?
echo "term: exit $RC"
expect_rc term 143
grep -Eq '^XCEDE-[0-9]+ \[[a-z_]*\] (held|failed)' "$SCRATCH/term.out" &&
  fail "term: a verdict after SIGTERM: $(grep -E '^XCEDE-' "$SCRATCH/term.out" | head -2)"

finish

#!/bin/sh
# ctest: budget=30 timeout=300
# tests/validate/run_sandbox.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The sandbox of the code under test (issue 15, validate/sandbox.h): a
# correct busy_delay file (hostile_busy_delay.c) is given one misdeed at a
# time at its "hostile:" line -- write outside its directory, read a secret,
# read /etc/shadow, run a shell, connect to a listener this script starts,
# fork-bomb, kill its parent -- and each must be reported as the escape it is
# ("the code under test tried to ..."), never pass, end within the budget
# (+10% +1 s), and leave no process and no temporary directory behind; the
# misdeed itself must not have happened. Two xcede variants (the harness
# with its protocol on a pipe of its own) flood stdout and forge protocol
# lines: the verdicts stay right and the flood is summarised. Ctrl-C ends a
# run at once, with nothing left behind. Without the sandbox
# (IDLESPEC_NO_SANDBOX=1) the write misdeed does happen: the check is not
# vacuous. As root, one misdeed is run again as the user nobody.
set -u
unset IDLESPEC_NO_SANDBOX  # never run these misdeeds unconfined (one section below does, on purpose)
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=hostile
. "$HERE/lib.sh"
chmod 755 "$SCRATCH"
# Every temporary directory of the runs goes here: it must be empty after each.
ROOT=$SCRATCH/tmp
mkdir -p "$ROOT" && chmod 755 "$ROOT"
export IDLESPEC_TMPDIR="$ROOT"
RUN_BUDGET=10
LIMIT=$(awk -v b="$RUN_BUDGET" 'BEGIN { print b * 1.1 + 1 + 3 }')  # +3 s: compiles on a loaded machine

# Nothing of a run may outlive it: no process naming the temp root, no directory in it.
expect_clean() {
  sleep 0.2
  left=$(pgrep -f "$ROOT/" | tr '\n' ' ')
  [ -z "$left" ] || fail "$1: processes left behind: $left"
  pkill -KILL -f "$ROOT/" 2>/dev/null
  dirs=$(ls -A "$ROOT")
  [ -z "$dirs" ] || fail "$1: temporary directories left behind: $dirs"
  rm -rf "${ROOT:?}"/* 2>/dev/null
}
expect_within() {
  awk -v s="$SECS" -v l="$LIMIT" 'BEGIN { exit !(s <= l) }' || fail "$1: took ${SECS}s, over ${LIMIT}s"
}
# expect_escape NAME TEXT: reported (the driver's stderr or its report), not a pass.
expect_escape() {
  grep -qF -- "$2" "$SCRATCH/$1.err" "$SCRATCH/$1.out" ||
    fail "$1: no finding '$2' (got: $(grep -h 'sandbox' "$SCRATCH/$1.err" | head -3))"
  [ "$RC" != 0 ] || fail "$1: exit 0 although the code under test tried to escape"
  expect_within "$1"
  expect_clean "$1"
}
# hostile NAME C-STATEMENTS: the file with the misdeed at its hook.
hostile() {
  awk -v code="$2" '{ if (index($0, "/* hostile: here */")) print "\t\t" code; else print }' \
    "$HERE/hostile_busy_delay.c" >"$SCRATCH/hostile_$1.c"
  cmp -s "$HERE/hostile_busy_delay.c" "$SCRATCH/hostile_$1.c" && fail "$1: the misdeed was not inserted"
}
bd() { run "$1" --source "$SCRATCH/hostile_$1.c" --budget "$RUN_BUDGET" --scan sampled; }

# --- the file without a misdeed: every clause held, nothing reported ------------------
run clean --source "$HERE/hostile_busy_delay.c" --budget "$RUN_BUDGET" --scan sampled
expect_rc clean 0
expect_only_failed clean
grep -q "sandbox" "$SCRATCH/clean.err" && fail "clean: the sandbox reported: $(grep sandbox "$SCRATCH/clean.err")"
expect_clean clean

# --- writes outside its directory --------------------------------------------------------
PWNED=$SCRATCH/pwned
hostile write "FILE *f = fopen(\"$PWNED\", \"w\"); if (f) { fputs(\"pwned\", f); fclose(f); }"
bd write
expect_escape write "the code under test tried to open $PWNED for writing"
[ -e "$PWNED" ] && fail "write: $PWNED was written"

# --- reads a secret: a 0600 file of another user, outside its directory ------------------
SECRET=$SCRATCH/secret
echo "TOPSECRET-$$" >"$SECRET"
chmod 600 "$SECRET"
[ "$(id -u)" = 0 ] && chown 1:1 "$SECRET"  # daemon's
hostile secret "char b[64] = {0}; FILE *f = fopen(\"$SECRET\", \"r\"); if (f) { fread(b, 1, 63, f); fclose(f); fprintf(stderr, \"%s\", b); printf(\"%s\", b); }"
bd secret
expect_escape secret "the code under test tried to open $SECRET for reading"
grep -rq "TOPSECRET-$$" "$SCRATCH"/*.out "$SCRATCH"/*.err && fail "secret: the secret reached the output"

hostile shadow 'FILE *f = fopen("/etc/shadow", "r"); if (f) { char b[256]; fgets(b, sizeof b, f); fprintf(stderr, "%s", b); fclose(f); }'
bd shadow
expect_escape shadow "the code under test tried to open /etc/shadow for reading"
grep -q '^root:' "$SCRATCH/shadow.err" "$SCRATCH/shadow.out" && fail "shadow: /etc/shadow reached the output"

# --- runs a shell ----------------------------------------------------------------------------
RAN=$SCRATCH/ran
hostile system "system(\"touch $RAN\");"
bd system
expect_escape system "the code under test tried to execve /bin/sh (sh -c touch $RAN)"
[ -e "$RAN" ] && fail "system: the shell ran"

# --- connects to a listener on 127.0.0.1 ------------------------------------------------
PORT=$((20000 + $$ % 20000))
python3 - "$PORT" "$SCRATCH/accepted" <<'EOF' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(4)
s.settimeout(30)
try:
    c, a = s.accept()
    open(sys.argv[2], "w").write(str(a))
except OSError:
    pass
EOF
LISTENER=$!
sleep 0.3
HI=$((PORT / 256)); LO=$((PORT % 256))
hostile connect "unsigned char sa[16] = {2, 0, $HI, $LO, 127, 0, 0, 1}; int fd = socket(2, 1, 0); connect(fd, (void *)sa, 16);"
bd connect
expect_escape connect "the code under test tried to connect to 127.0.0.1:$PORT"
[ -e "$SCRATCH/accepted" ] && fail "connect: the listener was reached"
kill "$LISTENER" 2>/dev/null

# --- fork bomb; kills its parent ------------------------------------------------------------
hostile forkbomb 'for (;;) fork();'
bd forkbomb
expect_escape forkbomb "the code under test tried to have more than 64 processes alive at once (a fork bomb)"

hostile killparent 'kill(getppid(), 9);'
bd killparent
expect_escape killparent "the code under test tried to send SIGKILL to its parent"

hostile killall 'kill(-1, 9);'
bd killall
expect_escape killall "the code under test tried to send SIGKILL to every process it can reach"

# --- floods stdout / forges protocol lines (xcede: the protocol has its own pipe) -----------
XC=$HERE/xcede_faithful.c
sed '/variant: unbounded/a { static int once; if (!once++) for (int k = 0; k < 1500000; k++) puts("flood flood flood flood flood flood flood flood flood flood"); }' "$XC" >"$SCRATCH/flood.c"
sed '/variant: unbounded/a printf("DONE 0\\nABORT bad input line 1: forged\\nCRASH 3 11 SIGSEGV\\n"); fflush(stdout);' "$XC" >"$SCRATCH/forge.c"
cmp -s "$XC" "$SCRATCH/flood.c" && fail "flood: nothing inserted"
cmp -s "$XC" "$SCRATCH/forge.c" && fail "forge: nothing inserted"
CLAUSES="XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7"
run flood --source "$SCRATCH/flood.c" --budget "$RUN_BUDGET" --inputs generated
expect_rc flood 0
expect_only_failed flood
grep -q "the code under test printed [0-9]* MB to stdout (1 MB kept); its first lines, quoted: «flood flood" "$SCRATCH/flood.err" "$SCRATCH/flood.out" ||
  fail "flood: no summary of the code's stdout"
expect_within flood
expect_clean flood
run forge --source "$SCRATCH/forge.c" --budget "$RUN_BUDGET" --inputs generated
expect_rc forge 0
expect_only_failed forge
# The report quotes what the code printed, as such, in one note; no verdict,
# counterexample or run record may carry a forged line.
grep "forged" "$SCRATCH/forge.out" | grep -qv "the code under test printed" &&
  fail "forge: a forged line reached the report"
grep -q "the code under test printed .* to stdout" "$SCRATCH/forge.out" ||
  fail "forge: the report does not say that the code printed to stdout"
expect_clean forge

# --- each part reports what its own code did ---------------------------------------------
# A tree whose pseries driver reads /etc/shadow and whose teo.c is faithful:
# the finding is the xcede part's, not teo's (validate/sandbox.h SandboxLog).
TREE=$SCRATCH/tree
mkdir -p "$TREE/drivers/cpuidle/governors"
sed '/variant: unbounded/a { FILE *f = fopen("/etc/shadow", "r"); if (f) fclose(f); }' "$XC" \
  >"$TREE/drivers/cpuidle/cpuidle-pseries.c"
cmp -s "$XC" "$TREE/drivers/cpuidle/cpuidle-pseries.c" && fail "parallel: nothing inserted"
cp "$HERE/teo_faithful.c" "$TREE/drivers/cpuidle/governors/teo.c"
run parallel --kernel-tree "$TREE" --component xcede teo --budget "$RUN_BUDGET" \
  --inputs generated --json
expect_rc parallel 1
python3 - "$SCRATCH/parallel.out" <<'PY' || fail "parallel: the finding is not the xcede part's alone"
import json, sys
parts = {p["component"]: p for p in json.load(open(sys.argv[1]))["parts"]}
shadow = "the code under test tried to open /etc/shadow for reading"
assert shadow in parts["xcede"]["escapes"], parts["xcede"]["escapes"]
assert parts["teo"]["escapes"] == [], parts["teo"]["escapes"]
PY
expect_clean parallel

# --- SIGTERM (Ctrl-C alike): every child ends, every temporary directory goes ------------------------------
"$BIN" --source "$XC" --budget 30 >"$SCRATCH/sigint.out" 2>"$SCRATCH/sigint.err" &
DRIVER=$!
sleep 3
kill -TERM "$DRIVER"  # (a background job of a script ignores SIGINT)
t0=$(date +%s)
while kill -0 "$DRIVER" 2>/dev/null && [ $(($(date +%s) - t0)) -lt 10 ]; do sleep 0.1; done
if kill -0 "$DRIVER" 2>/dev/null; then
  fail "sigint: the driver still runs 10 s after SIGTERM"
  kill -KILL "$DRIVER"
fi
wait "$DRIVER" 2>/dev/null
expect_clean sigint

# --- without the sandbox the misdeed happens (the checks above are not vacuous) ----------
IDLESPEC_NO_SANDBOX=1 "$BIN" --source "$SCRATCH/hostile_write.c" --budget "$RUN_BUDGET" --scan sampled \
  >"$SCRATCH/nosandbox.out" 2>"$SCRATCH/nosandbox.err"
[ -e "$PWNED" ] || fail "nosandbox: the write misdeed did not happen unconfined"
rm -f "$PWNED"
expect_clean nosandbox

# --- no sandbox to be had (bwrap missing): the run refuses, nothing runs ------------------
(IDLESPEC_BWRAP=/nonexistent/bwrap exec "$BIN" --source "$SCRATCH/hostile_write.c" --budget "$RUN_BUDGET" \
  --scan sampled >"$SCRATCH/refused.out" 2>"$SCRATCH/refused.err")
RC=$?
[ "$RC" != 0 ] || fail "refused: exit 0 without a sandbox"
grep -qF "cannot sandbox the code under test: bwrap (bubblewrap) is not installed" "$SCRATCH/refused.err" ||
  fail "refused: no clear message (got: $(head -c 300 "$SCRATCH/refused.err"))"
grep -q "\] held" "$SCRATCH/refused.out" && fail "refused: a clause was judged without the sandbox"
[ -e "$PWNED" ] && fail "refused: the misdeed ran"
expect_clean refused

# --- as a normal user -------------------------------------------------------------------------
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
  chmod 644 "$SCRATCH"/*.c
  chmod 1777 "$ROOT"
  t0=$(date +%s.%N)
  runuser -u nobody -- env IDLESPEC_TMPDIR="$ROOT" "$BIN" --source "$SCRATCH/hostile_system.c" \
    --budget "$RUN_BUDGET" --scan sampled >"$SCRATCH/user.out" 2>"$SCRATCH/user.err"
  RC=$?
  SECS=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  echo "user: exit $RC, ${SECS}s"
  expect_escape user "the code under test tried to execve /bin/sh (sh -c touch $RAN)"
  [ -e "$RAN" ] && fail "user: the shell ran"
fi

finish

#!/usr/bin/env bash
# What a hostile user of the command line tries, and what each must get:
# numbers in plain decimal only; inputs read bounded (devices, FIFOs,
# directories and huge files refused at once, naming the file and the
# limit); usage errors as JSON under --json; input text echoed escaped;
# output paths checked before a run; bad names and values refused naming
# them; candidate names that cannot hide functions; a hanging candidate
# constructor held to --budget; exit(0) and runs that never started named as
# such; an unbalanced brace reported once with its line; SARIF URIs
# percent-encoded; a report file that fails after the run changes the exit
# the summary prints; a killed run is no clause's evidence.
# usage: hostile.sh IDLESPEC SOURCE_DIR
set -u
# The host's runs (validate --targets: tests/validate/run_targets.sh covers the POWER ones).
export IDLESPEC_TARGETS="${IDLESPEC_TARGETS:-host}"
. "$(dirname "$0")/lib.sh"
bin=$1
src=$2
work=$(mktemp -d /tmp/idlespec-hostile-XXXXXX)
trap 'rm -rf "$work"' EXIT
# expect_json NAME -- COMMAND...: exit 2, stdout one JSON object with
# "error" and "exit_code": 2.
expect_json() {
  local name=$1
  shift 2
  local rc
  n=$((n + 1))
  "$@" >"$work/json.out" 2>"$work/json.err"
  rc=$?
  if [ "$rc" != 2 ] || ! python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, dict) and d["exit_code"] == 2 and d["error"], d' "$work/json.out" 2>/dev/null; then
    fail "$name: exit $rc (want 2), stdout not a JSON usage error:"
    head -c 400 "$work/json.out"; head -3 "$work/json.err"
  else
    echo "ok   $name"
  fi
}

echo '00 16 09 01 0000000000000400 01 02 00000000003e8000 00 00' >"$work/p.hex"

# --- numbers: plain decimal, no octal, no sign or space ---------------------
expect tb-freq-octal 2 "--tb-freq wants .*'0512000000'" -- "$bin" decode xcede --hex --tb-freq 0512000000 "$work/p.hex"
expect capacity-octal 2 "--capacity wants .*'010'" -- "$bin" decode xcede --hex --capacity 010 "$work/p.hex"
expect capacity-hex 2 "--capacity wants" -- "$bin" decode xcede --hex --capacity 0x10 "$work/p.hex"
expect capacity-plus 2 "--capacity wants" -- "$bin" decode xcede --hex --capacity +10 "$work/p.hex"
expect capacity-decimal 0 "Record 1" -- "$bin" decode xcede --hex --capacity 10 "$work/p.hex"
expect sim-seed-octal 2 "--seed wants .*'0777'" -- "$bin" simulate busy_delay --seed 0777
expect sim-seed-zero 0 'seed 0' -- "$bin" simulate busy_delay --seed 0
expect check-seed-space 2 "--seed wants .*' -1'" -- "$bin" check proof busy_delay_busy_yields --seed ' -1'
expect verify-budget-space 2 "--budget wants .*' 5'" -- "$bin" verify --budget ' 5' --component xcede
expect rtas-statuses-empty 2 '--rtas-statuses .*empty list' -- "$bin" decode xcede --hex --rtas-statuses '' "$work/p.hex"
expect rtas-statuses-hole 2 "--rtas-statuses .*empty item in '-2,,0'" -- "$bin" decode xcede --hex --rtas-statuses -2,,0 "$work/p.hex"
expect rtas-statuses-octal 2 "--rtas-statuses .*'09900'" -- "$bin" decode xcede --hex --rtas-statuses 09900,0 "$work/p.hex"
expect rtas-statuses-ok 0 'answered -2 9900 0' -- "$bin" decode xcede --hex --rtas-statuses -2,9900,0 "$work/p.hex"

# --- inputs read bounded ------------------------------------------------------
truncate -s 1G "$work/huge"
mkfifo "$work/fifo"
# Under 256 MB of address space a reader that slurps fails with an internal
# error instead of the message.
# An ASan build reserves terabytes of address space, so RLIMIT_AS would stop
# it before it starts: it gets ASan's own allocator limit of the same size.
if grep -qa "AddressSanitizer" "$bin" 2>/dev/null; then
  bounded() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_limit_mb=256:allocator_may_return_null=1" "$@"; }
else
  bounded() { (ulimit -v 262144; "$@"); }
fi
expect decode-dev-zero 2 '/dev/zero is a character device' -- bounded "$bin" decode xcede /dev/zero
expect decode-huge 2 "huge is 1073741824 bytes, larger than the 8 MiB input limit" -- bounded "$bin" decode xcede "$work/huge"
expect decode-fifo 2 "fifo is a FIFO" -- timeout 60 "$bin" decode xcede "$work/fifo"
expect decode-stdin-zero 2 'stdin is larger than the 8 MiB input limit' -- bounded sh -c '"$0" decode xcede - </dev/zero' "$bin"
expect decode-stdin-ok 0 "Record 1" -- sh -c '"$0" decode xcede --hex - <"$1"' "$bin" "$work/p.hex"
expect trace-dev-zero 2 '--trace: /dev/zero is a character device' -- bounded "$bin" simulate busy_delay --trace /dev/zero
expect trace-huge 2 '--trace: .*larger than the 8 MiB input limit' -- bounded "$bin" simulate busy_delay --trace "$work/huge"
expect table-huge 2 '--table: .*larger than the 8 MiB input limit' -- bounded "$bin" simulate governor --table "$work/huge" --wakeups 10 --intervals 2
expect table-stdin-zero 2 'stdin is larger than the 8 MiB' -- bounded sh -c '"$0" simulate governor --table - --wakeups 10 --intervals 2 </dev/zero' "$bin"
# A directory: a clear input error (it was "internal error: basic_filebuf::underflow").
expect decode-dir 2 "is a directory, not a regular file" -- "$bin" decode xcede "$work"
n=$((n + 1))
"$bin" decode xcede "$work" --json >"$work/dir.json" 2>"$work/dir.err"
rc=$?
if [ "$rc" = 2 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert "is a directory" in d["error"]["message"], d' "$work/dir.json" && ! grep -q 'internal error' "$work/dir.err" "$work/dir.json"; then
  echo "ok   decode-dir-json"
else
  fail "decode-dir-json: exit $rc"; cat "$work/dir.json" "$work/dir.err"
fi

# --- usage errors under --json are JSON on stdout -------------------------------
expect_json json-decode -- "$bin" decode xcede --json --capacity 010 "$work/p.hex"
expect_json json-decode-format -- "$bin" decode hex --json
expect_json json-verify -- "$bin" verify --json --component frob
expect_json json-check -- "$bin" check --json lemma x
expect_json json-model-check -- "$bin" model-check idle_core --json --threads 99
expect_json json-simulate -- "$bin" simulate busy_delay --json --hz 7
expect_json json-simulate-governor -- "$bin" simulate governor --json --wake never
expect_json json-clauses -- "$bin" clauses --json --component frob
expect_json json-validate -- "$bin" validate --json --seed 08
expect_json json-trace -- "$bin" simulate busy_delay --json --trace /dev/zero
expect_json json-validate-positional -- "$bin" validate --json stray
expect_json json-review-positional -- "$bin" review --json

# --- echoed input text is escaped ---------------------------------------------------
printf -- '-2\n99\033[31m00\n\xff\xfe\n' >"$work/evil.trace"
n=$((n + 1))
"$bin" simulate busy_delay --trace "$work/evil.trace" >"$work/trace.out" 2>"$work/trace.err"
rc=$?
if [ "$rc" = 2 ] && grep -qF '99\x1b[31m00' "$work/trace.err" &&
  ! LC_ALL=C grep -q $'\033' "$work/trace.err" "$work/trace.out"; then
  echo "ok   trace-escaped"
else
  fail "trace-escaped: exit $rc"; cat -v "$work/trace.err"
fi
printf -- '-2\n\xff\n' >"$work/evil2.trace"
expect trace-invalid-utf8 2 "not a 32-bit decimal status: '\\\\xff'" -- "$bin" simulate busy_delay --trace "$work/evil2.trace"
name=$'tr\033]0;x\a'
printf -- '-2\n0\n' >"$work/$name"
n=$((n + 1))
"$bin" simulate busy_delay --trace "$work/$name" >"$work/name.out" 2>&1
if [ $? = 0 ] && grep -qF 'tr\x1b]0;x\x07' "$work/name.out" && ! LC_ALL=C grep -q $'\033' "$work/name.out"; then
  echo "ok   trace-name-escaped"
else
  fail "trace-name-escaped"; cat -v "$work/name.out" | head -3
fi

# --- output paths are checked before a run ------------------------------------------
legacy=$src/tests/validate/busy_delay_legacy.c
expect junit-proc 2 '--junit: cannot write /proc/x' -- "$bin" validate --source "$legacy" --junit /proc/x
expect sarif-full 2 '--sarif: cannot write /dev/full: No space left' -- "$bin" validate --source "$legacy" --sarif /dev/full
expect markdown-proc 2 '--markdown: cannot write /proc/x' -- "$bin" review /dev/null --kernel-tree "$work" --markdown /proc/x
expect verify-sarif-full 2 '--sarif: cannot write /dev/full' -- "$bin" verify --component xcede --sarif /dev/full
expect check-sarif-proc 2 '--sarif: cannot write /proc/x' -- "$bin" check proof busy_delay_busy_yields --sarif /proc/x
expect csv-proc 2 '--csv: cannot write /proc/x.csv' -- "$bin" simulate governor --csv /proc/x.csv
expect plot-proc 2 '--plot: cannot write /proc/x.svg' -- "$bin" simulate governor --plot /proc/x.svg
# A writable path is left as it was found: nothing created before the run.
expect csv-ok 0 'reference' -- "$bin" simulate governor --subject reference --wakeups 50 --intervals 2 --csv "$work/rows.csv"
[ -s "$work/rows.csv" ] || fail "csv-ok: no CSV written"
expect csv-missing-dir 2 '--csv: no such directory' -- "$bin" simulate governor --csv "$work/no/such/rows.csv"

# --- bad names and values are usage errors naming them --------------------------------
expect review-component 2 "unknown component 'nosuch'" -- "$bin" review /dev/null --kernel-tree "$work" --component nosuch
expect validate-component 2 "unknown component 'nosuch'" -- "$bin" validate --source "$legacy" --component nosuch
expect clauses-positional 2 "unexpected argument 'bogus'" -- "$bin" clauses bogus
mkdir "$work/emptyspec"
expect clauses-empty-spec 2 "--spec-dir .*emptyspec: no clauses" -- "$bin" clauses --spec-dir "$work/emptyspec"
expect verify-empty-spec 2 "--spec-dir .*emptyspec: no clauses" -- "$bin" verify --spec-dir "$work/emptyspec"

# --- an unbalanced brace: one error naming the file and the line ----------------------
awk '{ print } /^rtas_busy_delay_time|^unsigned int rtas_busy_delay_time/ { fn = 1 } fn && /^\{/ && !done { print "\tif (status == 1) {"; done = 1 }' \
  "$src/tests/validate/busy_delay_faithful.c" >"$work/unbalanced.c"
line=$(grep -n '^	if (status == 1) {$' "$work/unbalanced.c" | cut -d: -f1)
n=$((n + 1))
"$bin" validate --source "$work/unbalanced.c" --component busy_delay --scan sampled >"$work/ub.out" 2>"$work/ub.err"
rc=$?
if [ -n "$line" ] && [ "$rc" = 3 ] && grep -q "unbalanced.c: line $line: unbalanced '{'" "$work/ub.err" &&
  [ "$(wc -l <"$work/ub.err")" -le 2 ] && ! grep -q 'does not compile' "$work/ub.out" "$work/ub.err"; then
  echo "ok   unbalanced-brace"
else
  fail "unbalanced-brace: exit $rc (want 3), line '$line'"; head -5 "$work/ub.err"
fi

# --- candidates: a name cannot hide functions; the probe keeps to --budget ---------------
cat >"$work/named.c" <<'EOF'
#include "candidate_abi.h"
static void init(const struct idlespec_env_v1 *env) { (void)env; }
static unsigned int delay_time(int status) { return status == -2 ? 1 : 0; }
static bool busy_delay(int status) { return status == -2; }
static const struct idlespec_candidate_v1 candidate = {
    .abi_version = 1,
    .name = "evil functions=\nname=x \033[2J\\",
    .init = init,
    .rtas_busy_delay_time = delay_time,
    .rtas_busy_delay = busy_delay};
const struct idlespec_candidate_v1 *idlespec_candidate_v1(void) { return &candidate; }
EOF
cat >"$work/hang.c" <<'EOF'
#include <unistd.h>
#include "candidate_abi.h"
__attribute__((constructor)) static void hang(void) { for (;;) pause(); }
static const struct idlespec_candidate_v1 candidate = {.abi_version = 1, .name = "hang"};
const struct idlespec_candidate_v1 *idlespec_candidate_v1(void) { return &candidate; }
EOF
if cc -shared -fPIC -I"$src/harness" "$work/named.c" -o "$work/named.so" &&
  cc -shared -fPIC -I"$src/harness" "$work/hang.c" -o "$work/hang.so"; then
  n=$((n + 1))
  "$bin" validate --candidate "$work/named.so" --component busy_delay --scan sampled \
    --no-sanitizers --budget 20 --json >"$work/named.json" 2>"$work/named.err"
  if python3 - "$work/named.json" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
fns = {c["function"] for c in d["clauses"] if c["status"] != "absent"}
assert {"rtas_busy_delay_time", "rtas_busy_delay"} <= fns, d["clauses"]
PY
    echo "ok   candidate-name"
  else
    fail "candidate-name: functions lost"; head -3 "$work/named.err"
  fi
  expect candidate-hang 2 'loading the library timed out after 2' -- \
    timeout 120 "$bin" validate --candidate "$work/hang.so" --budget 2
else
  fail "candidate libraries do not build"
fi

# --- SARIF: artifactLocation.uri percent-encoded (RFC 3986) ---------------------------
odd="$work/a b#1%é"
mkdir -p "$odd"
cp "$legacy" "$odd/legacy 50%#x.c"
n=$((n + 1))
"$bin" validate --source "$odd/legacy 50%#x.c" --component busy_delay --scan sampled \
  --no-sanitizers --budget 20 --sarif "$work/odd.sarif" >/dev/null 2>&1
rc=$?
if [ "$rc" = 1 ] && python3 - "$work/odd.sarif" "$odd/legacy 50%#x.c" <<'PY'; then
import json, sys, urllib.parse
path = sys.argv[2]
uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.load(open(sys.argv[1]))["runs"][0]["results"] for loc in r["locations"]}
want = urllib.parse.quote(path, safe="/")
assert uris == {want}, (uris, want)
assert urllib.parse.unquote(want) == path
assert "%25" in want and "%23" in want and "%20" in want and "%C3%A9" in want, want
PY
  echo "ok   sarif-uri-encoded"
else
  fail "sarif-uri-encoded: exit $rc (want 1)"
fi

# --- exit(0) from the code under test is named as such, not a crash --------------------
awk '{ print } /^\tstatus = xcede_query\(\);/ { print "\tif (status) { extern void exit(int); exit(0); }" }' \
  "$src/tests/validate/xcede_faithful.c" >"$work/xcede_exit.c"
expect xcede-exit0 1 'XCEDE-1 .*failed' -- "$bin" validate --source "$work/xcede_exit.c" --component xcede \
  --inputs generated --no-sanitizers --budget 20
n=$((n + 1))
"$bin" validate --source "$work/xcede_exit.c" --component xcede --inputs generated --no-sanitizers \
  --budget 20 >"$work/xexit.out" 2>&1
if grep -q 'bytes): exit(0) from the code under test in the middle of the run' "$work/xexit.out" &&
  ! grep -q 'crashed' "$work/xexit.out"; then
  echo "ok   xcede-exit0-named"
else
  fail "xcede-exit0-named"; grep -m3 'XCEDE-1' -A2 "$work/xexit.out"
fi
awk '{ print } /^unsigned int rtas_busy_delay_time/ { fn = 1 } fn && /^\{/ && !done { print "\tif (status == 9902) { extern void exit(int); exit(0); }"; done = 1 }' \
  "$src/tests/validate/busy_delay_faithful.c" >"$work/busy_exit.c"
expect busy-exit0-named 1 'run plain +scan-policy 0 sampled .*exit\(0\) from the code under test in the middle of the run' -- \
  "$bin" validate --source "$work/busy_exit.c" --component busy_delay --scan sampled --no-sanitizers --budget 20

# --- a report file that cannot be written after the run: stdout says the real exit ------
# The path passes the check before the run; its directory is removed once the
# xcede part's temporary directory exists (the check is done by then, the
# report not yet written: the part has Z3's inputs and two builds ahead).
# The run exits 2, and the summary on stdout must say exit 2, not the
# verdicts' exit 0.
mkdir -p "$work/late-tmp" "$work/late-out"
chmod 755 "$work" "$work/late-tmp"  # the sandbox's user works in it
n=$((n + 1))
IDLESPEC_TMPDIR="$work/late-tmp" "$bin" validate --source "$src/tests/validate/xcede_faithful.c" \
  --component xcede --inputs z3 --budget 60 --junit "$work/late-out/r.xml" \
  >"$work/late.out" 2>"$work/late.err" &
pid=$!
for _ in $(seq 1 1200); do
  ls "$work/late-tmp" | grep -q '^idlespec-validate-' && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
started=$(ls "$work/late-tmp" | grep '^idlespec-validate-')
rm -rf "$work/late-out"
wait "$pid"
rc=$?
if [ -n "$started" ] && [ "$rc" = 2 ] && grep -q "cannot write $work/late-out/r.xml" "$work/late.err" &&
  tail -n 1 "$work/late.out" | grep -q ', exit 2$'; then
  echo "ok   late-write-exit"
else
  fail "late-write-exit: exit $rc (want 2), run started: '${started:-no}', summary: $(tail -n 1 "$work/late.out")"
  head -3 "$work/late.err"
fi

# --- a killed run is no evidence that a clause held -------------------------------------
# rtas_busy_delay_time kills its own process on 9906 (no other run calls it
# with 9906): BUSY-4 is in error and its coverage must not name the killed
# scan; BUSY-1, whose runs finished, names them.
awk '{ print } /^unsigned int rtas_busy_delay_time/ { fn = 1 } fn && /^\{/ && !done { print "\tif (status == 9906) { extern int raise(int); raise(9); }"; done = 1 }' \
  "$src/tests/validate/busy_delay_faithful.c" >"$work/busy_killed.c"
n=$((n + 1))
"$bin" validate --source "$work/busy_killed.c" --component busy_delay --scan sampled --no-sanitizers \
  --budget 20 >"$work/killed.out" 2>&1
rc=$?
busy4=$(grep '^BUSY-4 ' "$work/killed.out")
busy1=$(grep '^BUSY-1 ' "$work/killed.out")
if [ "$rc" = 3 ] && grep -Eq '^  run plain +scan-time sampled .*(without finishing|died of signal)' "$work/killed.out" &&
  echo "$busy4" | grep -q '\] error' && ! echo "$busy4" | grep -q 'scan-time sampled' &&
  echo "$busy1" | grep -q '\] held .*plain scan-policy 0 sampled'; then
  echo "ok   killed-run-not-evidence"
else
  fail "killed-run-not-evidence: exit $rc (want 3)"; grep -E '^  run |^BUSY-[14] ' "$work/killed.out"
fi

echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

#!/bin/sh
# ctest: budget=60 timeout=300
# tests/validate/run_candidate.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# `idlespec validate --candidate LIB.so` (harness/candidate_abi.h): a
# library written for this suite (candidate_example.c), built here with cc,
# holds every busy_delay and xcede clause it can be judged on (XCEDE-1 is
# unknown without sanitizers, and the report says so); built to trust
# payload_size it fails XCEDE-4 with the shrunk payload; libraries without
# the symbol, with another ABI version, or not libraries at all are one
# message and exit 2.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7"
COMPONENT=candidate
. "$HERE/lib.sh"

HARNESS_DIR=$(cd "$HERE/../../harness" && pwd)
lib() { # lib NAME CFLAGS...: build the example as $SCRATCH/NAME.so
  name=$1; shift
  cc -shared -fPIC -I"$HARNESS_DIR" "$@" "$HERE/candidate_example.c" -o "$SCRATCH/$name.so" ||
    fail "$name: the example library does not build"
}
lib good
lib trusting -DTRUST_PAYLOAD_SIZE
lib abi2 -DABI_VERSION=2
echo 'int not_a_candidate(void) { return 1; }' >"$SCRATCH/nosym.c"
cc -shared -fPIC "$SCRATCH/nosym.c" -o "$SCRATCH/nosym.so"
cp "$HERE/candidate_example.c" "$SCRATCH/text.so"

run good --candidate "$SCRATCH/good.so" --scan sampled --budget "$BUDGET"
expect_rc good 3  # XCEDE-1 is unknown, not held: nothing failed, not all judged
expect_only_failed good
expect_clause good XCEDE-1 unknown
expect_text good "rtas_busy_delay  in the candidate library"
expect_text good "ran without sanitizers"
expect_no_driver_crash good

run trusting --candidate "$SCRATCH/trusting.so" --component xcede --budget "$BUDGET"
expect_rc trusting 1
expect_clause trusting XCEDE-4 failed
expect_text trusting "statuses 0, payload 00ac 09 (3 bytes) [Z3 header_ok size_ok over_capacity truncated, payload_size least]: nr_xcede_records = 17, the buffer holds 16 records"

# A candidate that implements nothing (and names itself with a newline) is
# never a pass: nothing judged is exit 3, and the report says why.
cat >"$SCRATCH/empty.c" <<'EOF'
#include "candidate_abi.h"
static void init(const struct idlespec_env_v1 *env) { (void)env; }
static const struct idlespec_candidate_v1 candidate = {
    .abi_version = 1, .name = "nothing\nat all", .init = init};
const struct idlespec_candidate_v1 *idlespec_candidate_v1(void) { return &candidate; }
EOF
cc -shared -fPIC -I"$HARNESS_DIR" "$SCRATCH/empty.c" -o "$SCRATCH/empty.so" || fail "empty: does not build"
run empty --candidate "$SCRATCH/empty.so" --budget "$BUDGET"
expect_rc empty 3
expect_text empty "note: the candidate implements none of the checked functions"
run empty_json --candidate "$SCRATCH/empty.so" --budget "$BUDGET" --json
expect_rc empty_json 3
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["exit_code"] == 3 and not [c for c in d["clauses"] if c["status"] == "held"], d' \
  "$SCRATCH/empty_json.out" || fail "empty_json: not valid JSON saying exit 3 with nothing held"

for bad in abi2 nosym text; do
  run "$bad" --candidate "$SCRATCH/$bad.so"
  expect_rc "$bad" 2
  [ "$(wc -l <"$SCRATCH/$bad.err")" -eq 1 ] || fail "$bad: expected one line on stderr"
done
grep -q "speaks candidate ABI version 2; this idlespec speaks version 1" "$SCRATCH/abi2.err" || fail "abi2: no message"
grep -q "does not export idlespec_candidate_v1()" "$SCRATCH/nosym.err" || fail "nosym: no message"
grep -q "cannot load the library" "$SCRATCH/text.err" || fail "text: no message"

finish

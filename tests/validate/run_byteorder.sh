#!/bin/sh
# ctest: budget=30 timeout=600
# tests/validate/run_byteorder.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# XCEDE-8 (spec/xcede.md: every multi-byte field read big-endian on every
# host), the witnesses of issue 37 in this suite's words, each a variant of
# xcede_faithful.c:
#
# - no_conversion loads the __be16 payload_size as a host integer: wrong on
#   a little-endian host (this one), right on big-endian ppc64; the runs
#   show it here and sparse shows it anywhere (restricted __be16 assigned
#   to u16), with the file and line;
# - hand_swap swaps its bytes by hand as if every host were little-endian:
#   right here (the runs hold), wrong on ppc64; sparse sees the restricted
#   type used as an integer, so the clause fails with its line here too;
# - char_bytes assembles payload_size from plain `char` bytes: right where
#   char is unsigned (POWER, and the kernel since v6.2 everywhere), wrong
#   where it is signed (the host's C, x86-64's ABI); sparse cannot see it,
#   the host's runs do (a size byte of 0x80 or more sign-extends).
#
# With the cross compilers and qemu-user (scripts/setup.sh power), each is
# also judged on every target (--targets host,ppc64,ppc64le), and each
# target's verdict asserted: no_conversion fails on the host and ppc64le and
# holds on ppc64; hand_swap holds on the host and ppc64le and fails on
# ppc64; char_bytes fails on the host only (POWER's char is unsigned).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7 XCEDE-8"
COMPONENT=xcede
. "$HERE/lib.sh"
RUN_DEFAULTS="--component xcede --inputs generated --fuzz 0 --budget $BUDGET"
HAVE_SPARSE=0
command -v sparse >/dev/null && HAVE_SPARSE=1
LINE=$(grep -n 'payload_size = be16_to_cpu(xcede_latency_parameter.payload_size);' "$(src faithful)" | cut -d: -f1)

variant no_conversion 's/payload_size = be16_to_cpu(xcede_latency_parameter.payload_size);/payload_size = xcede_latency_parameter.payload_size;/'
variant hand_swap 's/payload_size = be16_to_cpu(xcede_latency_parameter.payload_size);/payload_size = (u16)((xcede_latency_parameter.payload_size >> 8) | (xcede_latency_parameter.payload_size << 8));/'
variant char_bytes 's/payload_size = be16_to_cpu(xcede_latency_parameter.payload_size);/payload_size = (u16)((raw[0] << 8) | raw[1]);/
s/const u8 \*raw = (const u8 \*)&xcede_latency_parameter;/const char *raw = (const char *)\&xcede_latency_parameter;/'

# The faithful decoder: XCEDE-8 held, sparse silent.
run faithful --source "$(src faithful)"
expect_rc faithful 0
expect_only_failed faithful
[ "$HAVE_SPARSE" = 1 ] && expect_text faithful "note: sparse: 0 byte-order diagnostic(s) in the file's lines"

# The runs alone (sparse off): the host's order shows no_conversion and
# char_bytes, not hand_swap.
IDLESPEC_SPARSE= run no_conversion_runs --source "$(src_variant no_conversion)"
expect_rc no_conversion_runs 1
# XCEDE-3 too: the oracle leaves an input whose big-endian payload_size is
# below 2 to XCEDE-3's count rule (spec/xcede.md), which the wrong order breaks.
expect_only_failed no_conversion_runs XCEDE-3 XCEDE-8
expect_text no_conversion_runs "record(s): what payload_size read in little-endian order ("
IDLESPEC_SPARSE= run hand_swap_runs --source "$(src_variant hand_swap)"
expect_rc hand_swap_runs 0
expect_only_failed hand_swap_runs
IDLESPEC_SPARSE= run char_bytes_runs --source "$(src_variant char_bytes)"
expect_rc char_bytes_runs 1
expect_clause char_bytes_runs XCEDE-8 failed
expect_text char_bytes_runs "or with its low byte sign-extended (0xff80, a signed char) gives"

# On every target (validate --targets): each witness is caught where its
# reading is wrong and holds where it is right, the report naming both, in
# the text and per target in --json. sparse off: the runs alone.
if command -v powerpc64-linux-gnu-gcc >/dev/null && command -v qemu-ppc64 >/dev/null &&
  command -v powerpc64le-linux-gnu-gcc >/dev/null && command -v qemu-ppc64le >/dev/null; then
  ALL="--targets host,ppc64,ppc64le"
  # shellcheck disable=SC2086
  IDLESPEC_SPARSE= run faithful_targets $ALL --source "$(src faithful)"
  expect_rc faithful_targets 0
  expect_only_failed faithful_targets
  expect_where faithful_targets XCEDE-8 held "held on host, ppc64 (big-endian) and ppc64le"
  # shellcheck disable=SC2086
  IDLESPEC_SPARSE= run no_conversion_targets $ALL --source "$(src_variant no_conversion)"
  expect_rc no_conversion_targets 1
  expect_only_failed no_conversion_targets XCEDE-3 XCEDE-8
  expect_where no_conversion_targets XCEDE-8 failed "failed on host and ppc64le, held on ppc64 (big-endian)"
  expect_where no_conversion_targets XCEDE-3 failed "failed on host and ppc64le, held on ppc64 (big-endian)"
  expect_text no_conversion_targets "[ppc64le] "
  # shellcheck disable=SC2086
  IDLESPEC_SPARSE= run hand_swap_targets $ALL --source "$(src_variant hand_swap)"
  expect_rc hand_swap_targets 1
  expect_only_failed hand_swap_targets XCEDE-3 XCEDE-8
  expect_where hand_swap_targets XCEDE-8 failed "failed on ppc64 (big-endian), held on host and ppc64le"
  expect_where hand_swap_targets XCEDE-3 failed "failed on ppc64 (big-endian), held on host and ppc64le"
  expect_text hand_swap_targets "[ppc64] "
  # shellcheck disable=SC2086
  IDLESPEC_SPARSE= run char_bytes_targets $ALL --source "$(src_variant char_bytes)"
  expect_rc char_bytes_targets 1
  expect_clause char_bytes_targets XCEDE-8 failed
  expect_where char_bytes_targets XCEDE-8 failed "failed on host, held on ppc64 (big-endian) and ppc64le"
  # The same verdicts per target in --json.
  # shellcheck disable=SC2086
  IDLESPEC_SPARSE= run hand_swap_json $ALL --json --source "$(src_variant hand_swap)"
  python3 - "$SCRATCH/hand_swap_json.out" <<'PY' || fail "hand_swap_json: per-target verdicts"
import json, sys
doc = json.load(open(sys.argv[1]))
v = [c for c in doc["clauses"] if c["id"] == "XCEDE-8"][0]
got = {t["target"]: t["status"] for t in v["targets"]}
assert v["status"] == "failed", v["status"]
assert got == {"host": "held", "ppc64": "failed", "ppc64le": "held"}, got
assert v["where"] == "failed on ppc64 (big-endian), held on host and ppc64le", v["where"]
PY
  # Asked for a target alone: its verdict only.
  IDLESPEC_SPARSE= run no_conversion_ppc64 --targets ppc64 --source "$(src_variant no_conversion)"
  expect_rc no_conversion_ppc64 0
  expect_where no_conversion_ppc64 XCEDE-8 held "held on ppc64 (big-endian)"
else
  not_run "ppc64/ppc64le: cross compilers or qemu-user not installed (scripts/setup.sh power)"
fi

if [ "$HAVE_SPARSE" = 1 ]; then
  # sparse: the line of each byte-order slip, on every host.
  run no_conversion --source "$(src_variant no_conversion)"
  expect_rc no_conversion 1
  expect_only_failed no_conversion XCEDE-3 XCEDE-8
  expect_text no_conversion "$(src_variant no_conversion):$LINE: sparse: warning: incorrect type in assignment (different base types)"
  expect_text no_conversion "got restricted __be16"
  run hand_swap --source "$(src_variant hand_swap)"
  expect_rc hand_swap 1
  expect_only_failed hand_swap XCEDE-8
  expect_text hand_swap "$(src_variant hand_swap):$LINE: sparse: warning: restricted __be16 degrades to integer"
  # char's signedness is not sparse's to see: nothing from it.
  run char_bytes --source "$(src_variant char_bytes)"
  expect_text char_bytes "note: sparse: 0 byte-order diagnostic(s) in the file's lines"
else
  not_run "sparse: not installed (scripts/setup.sh power)"
fi
finish

#!/usr/bin/env bash
# The data-race witness of the stress test (ctest stress/tsan_race_witness,
# TSan builds only): the harness over one non-atomic PlainWord shared by the
# threads must make ThreadSanitizer report a data race on the word.
# Passes iff the run halts with TSan's exit code 66 and the report names a
# data race in the protocol's step over the PlainWord (impl/idle_core.h).
# Usage: expect_tsan_race.sh IDLE_CORE_STRESS_BINARY
set -uo pipefail
bin=$1
out=$(TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
      "$bin" --word plain --platform power8 --threads 4 --seconds 20 2>&1)
rc=$?
echo "$out" | head -40
if [ "$rc" -ne 66 ]; then
  echo "expect_tsan_race: FAIL: exit code $rc, expected 66 (TSan halting on a report)"
  exit 1
fi
if ! grep -q "WARNING: ThreadSanitizer: data race" <<<"$out"; then
  echo "expect_tsan_race: FAIL: no 'WARNING: ThreadSanitizer: data race' in the output"
  exit 1
fi
if ! grep -qE "SUMMARY: ThreadSanitizer: data race .*idle_core::step<.*PlainWord" <<<"$out"; then
  echo "expect_tsan_race: FAIL: the race reported is not in step() over the PlainWord"
  exit 1
fi
echo "expect_tsan_race: PASS: TSan reported the data race on the plain word"

#!/usr/bin/env bash
# Rewrites validate/states_edges.txt, the table of states' Z3 edges built into
# idlespec (validate/boundaries.cc), from what Z3 answers now for the model in
# the working tree; then rebuilds so that the binary carries it. Run it when
# ValidateBoundaries.ShippedStatesEdgesAreZ3sAnswerNow fails after a change to
# the model's sources (CMakeLists.txt: IDLESPEC_STATES_MODEL_FILES).
# Usage: scripts/update-states-edges.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
cmake --build "$build" --target unit_tests
IDLESPEC_STATES_EDGES_OUT=$root/validate/states_edges.txt \
  "$build/unit_tests" --gtest_filter=ValidateBoundaries.ShippedStatesEdgesAreZ3sAnswerNow
cmake --build "$build"
echo "update-states-edges: wrote validate/states_edges.txt; commit it with the model change"

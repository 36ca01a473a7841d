# Sourced by scripts/fuzz.sh, scripts/fuzz_exposure.sh and
# tests/witnesses/fuzz_expect_crash.sh: one reading of a fuzz target's
# .options file for every campaign, witness and exposure trial.
#
# libfuzzer_flags OPTIONS_FILE: every key = value of its [libfuzzer] section
# as -key=value, one a line (dict named beside the options file), as
# ClusterFuzz passes them; nothing when the file does not exist.
libfuzzer_flags() {
  [ -f "$1" ] || return 0
  awk -v dir="$(dirname "$1")" '
    /^[[:space:]]*\[/ { in_lf = ($0 ~ /^[[:space:]]*\[libfuzzer\]/); next }
    in_lf && /^[[:space:]]*[a-z_]+[[:space:]]*=/ {
      line = $0; sub(/#.*/, "", line); split(line, kv, "=")
      k = kv[1]; v = kv[2]; gsub(/[[:space:]]/, "", k); gsub(/[[:space:]]/, "", v)
      if (k == "dict") v = dir "/" v
      print "-" k "=" v
    }' "$1"
}

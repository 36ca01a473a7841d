#!/bin/sh
# ctest: budget=30 timeout=900
# tests/validate/run_review_cache.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Review's verdict cache (validate/verdict_cache.h, docs/validate.md):
#   - a review served from the cache gives the report of the review that
#     filled it, byte for byte but for timings and the reuse notes, and the
#     same verdicts and exit code as a review without the cache;
#   - a side whose judged text is the same on both sides runs once
#     (--no-cache: both run, as before the cache);
#   - a patch that changes a judged function is never served from the
#     cache: its after side runs (BUSY-7 held -> failed, exit 1);
#   - a planted entry (another text's held verdicts under the failing
#     text's name), a corrupt one, a link and one others may write are
#     each ignored with a note: the failed clause stays failed. Witness:
#     with cache_load()'s key comparison removed, the planted entry turns
#     BUSY-7's "held -> failed" into no change and this script fails.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES=""
COMPONENT=review
. "$HERE/lib.sh"
command -v python3 >/dev/null || skip_test "python3 is not installed"

P=arch/powerpc/kernel/rtas.c
# patch_of OUT BEFORE AFTER SUBJECT: a patch from BEFORE to AFTER at $P.
patch_of() {
  {
    printf 'Subject: [PATCH] %s\n\n---\n' "$4"
    diff -u --label "a/$P" --label "b/$P" "$2" "$3"
  } >"$1"
  grep -q '^@@' "$1" || fail "$1: the patch changes nothing"
}
# rev NAME PATCH TREE ARGS...: a host review of busy_delay, sampled.
rev() {
  name=$1 patch=$2 tree=$3
  shift 3
  run "$name" review "$patch" --kernel-tree "$tree" --component busy_delay --scan sampled \
    --budget "$BUDGET" --no-sanitizers "$@"
}
# same_json A B: the two --json reports are the same but for seconds, the
# temporary tree's name and the reuse notes.
same_json() {
  python3 - "$SCRATCH/$1.out" "$SCRATCH/$2.out" <<'PY' || fail "$1 and $2: the reports differ"
import json, re, sys
def norm(path):
    d = json.load(open(path))
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("seconds", "reused", "cache_notes")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        if isinstance(x, str):
            return re.sub(r"idlespec-review-[A-Za-z0-9]+", "idlespec-review-X", x)
        return x
    return json.dumps(strip(d), sort_keys=True, indent=1)
a, b = norm(sys.argv[1]), norm(sys.argv[2])
if a != b:
    import difflib
    sys.stdout.writelines(list(difflib.unified_diff(a.splitlines(True), b.splitlines(True)))[:40])
    sys.exit(1)
PY
}
# reused NAME N WHAT: the report's "reused" list has N entries, each WHAT.
reused() {
  python3 - "$SCRATCH/$1.out" "$2" "$3" <<'PY' || fail "$1: expected $2 reuse(s) '$3'"
import json, sys
r = json.load(open(sys.argv[1]))["reused"]
assert len(r) == int(sys.argv[2]) and all(sys.argv[3] in x for x in r), r
PY
}

FAITHFUL="$HERE/busy_delay_faithful.c"
LEGACY="$HERE/busy_delay_legacy.c"
mkdir -p "$SCRATCH/tree/$(dirname $P)"
cp "$FAITHFUL" "$SCRATCH/tree/$P"
# A comment inside rtas_busy_delay(): its judged text changes, its verdicts do not.
sed '0,/might_sleep();/s/might_sleep();/might_sleep(); \/* may sleep *\//' "$FAITHFUL" >"$SCRATCH/comment.c"
cmp -s "$FAITHFUL" "$SCRATCH/comment.c" && fail "the comment edit changed nothing"
patch_of "$SCRATCH/comment.patch" "$FAITHFUL" "$SCRATCH/comment.c" "powerpc/rtas: a comment"
# The legacy policy in place of the faithful one: BUSY-7 held -> failed.
patch_of "$SCRATCH/legacy.patch" "$FAITHFUL" "$LEGACY" "powerpc/rtas: the legacy retry policy"

# --- the same report with and without the cache ------------------------------
rev nocache "$SCRATCH/comment.patch" "$SCRATCH/tree" --no-cache --json
expect_rc nocache 0
reused nocache 0 ""
rev fill "$SCRATCH/comment.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c1" --json
expect_rc fill 0
reused fill 0 ""
[ "$(find "$SCRATCH/c1" -name '*.verdicts' | wc -l)" = 2 ] || fail "fill: not one entry per side"
find "$SCRATCH/c1" -perm /077 | grep -q . && fail "fill: the cache is open to others"
rev hit "$SCRATCH/comment.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c1" --json
expect_rc hit 0
reused hit 2 "reused from the cache"
same_json fill hit
same_json nocache hit
rev hit_text "$SCRATCH/comment.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c1"
rev nocache_text "$SCRATCH/comment.patch" "$SCRATCH/tree" --no-cache
expect_text hit_text "note: $P (busy_delay) before the patch: reused from the cache"
grep -v '^note: .*reused from the cache$' "$SCRATCH/hit_text.out" >"$SCRATCH/hit_text.cut"
cmp -s "$SCRATCH/hit_text.cut" "$SCRATCH/nocache_text.out" ||
  fail "hit_text: the text report differs from the uncached one: $(diff "$SCRATCH/hit_text.cut" "$SCRATCH/nocache_text.out" | head -5)"

# --- the same judged text on both sides runs once ---------------------------
# A comment outside every function the component extracts.
printf '/* unrelated */\n' >"$SCRATCH/tail.c"
cat "$FAITHFUL" "$SCRATCH/tail.c" >"$SCRATCH/tailed.c"
patch_of "$SCRATCH/tail.patch" "$FAITHFUL" "$SCRATCH/tailed.c" "powerpc/rtas: a trailing comment"
rev tail "$SCRATCH/tail.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c3" --json
expect_rc tail 0
reused tail 1 "after the patch: reused from the before side"

# cpuidle-pseries.c: a patch to the CEDE(0) fix-up's message reruns states
# alone; xcede's judged text (the XCEDE parser) is the same on both sides.
cat "$HERE/xcede_faithful.c" "$HERE/states_fixup.c" >"$SCRATCH/pseries.c"
sed 's/Fixed up CEDE exit latency to/Fixed up the CEDE exit latency to/' "$SCRATCH/pseries.c" >"$SCRATCH/pseries_after.c"
cmp -s "$SCRATCH/pseries.c" "$SCRATCH/pseries_after.c" && fail "pseries: the edit changed nothing"
mkdir -p "$SCRATCH/ptree/drivers/cpuidle"
cp "$SCRATCH/pseries.c" "$SCRATCH/ptree/drivers/cpuidle/cpuidle-pseries.c"
{
  printf 'Subject: [PATCH] cpuidle: pseries: reword the fix-up message\n\n---\n'
  diff -u --label a/drivers/cpuidle/cpuidle-pseries.c --label b/drivers/cpuidle/cpuidle-pseries.c \
    "$SCRATCH/pseries.c" "$SCRATCH/pseries_after.c"
} >"$SCRATCH/pseries.patch"
run pseries review "$SCRATCH/pseries.patch" --kernel-tree "$SCRATCH/ptree" --budget "$BUDGET" \
  --inputs generated --cache-dir "$SCRATCH/c4" --json
expect_rc pseries 0
reused pseries 1 "drivers/cpuidle/cpuidle-pseries.c (xcede) after the patch: reused from the before side"

# --- a patch that changes a judged function is not served from the cache ----
cp -r "$SCRATCH/c1" "$SCRATCH/c1.base"
rev changed "$SCRATCH/legacy.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c1" --json
expect_rc changed 1
reused changed 1 "before the patch: reused from the cache"
python3 - "$SCRATCH/changed.out" <<'PY' || fail "changed: BUSY-7 is not held -> failed"
import json, sys
d = json.load(open(sys.argv[1]))
assert any(c["id"] == "BUSY-7" and c["before"] == "held" and c["after"] == "failed"
           for c in d["changes"]), d["changes"]
PY

# --- planted, corrupt, linked and open entries are ignored -------------------
# c2 holds the faithful text's entry (held) and the legacy one's (failed):
# the legacy entry is the one c1 lacked before.
rev fill2 "$SCRATCH/legacy.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c2" --json
expect_rc fill2 1
held_entry= failed_entry=
for e in "$SCRATCH"/c2/*.verdicts; do
  if [ -e "$SCRATCH/c1.base/$(basename "$e")" ]; then held_entry=$e; else failed_entry=$e; fi
done
[ -n "$held_entry" ] && [ -n "$failed_entry" ] || fail "fill2: no entry per side"
# plant NAME KIND: the failed side's entry replaced, then the review again.
plant() {
  name=$1
  case $2 in
    planted) cp "$held_entry" "$failed_entry" ;;
    corrupt) sed 's/failed/held  /g' "$SAVED" >"$failed_entry" ;;
    truncated) head -c 2000 "$SAVED" >"$failed_entry" ;;
    link) rm -f "$failed_entry" && ln -s "$SAVED" "$failed_entry" ;;
    open) cp "$SAVED" "$failed_entry" && chmod 0666 "$failed_entry" ;;
  esac
  [ "$2" = link ] || chmod go-w "$failed_entry" 2>/dev/null
  [ "$2" = open ] && chmod 0666 "$failed_entry"
  rev "$name" "$SCRATCH/legacy.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c2" --json
  expect_rc "$name" 1
  reused "$name" 1 "before the patch: reused from the cache"
  python3 - "$SCRATCH/$name.out" <<'PY' || fail "$name: the bad entry was trusted"
import json, sys
d = json.load(open(sys.argv[1]))
assert any(c["id"] == "BUSY-7" and c["after"] == "failed" for c in d["changes"]), d["changes"]
assert any("ignored" in n for n in d["cache_notes"]), d["cache_notes"]
PY
  rm -f "$failed_entry"
}
SAVED="$SCRATCH/failed_entry.saved"
cp "$failed_entry" "$SAVED"
for kind in planted corrupt truncated link open; do
  plant "$kind" "$kind"
done
expect_text planted "made for another text"
grep -q "checksum\|malformed\|another text" "$SCRATCH/corrupt.out" || fail "corrupt: no note on why"
grep -q "cannot be opened (a link" "$SCRATCH/link.out" || fail "link: no note on the link"
expect_text open "writable by others"

finish

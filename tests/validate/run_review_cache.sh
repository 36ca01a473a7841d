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
#   - review judges what the patch changes (validate/verdict_cache.h,
#     same_but_lines()): a component whose judged text the patch leaves as
#     it was, or only moves (lines added above it), is not judged and says
#     so; one whose code reads its line numbers (WARN_ON(), __LINE__) is
#     judged when it moves; a patch to a helper the modelled function calls
#     is judged, its after side never served from the cache. Witnesses: with
#     same_but_lines()'s check of the line readers removed, the WARN_ON and
#     __LINE__ texts are left unjudged and this script fails; with the
#     extraction left out of the key, the helper's patch is left unjudged.
#   - the after side judged beside the before side gives the report of the
#     two judged one after the other (IDLESPEC_REVIEW_SERIAL=1);
#   - the cache is pruned: an entry unused for longer than the age bound
#     and a stale temporary file go; under IDLESPEC_VERDICT_CACHE_MB=0
#     nothing is kept.
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

# no_parts NAME: neither side of the report judged a component.
no_parts() {
  python3 - "$SCRATCH/$1.out" <<'PY' || fail "$1: a component was judged"
import json, sys
d = json.load(open(sys.argv[1]))
assert not d["before"]["parts"] and not d["after"]["parts"], (d["before"]["parts"], d["after"]["parts"])
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
reused tail 1 "$P (busy_delay): not judged: the patch changes nothing its checks read"
no_parts tail
rev tail_all "$SCRATCH/tail.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c3" --json --judge-unchanged
expect_rc tail_all 0
reused tail_all 1 "after the patch: reused from the before side"

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
reused pseries 1 "drivers/cpuidle/cpuidle-pseries.c (xcede): not judged"
python3 - "$SCRATCH/pseries.out" <<'PY' || fail "pseries: states is not judged on both sides"
import json, sys
d = json.load(open(sys.argv[1]))
for side in ("before", "after"):
    assert [p["component"] for p in d[side]["parts"]] == ["states"], d[side]["parts"]
PY

# --- a move alone is not judged, unless the code reads its line numbers -----
# Three lines above every function: the component moves, nothing else.
{ printf '/*\n * moved\n */\n'; cat "$FAITHFUL"; } >"$SCRATCH/moved.c"
patch_of "$SCRATCH/moved.patch" "$FAITHFUL" "$SCRATCH/moved.c" "powerpc/rtas: a comment on top"
rev moved "$SCRATCH/moved.patch" "$SCRATCH/tree" --no-cache --json
expect_rc moved 0
reused moved 1 "$P (busy_delay): not judged"
no_parts moved
# The same move of texts whose code reads its line numbers: judged.
for reader in 'WARN_ON(!status \&\& status);' '(void)__LINE__;'; do
  v=$(printf '%s' "$reader" | tr -c 'A-Za-z' _ | cut -c1-10)
  sed "0,/might_sleep();/s//might_sleep(); $reader/" "$FAITHFUL" >"$SCRATCH/$v.c"
  cmp -s "$FAITHFUL" "$SCRATCH/$v.c" && fail "$v: the edit changed nothing"
  { printf '/*\n * moved\n */\n'; cat "$SCRATCH/$v.c"; } >"$SCRATCH/${v}_moved.c"
  mkdir -p "$SCRATCH/t_$v/$(dirname $P)"
  cp "$SCRATCH/$v.c" "$SCRATCH/t_$v/$P"
  patch_of "$SCRATCH/$v.patch" "$SCRATCH/$v.c" "$SCRATCH/${v}_moved.c" "moved: $v"
  rev "moved_$v" "$SCRATCH/$v.patch" "$SCRATCH/t_$v" --no-cache --json
  reused "moved_$v" 0 ""
  python3 - "$SCRATCH/moved_$v.out" <<'PY' || fail "moved_$v: a text reading its lines moved and was not judged"
import json, sys
d = json.load(open(sys.argv[1]))
for side in ("before", "after"):
    assert [p["component"] for p in d[side]["parts"]] == ["busy_delay"], d[side]["parts"]
PY
done

# --- a patch to a helper the modelled function calls ------------------------
sed 's/return system_state >= SYSTEM_SCHEDULING;/return system_state > SYSTEM_SCHEDULING;/' \
  "$FAITHFUL" >"$SCRATCH/helper.c"
cmp -s "$FAITHFUL" "$SCRATCH/helper.c" && fail "helper: the edit changed nothing"
patch_of "$SCRATCH/helper.patch" "$FAITHFUL" "$SCRATCH/helper.c" "powerpc/rtas: the scheduler test"
cp -r "$SCRATCH/c1" "$SCRATCH/c5"
rev helper "$SCRATCH/helper.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c5" --json
expect_text helper '"touched":["arch/powerpc/kernel/rtas.c: rtas_scheduler_up"]'
reused helper 1 "$P (busy_delay) before the patch: reused from the cache"
python3 - "$SCRATCH/helper.out" <<'PY' || fail "helper: the after side was not judged"
import json, sys
d = json.load(open(sys.argv[1]))
assert [p["component"] for p in d["after"]["parts"]] == ["busy_delay"], d["after"]["parts"]
assert any(p["runs"] for p in d["after"]["parts"]), "no run after the patch"
PY

# --- both sides at once, or one after the other: the same report -------------
export IDLESPEC_REVIEW_SERIAL=1
rev serial "$SCRATCH/comment.patch" "$SCRATCH/tree" --no-cache --json
unset IDLESPEC_REVIEW_SERIAL
expect_rc serial 0
same_json nocache serial

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

# --- pruning ---------------------------------------------------------------------
some_entry=$(find "$SCRATCH/c1" -name '*.verdicts' | head -1)
cp "$some_entry" "$SCRATCH/c1/0000000000000000old.verdicts"
touch -d '40 days ago' "$SCRATCH/c1/0000000000000000old.verdicts"
: >"$SCRATCH/c1/.tmp-stale" && touch -d '2 hours ago' "$SCRATCH/c1/.tmp-stale"
chmod 0600 "$SCRATCH/c1/0000000000000000old.verdicts" "$SCRATCH/c1/.tmp-stale"
rev prune "$SCRATCH/helper.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c1" --json
[ -e "$SCRATCH/c1/0000000000000000old.verdicts" ] && fail "prune: an entry 40 days unused was kept"
[ -e "$SCRATCH/c1/.tmp-stale" ] && fail "prune: a stale temporary file was kept"
[ "$(find "$SCRATCH/c1" -name '*.verdicts' | wc -l)" -ge 3 ] || fail "prune: recent entries went too"
export IDLESPEC_VERDICT_CACHE_MB=0
rev prune0 "$SCRATCH/comment.patch" "$SCRATCH/tree" --cache-dir "$SCRATCH/c6" --json
unset IDLESPEC_VERDICT_CACHE_MB
expect_rc prune0 0
[ "$(find "$SCRATCH/c6" -name '*.verdicts' | wc -l)" = 0 ] || fail "prune0: entries kept beyond a 0 MiB bound"

finish

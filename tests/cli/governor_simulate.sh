#!/usr/bin/env bash
# idlespec simulate governor, as a person and a script use it: outputs, files
# and exit codes. usage: governor_simulate.sh IDLESPEC SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


check() {  # check NAME CONDITION-COMMAND...: passes iff the command succeeds
  local name=$1
  shift
  n=$((n + 1))
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}

verdict() {  # verdict NAME STATUS: passes iff STATUS is 0 (for compound conditions)
  n=$((n + 1))
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

sim() { "$bin" simulate governor "$@"; }

# The POWER9 example of the 2020 RFC (tests/cli/decode.sh): CEDE 2/20 us on a
# dedicated POWER10 LPAR after the fix-up, Shared Cede 10/100 us when shared.
echo '00 16 09 01 0000000000000400 01 02 00000000003e8000 00 00' >"$tmp/p9.hex"
"$bin" decode xcede --hex "$tmp/p9.hex" --json >"$tmp/p9.json"

# --- text output --------------------------------------------------------------
expect header 0 '^governor: table pseries-p10 \(snooze 0/0 us POLLING, CEDE 12/120 us\), wake ipi, HZ=100, 200 wake-ups per interval after 300 warm-up, seed 1$' -- sim --intervals 52 --wakeups 200
expect columns 0 'interval us +snooze +CEDE +above % +below % +poll us/wake-up' -- sim --intervals 52 --wakeups 200 --subject v6.14
expect all-subjects 0 '^v6\.19: ' -- sim --intervals 52 --wakeups 200
expect row 0 '^ +52 +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' -- sim --intervals 52 --wakeups 200 --subject reference
expect timer-hz 0 'wake timer, HZ=1000' -- sim --intervals 52,1002 --wakeups 200 --wake timer --hz 1000
expect help 0 'usage: idlespec simulate governor' -- sim --help
# --- TEO beside menu: the same tables and wake-ups ------------------------------
expect teo-header 0 '^governor \(teo\): table pseries-p10' -- sim --governor teo --intervals 52 --wakeups 200
expect teo-rows 0 '^teo-v6\.12: TEO, ' -- sim --governor teo --intervals 52 --wakeups 200
expect teo-v7.0 0 '^teo-v7\.0: TEO, v7\.0: ' -- sim --governor teo --subject v7.0 --intervals 52 --wakeups 200
expect both-menu 0 '^mainline: ' -- sim --governor both --subject mainline --intervals 52 --wakeups 200
expect both-teo 0 '^teo-mainline: ' -- sim --governor both --subject mainline --intervals 52 --wakeups 200
expect teo-no-menu-subject 2 "unknown teo subject 'v6.14'" -- sim --governor teo --subject v6.14
expect both-plot 0 'data-subject="teo-v6.1".*|data-subject="teo-v6.1"' -- bash -c "\"$bin\" simulate governor --governor both --intervals 22,132 --wakeups 200 --plot \"$tmp/both.svg\" >/dev/null && grep -o 'data-subject=\"[a-z0-9.-]*\"' \"$tmp/both.svg\" | sort -u"
expect bad-governor 2 "--governor wants menu, teo or both, not 'ladder'" -- sim --governor ladder
expect help-model 0 'cpuidle_enter_state' -- sim --help
expect target-list 0 'governor +wake a CPU' -- "$bin" simulate --help

# --- JSON: the fields, and what the model must show at 52 us ------------------
sim --intervals 22,52,202 --wakeups 500 --json >"$tmp/sweep.json" 2>&1
verdict json-exit $?
if command -v python3 >/dev/null 2>&1; then
  json_check() {  # json_check NAME PYTHON-BODY (d = the document)
    n=$((n + 1))
    if python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$2" "$tmp/sweep.json"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
  }
  json_check json-fields '
assert d["target"] == "governor" and d["wake"] == "ipi" and d["hz"] == 100, d
assert [s["name"] for s in d["table"]["states"]] == ["snooze", "CEDE"]
assert len(d["results"]) == 18, len(d["results"])
for r in d["results"]:
    for k in ("subject", "interval_us", "above_pct", "below_pct", "usage", "poll_time_us", "selections"):
        assert k in r, k
    assert sum(u["count"] for u in r["usage"]) == r["selections"], r
    assert [u["state"] for u in r["usage"]] == ["snooze", "CEDE"]
    assert r["selections"] >= r["wakeups"] == 500, r
    assert 0 <= r["above_pct"] <= 100 and 0 <= r["below_pct"] <= 100, r
'
  # v6.14 lowers the latency limit to the prediction and its polling rule
  # promotes CEDE (120 us) for a 52 us sleep: nearly every entry is "above".
  # The reviewer's threshold keeps snooze there: no "above", time polling.
  json_check above-at-52 '
row = {(r["subject"], r["interval_us"]): r for r in d["results"]}
v614, thr, v2 = row[("v6.14", 52)], row[("seed-threshold", 52)], row[("seed-v2", 52)]
assert v614["above_pct"] > 50, v614
assert thr["above_pct"] < 10, thr
assert v614["above_pct"] > thr["above_pct"] + 40, (v614, thr)
assert v2["above_pct"] < 10, v2
assert thr["poll_time_us"] > v614["poll_time_us"], (thr, v614)
assert row[("v6.19", 52)]["above_pct"] < 10 and row[("reference", 52)]["above_pct"] > 50
'
else
  check json-fields grep -qE '"results":\[\{"subject":"v6\.14","interval_us":22,"wakeups":500,"selections":[0-9]+,"above":[0-9]+,"below":[0-9]+,"above_pct":[0-9.]+,"below_pct":[0-9.]+,"usage":\[\{"state":"snooze","count":[0-9]+\},\{"state":"CEDE","count":[0-9]+\}\],"poll_time_us":[0-9.]+' "$tmp/sweep.json"
  v614=$(grep -oE '"subject":"v6\.14","interval_us":52,[^}]*"above_pct":[0-9.]+' "$tmp/sweep.json" | grep -oE '[0-9.]+$')
  thr=$(grep -oE '"subject":"seed-threshold","interval_us":52,[^}]*"above_pct":[0-9.]+' "$tmp/sweep.json" | grep -oE '[0-9.]+$')
  check above-at-52 awk -v a="$v614" -v b="$thr" 'BEGIN { exit !(a != "" && b != "" && a > 50 && b < 10) }'
fi

# The default sweep: seed 004's 27 intervals, 2 to 1002 us.
expect default-intervals 0 '"interval_us":2,.*"interval_us":152,.*"interval_us":202,.*"interval_us":1002,' -- sim --subject v6.14 --wakeups 1 --json
rows=$(sim --subject v6.14 --wakeups 1 --json | grep -oE '"interval_us":' | wc -l)
check default-27-rows [ "$rows" = 27 ]

# Same seed, same figures.
a=$(sim --intervals 132,1002 --wakeups 300 --seed 5 --json)
b=$(sim --intervals 132,1002 --wakeups 300 --seed 5 --json)
[ -n "$a" ] && [ "$a" = "$b" ]
verdict deterministic $?

# --- tables from decode xcede ----------------------------------------------------
expect table-file 0 'table .*p9\.json \(snooze 0/0 us POLLING, CEDE 2/20 us\)' -- sim --table "$tmp/p9.json" --intervals 52 --wakeups 200
expect table-pipe 0 'table \(stdin\) \(snooze 0/0 us POLLING, Shared Cede 10/100 us\)' -- bash -c "\"$bin\" decode xcede --hex \"$tmp/p9.hex\" --shared --json | \"$bin\" simulate governor --table - --intervals 52 --wakeups 200"
expect table-pipe-json 0 '"source":"-","states":\[\{"name":"snooze",.*"name":"Shared Cede","exit_latency_us":10,"target_residency_us":100' -- bash -c "\"$bin\" decode xcede --hex \"$tmp/p9.hex\" --shared --json | \"$bin\" simulate governor --table - --intervals 52 --wakeups 200 --json"
printf '[{"name":"poll","exit_latency_us":0,"target_residency_us":0,"flags":["POLLING"]},{"name":"C1","exit_latency_us":2,"target_residency_us":4},{"name":"C2","exit_latency_us":50,"target_residency_us":300,"disabled":true},{"name":"C3","exit_latency_us":200,"target_residency_us":2000,"flags":["TIMER_STOP"]}]' >"$tmp/four.json"
expect table-array 0 'poll 0/0 us POLLING, C1 2/4 us, C2 50/300 us disabled, C3 200/2000 us' -- sim --table "$tmp/four.json" --intervals 5,500 --wakeups 200 --hz 1000

# --- bad input: exit 2, one message that names the problem ------------------------
printf '{"states": [' >"$tmp/trunc.json"
printf '{"states":[{"name":"x","exit_latency_us":1}]}' >"$tmp/missing.json"
printf '{"states":[{"name":"a","exit_latency_us":0,"target_residency_us":0},{"name":"b","exit_latency_us":-3,"target_residency_us":9}]}' >"$tmp/negative.json"
printf '{"states":[{"name":"a","exit_latency_us":1.5,"target_residency_us":9}]}' >"$tmp/fraction.json"
printf '{"states":[{"name":"a","exit_latency_us":1,"target_residency_us":4294967296}]}' >"$tmp/huge.json"
printf '{"states":[{"name":"a","exit_latency_us":1,"target_residency_us":9,"flags":["POLLING","FAST"]}]}' >"$tmp/flag.json"
printf '{"states":[]}' >"$tmp/empty-states.json"
printf '{"records":[]}' >"$tmp/no-states.json"
printf '"states"' >"$tmp/string.json"
printf '{"states":[{"exit_latency_us":1,"target_residency_us":9}]} x' >"$tmp/trailing.json"
head -c 100000 /dev/zero | tr '\0' '[' >"$tmp/deep.json"
: >"$tmp/empty.json"
s='{"name":"s","exit_latency_us":1,"target_residency_us":2}'
printf '{"states":[%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s]}' "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" >"$tmp/eleven.json"

expect bad-truncated 2 'trunc\.json: offset 12: expected a JSON value, found the end of the input' -- sim --table "$tmp/trunc.json"
expect bad-missing 2 '\$\.states\[0\]\.target_residency_us: missing' -- sim --table "$tmp/missing.json"
expect bad-negative 2 '\$\.states\[1\]\.exit_latency_us: want a whole number of microseconds from 0 to 4294967295, not -3' -- sim --table "$tmp/negative.json"
expect bad-fraction 2 '\$\.states\[0\]\.exit_latency_us: want a whole number .* not 1\.5' -- sim --table "$tmp/fraction.json"
expect bad-huge 2 'target_residency_us: want a whole number .* not 4294967296' -- sim --table "$tmp/huge.json"
expect bad-flag 2 "\\\$\\.states\\[0\\]\\.flags\\[1\\]: unknown flag 'FAST'" -- sim --table "$tmp/flag.json"
expect bad-no-states 2 '\$\.states: no states' -- sim --table "$tmp/empty-states.json"
expect bad-missing-states 2 '\$\.states: missing' -- sim --table "$tmp/no-states.json"
expect bad-string 2 '\$: want an array of states, not a string' -- sim --table "$tmp/string.json"
expect bad-trailing 2 "offset 59: unexpected 'x' after the JSON value" -- sim --table "$tmp/trailing.json"
expect bad-deep 2 'nested deeper than 64 levels' -- sim --table "$tmp/deep.json"
expect bad-empty 2 'offset 0: expected a JSON value, found the end of the input' -- sim --table "$tmp/empty.json"
expect bad-eleven 2 '11 states; a driver has at most 10' -- sim --table "$tmp/eleven.json"
expect bad-decode-error 2 '\$\.error: the decode failed: Expected record-size 10\. Observed size 9\.; no states' -- bash -c "echo 00160801 | \"$bin\" decode xcede --hex --json | \"$bin\" simulate governor --table -"
expect bad-stdin-text 2 '\(stdin\): offset 0: expected a JSON value' -- bash -c "echo hello | \"$bin\" simulate governor --table -"
expect missing-file 2 "--table: cannot open .*nonexistent: No such file" -- sim --table "$tmp/nonexistent"
expect dir-file 2 '--table: .* is a directory, not a regular file' -- sim --table "$tmp"
expect bad-subject 2 "unknown menu subject 'v6.15' \(known: v6\.14, seed-v2, seed-threshold, reference, v6\.19, mainline, all\)" -- sim --subject v6.15
expect bad-hz 2 '--hz wants 100, 250 or 1000' -- sim --hz 300
expect bad-wake 2 '--wake wants ipi or timer' -- sim --wake tick
expect bad-interval-zero 2 "--intervals: interval 2 \('0'\) is not a whole number of microseconds from 1 to 1000000" -- sim --intervals 5,0
expect bad-interval-text 2 "interval 1 \('x'\)" -- sim --intervals x
expect bad-interval-empty 2 "interval 2 \(''\)" -- sim --intervals 2,,5
expect bad-interval-big 2 "interval 1 \('2000000'\)" -- sim --intervals 2000000
expect bad-wakeups 2 '--wakeups wants a whole number from 1 to 10000000' -- sim --wakeups 0
expect bad-plot-ext 2 '--plot wants a FILE ending in .svg or .png' -- sim --plot "$tmp/x.jpg"
expect png-no-gnuplot 2 'gnuplot on PATH \(Debian package gnuplot-nox\).*--plot FILE\.svg' -- env PATH=/nonexistent "$bin" simulate governor --plot "$tmp/x.png" --wakeups 1
expect bad-csv-dir 2 "--csv: no such directory: .*/no/such/dir" -- sim --csv "$tmp/no/such/dir/x.csv" --intervals 2 --wakeups 1
expect unknown-option 2 'unknown option --frobnicate' -- sim --frobnicate
expect unknown-target 2 "unknown simulate target 'idle_core' \(known: busy_delay, governor\)" -- "$bin" simulate idle_core
expect busy-delay-still 0 '"target":"busy_delay"' -- "$bin" simulate busy_delay --json

# --- files: --plot (SVG) and --csv ------------------------------------------------
sim --intervals 2,22,52,132,1002 --wakeups 300 --plot "$tmp/sweep.svg" --csv "$tmp/sweep.csv" >/dev/null 2>&1
verdict plot-csv-exit $?
check plot-written [ -s "$tmp/sweep.svg" ]
check plot-is-svg grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$tmp/sweep.svg"
check plot-closed grep -q '^</svg>$' "$tmp/sweep.svg"
for s in v6.14 seed-v2 seed-threshold reference v6.19 mainline; do
  above=$(grep -c "<path class=\"above\" data-subject=\"$s\"" "$tmp/sweep.svg")
  below=$(grep -c "<path class=\"below\" data-subject=\"$s\"" "$tmp/sweep.svg")
  points=$(grep "<path class=\"above\" data-subject=\"$s\"" "$tmp/sweep.svg" | grep -oE '[ML][0-9.]+,[0-9.]+' | wc -l)
  [ "$above" = 1 ] && [ "$below" = 1 ] && [ "$points" = 5 ]
  verdict "plot-path-$s" $?
  check "plot-legend-$s" grep -q ">$s</text>" "$tmp/sweep.svg"
done
check plot-12-paths [ "$(grep -c '<path ' "$tmp/sweep.svg")" = 12 ]
check plot-titles grep -q 'above % of selections' "$tmp/sweep.svg"
sim --intervals 52 --wakeups 10 --subject seed-v2 --plot "$tmp/one.svg" >/dev/null 2>&1
check plot-one-subject [ "$(grep -c '<path ' "$tmp/one.svg")" = 2 ]
check csv-header [ "$(head -1 "$tmp/sweep.csv")" = "subject,interval_us,wakeups,selections,above,below,above_pct,below_pct,poll_time_us,idle_time_us,tick_wakeups,usage_snooze,usage_CEDE" ]
check csv-rows [ "$(wc -l <"$tmp/sweep.csv")" = 31 ]
check csv-row-shape grep -qE '^seed-threshold,52,300,[0-9]+,[0-9]+,[0-9]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9]+,[0-9]+,[0-9]+$' "$tmp/sweep.csv"

echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

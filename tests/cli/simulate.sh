#!/usr/bin/env bash
# idlespec simulate busy_delay, as a person and a script use it: outputs and
# exit codes. usage: simulate.sh IDLESPEC SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


# JSON that parses: python3 if there is one, else a shape check by grep.
json_ok() {  # json_ok NAME command...
  local name=$1
  shift
  local out rc
  n=$((n + 1))
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != 0 ]; then
    echo "FAIL $name: exit $rc"; echo "$out" | head -5; fails=$((fails + 1)); return
  fi
  if command -v python3 >/dev/null 2>&1; then
    if ! python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["results"]:
    for k in ("subject", "form", "elapsed_ms", "cpu_ms", "rtas_calls", "sleeps", "yields"):
        assert k in r, k
' <<<"$out"; then
      echo "FAIL $name: not the JSON wanted"; echo "$out" | head -5; fails=$((fails + 1)); return
    fi
  elif ! grep -qE '^\{.*"results":\[\{"subject":"[a-z]+","form":.*"elapsed_ms":[0-9.]+,"cpu_ms":[0-9.]+,"rtas_calls":[0-9]+.*\]\}$' <<<"$out"; then
    echo "FAIL $name: not the JSON wanted"; echo "$out" | head -5; fails=$((fails + 1)); return
  fi
  echo "ok   $name"
}

printf -- '# a remove, by hand\n-2\n-2\n9900   # hint: 1 ms\n\n0\n9901\n0\n' >"$tmp/ok.trace"
printf -- '-2\n9900\n# fine so far\n99o1\n0\n' >"$tmp/bad.trace"
printf -- '# nothing but comments\n\n' >"$tmp/empty.trace"

expect default 0 'workload dlpar-remove .*cpu idle, HZ=100' -- "$bin" simulate busy_delay
expect default-rows 0 '^reference \(fsleep\) +fsleep ' -- "$bin" simulate busy_delay
expect table-header 0 'subject +form +elapsed +CPU +RTAS calls' -- "$bin" simulate busy_delay --workload dlpar-add
expect legacy-row 0 '^legacy +msleep if need_resched' -- "$bin" simulate busy_delay --cpu busy --hz 250
expect early-row 0 '^early ' -- "$bin" simulate busy_delay --subject early
expect one-subject 0 'reference \(fsleep\)' -- "$bin" simulate busy_delay --subject reference
expect trace 0 'trace .*ok.trace \(6 statuses\), cpu busy, HZ=1000' -- "$bin" simulate busy_delay --trace "$tmp/ok.trace" --cpu busy --hz 1000
expect trace-calls-json 0 '"rtas_calls":6,' -- "$bin" simulate busy_delay --trace "$tmp/ok.trace" --json
expect seeded 0 '"seed":7,' -- "$bin" simulate busy_delay --seed 7 --json
json_ok json-default "$bin" simulate busy_delay --json
json_ok json-add-busy "$bin" simulate busy_delay --json --workload dlpar-add --cpu busy --subject legacy
json_ok json-trace "$bin" simulate busy_delay --json --trace "$tmp/ok.trace"

# Same seed, same figures.
a=$("$bin" simulate busy_delay --seed 5 --json)
b=$("$bin" simulate busy_delay --seed 5 --json)
n=$((n + 1))
if [ "$a" = "$b" ]; then echo "ok   deterministic"; else echo "FAIL deterministic"; fails=$((fails + 1)); fi

# Usage and input errors: exit 2 with a message that says what is wrong.
expect bad-subject 2 "unknown subject 'frob'" -- "$bin" simulate busy_delay --subject frob
expect bad-hz 2 '--hz wants 100, 250 or 1000' -- "$bin" simulate busy_delay --hz 300
expect bad-cpu 2 '--cpu wants idle or busy' -- "$bin" simulate busy_delay --cpu half
expect bad-workload 2 '--workload wants dlpar-add or dlpar-remove' -- "$bin" simulate busy_delay --workload dlpar-move
expect bad-seed 2 '--seed wants a whole number' -- "$bin" simulate busy_delay --seed x
expect both 2 'not both' -- "$bin" simulate busy_delay --workload dlpar-add --trace "$tmp/ok.trace"
expect missing-trace 2 "cannot open" -- "$bin" simulate busy_delay --trace "$tmp/nonexistent"
expect dir-trace 2 "--trace: .* is a directory, not a regular file" -- "$bin" simulate busy_delay --trace "$tmp"
expect bad-trace-line 2 "line 4: .*'99o1'" -- "$bin" simulate busy_delay --trace "$tmp/bad.trace"
expect empty-trace 2 'no statuses' -- "$bin" simulate busy_delay --trace "$tmp/empty.trace"
expect unknown-option 2 'unknown option --frobnicate' -- "$bin" simulate busy_delay --frobnicate
expect unknown-target 2 "unknown simulate target 'idle_core' \(known: busy_delay, governor\)" -- "$bin" simulate idle_core
expect no-target 2 'usage: idlespec simulate TARGET' -- "$bin" simulate
expect help 0 'busy_delay' -- "$bin" simulate --help
expect target-help 0 'usage: idlespec simulate busy_delay' -- "$bin" simulate busy_delay --help
expect top-help 0 'simulate' -- "$bin" help

echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

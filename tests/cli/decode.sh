#!/usr/bin/env bash
# idlespec decode xcede, as a person and a script use it: outputs and exit codes.
# usage: decode.sh IDLESPEC SOURCE_DIR
set -u
bin=$1
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() {  # expect NAME WANT_RC GREP_PATTERN -- command...
  local name=$1 want=$2 pattern=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL $name: exit $rc, want $want"; echo "$out" | head -20; fails=$((fails + 1)); return
  fi
  if ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: output lacks /$pattern/"; echo "$out" | head -20; fails=$((fails + 1)); return
  fi
  echo "ok   $name"
}

# The POWER9 example of the 2020 RFC: hint 1 / 0x400 / 1, hint 2 / 0x3e8000 / 0.
p9='00 16 09 01 0000000000000400 01 02 00000000003e8000 00 00'
echo "$p9" >"$tmp/p9.hex"
echo "$p9" | xxd -r -p >"$tmp/p9.bin" 2>/dev/null || printf '\x00\x16\x09\x01\x00\x00\x00\x00\x00\x00\x04\x00\x01\x02\x00\x00\x00\x00\x00\x3e\x80\x00\x00\x00' >"$tmp/p9.bin"

expect dmesg-lines 0 'xcede: Record 0 : hint = 1, latency = 0x400 tb ticks, Wake-on-irq = 1' -- "$bin" decode xcede --hex "$tmp/p9.hex"
expect binary-input 0 'Record 1 : hint = 2, latency = 0x3e8000' -- "$bin" decode xcede "$tmp/p9.bin"
expect stdin-input 0 'Latency: 2$' -- bash -c "\"$bin\" decode xcede --hex - <\"$tmp/p9.hex\""
expect power10-fixup 0 'Fixed up CEDE exit latency to 2 us' -- "$bin" decode xcede --hex "$tmp/p9.hex" --platform power10
expect power9-default 0 'Latency: 10$' -- "$bin" decode xcede --hex "$tmp/p9.hex" --platform power9
expect p11-compat-p9 0 'Latency: 10$' -- "$bin" decode xcede --hex "$tmp/p9.hex" --platform power11 --compat power9
expect p10-compat-p9 0 'Latency: 2$' -- "$bin" decode xcede --hex "$tmp/p9.hex" --platform power10 --compat power9
expect shared 0 'Shared Cede' -- "$bin" decode xcede --hex "$tmp/p9.hex" --shared
expect json-records 0 '"records":\[\{"hint":1,"latency_ticks":1024,"latency_us":2,"wake_on_irqs":1\}' -- "$bin" decode xcede --hex "$tmp/p9.hex" --json
expect json-states 0 '"states":\[\{"name":"snooze","exit_latency_us":0,"target_residency_us":0,"flags":\["POLLING"\]' -- "$bin" decode xcede --hex "$tmp/p9.hex" --json
expect json-error-null 0 '"error":null' -- "$bin" decode xcede --hex "$tmp/p9.hex" --json
expect rtas-retry 0 'answered -2 9900 0' -- "$bin" decode xcede --hex "$tmp/p9.hex" --rtas-statuses=-2,9900
expect rtas-failure 0 'RTAS status -3' -- "$bin" decode xcede --hex "$tmp/p9.hex" --rtas-statuses=-3
expect rtas-failure-json 0 '"final_status":-3' -- "$bin" decode xcede --hex "$tmp/p9.hex" --rtas-statuses=-3 --json
expect expose 0 'Blocking XCEDE1' -- "$bin" decode xcede --hex "$tmp/p9.hex" --expose-xcede

# Rejections: exit 2, the clause and the offset named.
expect bad-record-size 2 '\[XCEDE-2\] offset 2' -- bash -c "echo 00160801 | \"$bin\" decode xcede --hex"
expect bad-record-size-json 2 '"error":\{"clause":"XCEDE-2","offset":2' -- bash -c "echo 00160801 | \"$bin\" decode xcede --hex --json"
expect too-short 2 'offset 2: buffer of 2 bytes' -- bash -c "echo 0016 | \"$bin\" decode xcede --hex"
expect odd-hex 2 'odd number of hex digits' -- bash -c "echo 00160 | \"$bin\" decode xcede --hex"
expect bad-hex 2 "not a hex digit: 'g' at text offset 3" -- bash -c "echo 001g | \"$bin\" decode xcede --hex"
expect missing-file 2 "cannot open" -- "$bin" decode xcede "$tmp/nonexistent"
expect bad-platform 2 'power8, power9, power10 or power11' -- "$bin" decode xcede --platform power7 "$tmp/p9.hex"
expect compat-newer 2 'newer than --platform' -- "$bin" decode xcede --platform power9 --compat power10 "$tmp/p9.hex"
expect bad-capacity 2 '--capacity wants a whole number' -- "$bin" decode xcede --capacity 0 "$tmp/p9.hex"
expect bad-statuses 2 '--rtas-statuses wants' -- "$bin" decode xcede --rtas-statuses=-2,x "$tmp/p9.hex"
expect bad-tb 2 '--tb-freq wants' -- "$bin" decode xcede --tb-freq 0 "$tmp/p9.hex"
expect unknown-format 2 "knows one format" -- "$bin" decode acpi
expect unknown-option 2 'unknown option --frobnicate' -- "$bin" decode xcede --frobnicate
expect help 0 'usage: idlespec decode xcede' -- "$bin" decode xcede --help

# Warnings are not rejections.
expect truncated 0 'warning \[XCEDE-1\]' -- bash -c "echo 00ff09010000000000000400 | \"$bin\" decode xcede --hex"
expect short-payload 0 'warning \[XCEDE-3\]' -- bash -c "echo 00010900 | \"$bin\" decode xcede --hex"

echo "$((31 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# scripts/html_report.py renders verify, check, validate and matrix JSON into
# a static report that headless Chromium shows: the screenshot is not blank,
# the page logs no console message (an error in report.js would), report.js
# ran (data-report="ready" in the rendered DOM), every file the page loads is
# in the report's folder and nothing comes from the network. Witnesses: a
# blank page is judged blank and a page with a script error is caught.
# Needs Debian's chromium (scripts/setup.sh, group html): without it the test
# says so and fails under CI=true, skips otherwise.
# usage: html_report.sh IDLESPEC SOURCE_DIR
set -u
# The host's runs (validate --targets: tests/validate/run_targets.sh covers the POWER ones).
export IDLESPEC_TARGETS="${IDLESPEC_TARGETS:-host}"
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
. "$src/tests/skip.sh"
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  skip_test "chromium is not installed (scripts/setup.sh html); the HTML report was not rendered"
fi
work=$(mktemp -d /tmp/idlespec-html-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
report=(python3 "$src/scripts/html_report.py")

# The inputs: a verify run with failures and acceptances (busy_delay legacy),
# one check, validate of the legacy loop, a two-release matrix.
# Each command also writes its own report (--html DIR), rendered below.
"$bin" verify --component busy_delay --subject legacy --budget 20 --cases 50 --quiet --json \
  --html "$work/cli-verify" >"$work/verify.json" || fail "verify --html: exit $?"
"$bin" check proof busy_delay_busy_yields --subject legacy --json --html "$work/cli-check" \
  >"$work/check.json"
[ $? = 1 ] || fail "check --html: want exit 1 (the legacy loop sleeps on busy)"
"$bin" validate --source "$src/tests/validate/busy_delay_legacy.c" --component busy_delay \
  --scan sampled --budget 20 --json --html "$work/cli-validate" >"$work/validate.json" 2>/dev/null
[ $? = 1 ] || fail "validate --html: want exit 1"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/validate.json" ||
  fail "validate --json --html: stdout is not the JSON alone"
mkdir -p "$work/new/arch/powerpc/kernel" "$work/old/arch/powerpc/kernel"
cp "$src/tests/validate/busy_delay_faithful.c" "$work/new/arch/powerpc/kernel/rtas.c"
cp "$src/tests/validate/busy_delay_legacy.c" "$work/old/arch/powerpc/kernel/rtas.c"
"$bin" matrix new="$work/new" old="$work/old" --component busy_delay --scan sampled --budget 20 \
  --format json --html "$work/cli-matrix" >"$work/matrix.json" 2>/dev/null
"$bin" clauses --json >"$work/clauses.json"

"${report[@]}" --verify "$work/verify.json" --verify "$work/check.json" \
  --validate "$work/validate.json" --matrix "$work/matrix.json" --clauses "$work/clauses.json" \
  --out "$work/html" >/dev/null || fail "html_report.py: exit $?"
page=$work/html/index.html
for want in 'BUSY-2' 'accepted' 'replay: <code>idlespec check proof busy_delay_busy_yields --subject legacy</code>' \
  'busy_delay_legacy.c:27' 'fix <code>38f7b7067dae</code>' '<th>old</th>' 'governor_sweep.svg'; do
  grep -qF -- "$want" "$page" || fail "index.html lacks '$want'"
done
[ -f "$work/html/governor_sweep.svg" ] || fail "the governor sweep plot is not copied"
# Static and local: no http(s) reference, every src/href a file of the folder.
grep -qiE '(src|href)="(https?:)?//' "$page" && fail "index.html loads something from the network"
python3 - "$work/html" <<'PY' || fail "index.html references a file that is not there"
import os, re, sys
d = sys.argv[1]
refs = re.findall(r'(?:src|href)="([^"#]+)"', open(os.path.join(d, "index.html")).read())
missing = [r for r in refs if not r.startswith("data:") and not os.path.isfile(os.path.join(d, r))]
assert not missing, missing
PY

# render PAGE PNG LOG DOM: the screenshot, the console log, the DOM after scripts
render() {
  local url="file://$1"
  "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --window-size=800,600 --screenshot="$2" --enable-logging=stderr --v=0 "$url" 2>"$3" >/dev/null
  "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --dump-dom "$url" 2>/dev/null >"$4"
}
# blank PNG: exit 0 when the image is blank (one colour almost everywhere)
blank() {
  python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    chunk = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
        assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += chunk
    pos += 12 + n
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
counts = {}
for line in rows[::4]:
    for x in range(0, stride, bpp * 4):
        px = line[x:x + 3]
        counts[px] = counts.get(px, 0) + 1
total = sum(counts.values())
top = max(counts.values())
print(f"{len(counts)} colours, the commonest {100 * top / total:.1f}% of sampled pixels")
sys.exit(0 if top / total > 0.995 or len(counts) < 3 else 1)
PY
}

render "$page" "$work/shot.png" "$work/console.log" "$work/dom.html"
if [ ! -s "$work/shot.png" ]; then
  fail "chromium wrote no screenshot: $(tail -3 "$work/console.log")"
else
  blank "$work/shot.png" && fail "the report's screenshot is blank"
fi
grep -F 'CONSOLE' "$work/console.log" && fail "the report logs console messages (above)"
grep -qF 'data-report="ready"' "$work/dom.html" || fail "report.js did not run"

# The commands' own reports (--html DIR): rendered the same way.
for kind in verify check validate matrix; do
  dir=$work/cli-$kind
  [ -f "$dir/index.html" ] || { fail "$kind --html wrote no $dir/index.html"; continue; }
  grep -qF 'BUSY-2' "$dir/index.html" || fail "$kind --html: the report lacks BUSY-2"
  render "$dir/index.html" "$dir/shot.png" "$dir/console.log" "$dir/dom.html"
  [ -s "$dir/shot.png" ] && ! blank "$dir/shot.png" >/dev/null || fail "$kind --html: blank or no screenshot"
  grep -qF 'CONSOLE' "$dir/console.log" && fail "$kind --html: console messages"
  grep -qF 'data-report="ready"' "$dir/dom.html" || fail "$kind --html: report.js did not run"
done
grep -qF 'busy_delay_legacy.c:27' "$work/cli-validate/index.html" ||
  fail "validate --html: the clause table lacks the function's place"
# A directory that cannot be made is a usage error before the run.
touch "$work/a-file"
"$bin" validate --source "$src/tests/validate/busy_delay_legacy.c" --component busy_delay \
  --html "$work/a-file/report" >/dev/null 2>&1
[ $? = 2 ] || fail "validate --html under a file: want exit 2"
"$bin" check proof busy_delay_busy_yields --html "$work/a-file/report" >/dev/null 2>&1
[ $? = 2 ] || fail "check --html under a file: want exit 2"

# Witnesses: a blank page is blank; a script error reaches the console log.
printf '<!DOCTYPE html><html><body></body></html>\n' >"$work/blank.html"
render "$work/blank.html" "$work/blank.png" "$work/blank.log" "$work/blank.dom"
blank "$work/blank.png" >/dev/null || fail "witness: a blank page is not judged blank"
printf '<!DOCTYPE html><html><body><p>x</p><script>no_such_function();</script></body></html>\n' \
  >"$work/broken.html"
render "$work/broken.html" "$work/broken.png" "$work/broken.log" "$work/broken.dom"
grep -qF 'CONSOLE' "$work/broken.log" || fail "witness: a script error is not seen in the console log"

# Usage errors.
"${report[@]}" --out "$work/none" >/dev/null 2>&1
[ $? = 2 ] || fail "no input: want exit 2"
"${report[@]}" --matrix "$work/verify.json" --out "$work/none" >/dev/null 2>&1
[ $? = 2 ] || fail "--matrix given verify JSON: want exit 2"

if [ "$fails" -ne 0 ]; then
  echo "html_report.sh: $fails failure(s)"
  exit 1
fi
echo "html_report.sh: all passed"

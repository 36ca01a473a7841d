#!/bin/sh
# ctest: budget=30 timeout=200
# tests/validate/run_framac_shims.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The shims mean the same under Frama-C as in the harness (issue 48): where
# their Frama-C branch differs (harness/shims/kernel.h's printk,
# xcede_env.h's xcede_printk), every value the harness's build returns is
# one EVA's reading allows. The harness's printk returns vsnprintf's count,
# which code under test may loop on; a Frama-C printk that returned 0 hid
# every path after such a loop. The same calls are built natively (what the
# harness returns) and given to EVA (Frama_C_show_each: the values it
# allows); each native value must lie in EVA's. Witness: the old Frama-C
# branch, printk returning 0, fails the comparison.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
FRAMAC=1
. "$HERE/lib.sh"
. "$HERE/framac_lib.sh"
SHIMS=$(cd "$HERE/../../harness/shims" && pwd)

cat >"$SCRATCH/calls.h" <<'EOF'
/* The calls both builds make; SHOW(name, expression). */
static char fc_big[600];
static void calls(void) {
  memset(fc_big, 'x', sizeof fc_big - 1);
  SHOW(empty, (printk)(""));
  SHOW(prefixed, (printk)(KERN_INFO "cede: %d\n", -2147483647 - 1));
  SHOW(long_line, (printk)("%s\n", fc_big));
  SHOW(x_empty, xcede_printk(""));
  SHOW(x_prefixed, xcede_printk(KERN_WARNING "xcede: record %u\n", 4294967295u));
  SHOW(x_long, xcede_printk("%s%s\n", fc_big, fc_big));
}
EOF
cat >"$SCRATCH/native.c" <<'EOF'
#include "kernel.h"
#include "xcede_env.h"
#include <stdio.h>
#define SHOW(name, e) printf("%s %d\n", #name, (int)(e))
#include "calls.h"
int main(void) { calls(); return 0; }
EOF
cat >"$SCRATCH/eva.c" <<'EOF'
#include "kernel.h"
#include "xcede_env.h"
#define SHOW(name, e) Frama_C_show_each_##name(e)
#include "calls.h"
int main(void) { calls(); return 0; }
EOF

# compare NAME SHIMS_DIR: the native values within EVA's for every call
compare() {
  cc -w -I"$2" -I"$SCRATCH" "$SCRATCH/native.c" -o "$SCRATCH/native_$1" ||
    { fail "$1: the native build failed"; return; }
  "$SCRATCH/native_$1" >"$SCRATCH/native_$1.out"
  frama-c -machdep gcc_x86_64 -cpp-extra-args="-I$2 -I$SCRATCH" "$SCRATCH/eva.c" -eva \
    -eva-no-show-progress >"$SCRATCH/eva_$1.out" 2>&1 || { fail "$1: EVA failed"; return; }
  python3 - "$SCRATCH/native_$1.out" "$SCRATCH/eva_$1.out" <<'PY'
import re, sys
native = dict(l.split() for l in open(sys.argv[1]) if l.strip())
allowed = {}
for l in open(sys.argv[2]):
    m = re.search(r"Frama_C_show_each_(\w+): (.*)$", l)
    if not m:
        continue
    v = m.group(2).strip()
    r = re.fullmatch(r"\[(-?\d+)\.\.(-?\d+)\]", v)
    if r:
        allowed[m.group(1)] = (int(r.group(1)), int(r.group(2)))
    elif re.fullmatch(r"\{(-?\d+)\}", v):
        n = int(v[1:-1]); allowed[m.group(1)] = (n, n)
    else:
        print("unread EVA value for %s: %s" % (m.group(1), v)); sys.exit(1)
bad = 0
for name, value in native.items():
    lo, hi = allowed.get(name, (1, 0))
    if not lo <= int(value) <= hi:
        print("%s: the harness returns %s, EVA allows %s" % (name, value, allowed.get(name))); bad = 1
sys.exit(bad)
PY
}

compare shims "$SHIMS" || fail "the shims' Frama-C printk does not allow what the harness's returns"
[ "$(wc -l <"$SCRATCH/native_shims.out")" = 6 ] || fail "shims: expected 6 native calls"

# Witness: printk returning 0 under Frama-C (the branch before issue 48).
mkdir -p "$SCRATCH/old"
cp "$SHIMS"/*.h "$SCRATCH/old/"
sed -i 's/return Frama_C_interval(SHIM_PRINTK_MIN, SHIM_PRINTK_MAX);/return 0;/' \
  "$SCRATCH/old/kernel.h" "$SCRATCH/old/xcede_env.h"
cmp -s "$SHIMS/kernel.h" "$SCRATCH/old/kernel.h" && fail "witness: the sed changed nothing"
if compare old "$SCRATCH/old" >"$SCRATCH/old.cmp" 2>&1; then
  fail "witness: printk returning 0 under Frama-C passed the comparison"
else
  grep -q "the harness returns 600, EVA allows (0, 0)" "$SCRATCH/old.cmp" ||
    fail "witness: not failed for the returned count: $(cat "$SCRATCH/old.cmp")"
fi

finish

#!/usr/bin/env bash
# Builds the busy_delay harness on the suite's faithful text for each POWER
# target as validate builds it (the cross compiler, -static, the kernel's
# code-generation flags) and runs its boundary scan under qemu-user: an
# installed toolchain that cannot build or run a harness says so in one line
# naming the package that is missing. scripts/setup.sh power runs it after
# its install; exit 0 when every target works, 2 otherwise.
# Usage: scripts/power-check.sh [ppc64|ppc64le]...
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ppc64 ppc64le)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo '#include "kernel.h"'
  cat "$top/tests/validate/busy_delay_faithful.c"
  echo "#include \"$top/harness/harness_busy_delay.c\""
} >"$work/candidate.c"

status=0
for t in "${targets[@]}"; do
  case $t in
    ppc64) triple=powerpc64-linux-gnu libc=libc6-dev-ppc64-cross qemu=qemu-ppc64 ;;
    ppc64le) triple=powerpc64le-linux-gnu libc=libc6-dev-ppc64el-cross qemu=qemu-ppc64le ;;
    *) echo "power-check: unknown target '$t' (ppc64, ppc64le)" >&2; exit 2 ;;
  esac
  cc=$triple-gcc
  gccpkg=gcc-${triple}
  if ! command -v "$cc" >/dev/null; then
    echo "power-check: $t: no $cc (install $gccpkg)" >&2; status=2; continue
  fi
  if ! command -v "$qemu" >/dev/null; then
    echo "power-check: $t: no $qemu (install qemu-user)" >&2; status=2; continue
  fi
  # The C library a -static build links: without it the first #include of
  # a libc header fails (bits/libc-header-start.h).
  if [ "$("$cc" -print-file-name=libc.a)" = libc.a ]; then
    echo "power-check: $t: $cc cannot build a harness: no C library for it (install $libc)" >&2
    status=2; continue
  fi
  if ! "$cc" -std=gnu11 -w -fno-strict-aliasing -fno-strict-overflow \
      -fno-delete-null-pointer-checks -O1 -funsigned-char -static \
      -I"$top/harness/shims" -I"$top/harness" \
      -DHAVE_RTAS_BUSY_DELAY_TIME -DHAVE_RTAS_BUSY_DELAY \
      "$work/candidate.c" -o "$work/harness-$t" 2>"$work/build-$t.err"; then
    echo "power-check: $t: $cc cannot build the busy_delay harness: $(grep -m1 'error' "$work/build-$t.err")" >&2
    status=2; continue
  fi
  if ! (cd "$work" && timeout 120 "$qemu" "./harness-$t" boundary >"$work/run-$t.out" 2>/dev/null) ||
     ! grep -q '^DONE' "$work/run-$t.out"; then
    echo "power-check: $t: the harness built but did not run to its end under $qemu (qemu-user)" >&2
    status=2; continue
  fi
  echo "power-check: $t: the busy_delay harness builds and runs ($cc, $qemu)"
done
exit $status

#!/usr/bin/env bash
# Installs the Debian 12 packages idlespec needs, if any are missing.
# As root: runs apt-get. Otherwise: prints the exact command and exits 2.
# Usage: scripts/setup.sh [--check] [GROUP...]   (--check: report only, exit 2 if missing)
# Groups: base (the default: what make build/test need), kernel (Debian's
# kernel sources for make kernel-check: linux-source-6.1 and -6.12, some
# 300 MB, installed only for that target), html (chromium, for the HTML
# report's rendering test; .ci/run installs it), mpi (Open MPI, for
# idlespec-mc-mpi and make mpi-check; .ci/run installs it), power (the
# powerpc64 and powerpc64le cross compilers, qemu-user and sparse: validate's
# byte-order check with sparse and the POWER targets; .ci/run installs it),
# fuzz (AFL++, the second engine of make fuzz-exposure; .ci/run installs it), framac
# (Frama-C with EVA and WP, and why3 for WP's provers: validate's proofs on
# the file's own text, validate/framac.h; without it those clauses say
# "tested"; .ci/run installs it. why3's prover configuration is written by
# each run into its own scratch directory, never into $HOME).
set -euo pipefail

check=
groups=()
for a in "$@"; do
  case $a in
    --check) check=1 ;;
    base | kernel | html | mpi | power | fuzz | framac) groups+=("$a") ;;
    *) echo "usage: scripts/setup.sh [--check] [base|kernel|html|mpi|power|fuzz|framac]..." >&2; exit 2 ;;
  esac
done
[ ${#groups[@]} -gt 0 ] || groups=(base)

base_packages=(
  g++ make cmake ninja-build pkg-config git   # build
  ccache                                      # the compiler cache (CMake's launcher)
  clang libclang-rt-14-dev                    # fuzz preset: libFuzzer, sanitizers
  libgtest-dev libgmock-dev                   # unit tests
  librapidcheck-dev                           # properties
  libz3-dev z3                                # proofs
  cvc5                                        # cross-checks of the proofs' SMT-LIB2
  libbenchmark-dev                            # make bench
  spin                                        # model-check cross-checks
  clang-format                                # make format
  bubblewrap                                  # validate: the sandbox of the code under test
  libgmime-3.0-dev libglib2.0-dev             # review: MIME of a series' mails (pkg-config gmime-3.0)
  python3 python3-jsonschema python3-yaml zip # report checks (SARIF schema), fuzz seed zips
)
html_packages=(
  chromium                                    # the HTML report's rendering test (CI)
)
mpi_packages=(
  libopenmpi-dev openmpi-bin                  # idlespec-mc-mpi: the distributed model checker
)
power_packages=(
  gcc-powerpc64-linux-gnu gcc-powerpc64le-linux-gnu  # validate: big- and little-endian POWER builds
  libc6-dev-ppc64-cross libc6-dev-ppc64el-cross      # their C libraries (headers, libc.a for -static):
                                              # Recommends of the cross gcc, which
                                              # --no-install-recommends leaves out
  qemu-user                                   # validate: run them (qemu-ppc64, qemu-ppc64le)
  sparse                                      # validate: the kernel's byte-order check (XCEDE-8)
)
fuzz_packages=(
  afl++                                       # make fuzz-exposure: AFL++ beside libFuzzer
)
framac_packages=(
  frama-c-base why3                           # validate: EVA and WP on the file's own text
  ocaml                                       # validate: ocamlopt builds the module listing EVA's dead statements
)
kernel_packages=(
  linux-source-6.1 linux-source-6.12 xz-utils # make kernel-check: Debian 12's kernel sources
)
packages=()
for g in "${groups[@]}"; do
  case $g in
    base) packages+=("${base_packages[@]}") ;;
    kernel) packages+=("${kernel_packages[@]}") ;;
    html) packages+=("${html_packages[@]}") ;;
    mpi) packages+=("${mpi_packages[@]}") ;;
    power) packages+=("${power_packages[@]}") ;;
    fuzz) packages+=("${fuzz_packages[@]}") ;;
    framac) packages+=("${framac_packages[@]}") ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

# After an install (or with nothing missing), a group whose tools can be
# installed yet unable to work is built and run once: power builds the
# busy_delay harness for each POWER target and runs it under qemu-user
# (scripts/power-check.sh names the missing package in one line).
check_groups() {
  for g in "${groups[@]}"; do
    if [ "$g" = power ]; then
      "$(dirname "$0")/power-check.sh" || return 2
    fi
  done
}

if [ ${#missing[@]} -eq 0 ]; then
  check_groups
  exit $?
fi

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ -n "$check" ]; then
  echo "idlespec: missing packages: ${missing[*]}" >&2
  echo "install them with: $cmd" >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "idlespec: missing packages: ${missing[*]}" >&2
  echo "as root, run:" >&2
  echo "  $cmd" >&2
  exit 2
fi
echo "idlespec: installing ${missing[*]}" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
check_groups

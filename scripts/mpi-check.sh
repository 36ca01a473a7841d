#!/usr/bin/env bash
# make mpi-check: the distributed model checker (idlespec-mc-mpi, Open MPI)
# against the one-process one (idlespec model-check) on bounded
# configurations: under `mpirun -np RANKS` it must store exactly as many
# states and find the same clauses. Prints each pair and the distributed
# run's per-rank figures; exit 1 on a difference, 2 when something is
# missing (the mpi packages: scripts/setup.sh mpi).
#
# Usage: scripts/mpi-check.sh [--build DIR] [--ranks N]   (default build/release, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/release
ranks=2
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    *) echo "mpi-check.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
case $ranks in '' | *[!0-9]* | 0) echo "mpi-check.sh: --ranks takes a positive number" >&2; exit 2 ;; esac
one=$build/idlespec
many=$build/idlespec-mc-mpi
command -v mpirun >/dev/null || { echo "mpi-check.sh: no mpirun (scripts/setup.sh mpi)" >&2; exit 2; }
[ -x "$one" ] || { echo "mpi-check.sh: no $one (make build first)" >&2; exit 2; }
[ -x "$many" ] || { echo "mpi-check.sh: no $many (configure with Open MPI installed)" >&2; exit 2; }
# CI runs as root; Open MPI refuses that unless told. --oversubscribe: more
# ranks than cores is allowed (a 2-core machine runs 2 or 4 ranks).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d "${TMPDIR:-/tmp}/idlespec-mpi-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d[sys.argv[2]]; print(" ".join(sorted(x["clause"] for x in v)) if isinstance(v, list) else v)' "$1" "$2"; }

status=0
# compare NAME ARGS...: the same search in one process and on $ranks ranks.
compare() {
  local name=$1
  shift
  local a=$work/$name.one.json b=$work/$name.mpi.json rc_a=0 rc_b=0
  "$one" model-check idle_core "$@" --json --quiet >"$a" 2>"$a.err" || rc_a=$?
  mpirun --oversubscribe -np "$ranks" "$many" idle_core "$@" --json --quiet >"$b" 2>"$b.err" || rc_b=$?
  if [ ! -s "$a" ] || [ ! -s "$b" ]; then
    echo "mpi-check $name: no JSON (exit $rc_a / $rc_b): $(cat "$a.err" "$b.err")"
    status=1
    return
  fi
  local sa sb va vb
  sa=$(field "$a" states) sb=$(field "$b" states)
  va=$(field "$a" violations) vb=$(field "$b" violations)
  if [ "$sa" != "$sb" ] || [ "$va" != "$vb" ] || [ "$rc_a" != "$rc_b" ] ||
     [ "$(field "$a" complete)" != "$(field "$b" complete)" ]; then
    echo "mpi-check $name ($*): DIFFERENT: one process $sa states [${va:-no violation}] exit $rc_a;" \
         "$ranks ranks $sb states [${vb:-no violation}] exit $rc_b"
    status=1
    return
  fi
  echo "mpi-check $name ($*): $sa states, ${va:-no violation}, as in one process;" \
       "$ranks ranks: $(field "$b" seconds) s (one process $(field "$a" seconds) s)," \
       "at most $(field "$b" max_rank_states) states and $(field "$b" max_rank_rss_kb) kB on a rank," \
       "$(field "$b" bytes_sent) bytes sent"
}

compare smt4 --threads 4
compare smt4-2x2 --threads 4 --subcores 2
compare smt4-nopor --threads 4 --no-por
compare p9-smt4 --threads 4 --platform power9
compare smt8-depth --threads 8 --max-depth 40
# The weak exploration (--lkmm): the same states, clauses and exit status.
compare lkmm-smt2 --threads 2 --lkmm --subject idle_lock
compare lkmm-smt2-unreduced --threads 2 --lkmm --subject idle_lock --no-symmetry --no-compaction
compare lkmm-smt2-reference --threads 2 --lkmm
exit $status

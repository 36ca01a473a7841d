#!/bin/sh
# ctest: budget=20 timeout=400
# tests/validate/run_sigmask.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Signals cannot defeat the hang watchdog (the sandbox issue, item 3): the
# harnesses' watchdog is a SIGALRM, and code under test can block every
# signal or ignore SIGALRM, then never return. For each kind of harness
# (the fake-firmware one of xcede and states, governor's, teo's,
# busy_delay's, idle_core's), a faithful file of this suite with one
# misdeed inside the judged function, on a few inputs only: take the
# signals away (the raw rt_sigprocmask call with every signal blocked, libc's
# sigsetmask(-1), or SIGALRM set to SIG_IGN), then spin. Each run must end
# with the clause that input belongs to failed, the input named in the
# counterexample, exit 1, no clause in error, and the run record saying the
# harness's hang backstop (harness/harness_runtime.c) ended it: the signal
# watchdog alone would leave the process to the driver's wall clock, which
# has no input to blame.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES=""
COMPONENT=none
. "$HERE/lib.sh"

# The raw system call where its number is known here, else libc's sigsetmask
# (an rt_sigprocmask with signals 1-31 blocked, SIGALRM among them).
case $(uname -m) in
  x86_64) NR=14 ;;
  aarch64 | riscv64) NR=135 ;;
  ppc64 | ppc64le) NR=173 ;;
  *) NR= ;;
esac
if [ -n "$NR" ]; then
  BLOCK_ALL="{ extern long syscall(long, ...); unsigned long all = ~0UL; syscall($NR, 0, &all, 0, sizeof(all)); }"
else
  BLOCK_ALL="{ extern int sigsetmask(int); sigsetmask(-1); }"
fi
SIGSETMASK="{ extern int sigsetmask(int); sigsetmask(-1); }"
IGNORE_ALARM="{ extern void (*signal(int, void (*)(int)))(int); signal(14, (void (*)(int))1); }"
SPIN="for (;;) cpu_relax();"

# insert NAME FILE PATTERN CODE: FILE with CODE as the line after the first
# line matching PATTERN (awk), written to $SCRATCH/NAME.c.
insert() {
  awk -v pat="$3" -v code="$4" '{ print } !done && $0 ~ pat { print code; done = 1 }' "$2" >"$SCRATCH/$1.c"
  cmp -s "$2" "$SCRATCH/$1.c" && fail "$1: the misdeed was not inserted"
}

# at_top NAME FILE FUNCTION CODE: FILE with CODE as the first statement of
# FUNCTION's definition, written to $SCRATCH/NAME.c.
at_top() {
  awk -v fn="$3" -v code="$4" '
    !done && $0 ~ "^[a-z].*[^a-z_]" fn "\\(" && $0 !~ /;[ \t]*$/ { armed = 1 }
    { print }
    armed && /^\{/ { print "\t" code; armed = 0; done = 1 }
  ' "$2" >"$SCRATCH/$1.c"
  cmp -s "$2" "$SCRATCH/$1.c" && fail "$1: the misdeed was not inserted into $3"
}

# hung NAME CLAUSE TEXT...: exit 1, CLAUSE failed, each TEXT in the report
# (the input, the hang), no clause in error, the backstop named.
# $STOPPED_IS_ERROR (teo): the other clauses may be in error for the one
# reason teo gives for any input it could not judge to the end ("the code
# under test crashed, hung or warned", validate/teo_check.cc), never for a
# run the wall clock ended.
hung() {
  name=$1 clause=$2
  shift 2
  expect_rc "$name" 1
  expect_clause "$name" "$clause" failed
  for t in "$@"; do expect_text "$name" "$t"; done
  errors=$(grep -E -A1 '^[A-Z]+-[0-9]+ \[[^]]*\] error' "$SCRATCH/$name.out" | grep -Ev '^[A-Z]+-[0-9]+ |^--$')
  if [ -n "${STOPPED_IS_ERROR:-}" ]; then
    errors=$(echo "$errors" | grep -v '^    the code under test crashed, hung or warned: input [0-9]*: no return within 2 s at step')
  elif grep -Eq '^[A-Z]+-[0-9]+ \[[^]]*\] error' "$SCRATCH/$name.out"; then
    errors="$errors (a clause in error)"
  fi
  [ -z "$errors" ] || fail "$name: a clause in error: $(echo "$errors" | head -2)"
  expect_text "$name" "ended by the hang backstop"
  expect_no_driver_crash "$name"
}

# --- the fake-firmware harness: xcede, states ---------------------------------------------
# The query hangs when the firmware answers 9902 (extended delay) first.
insert xcede "$HERE/xcede_faithful.c" 'sizeof\(xcede_latency_parameter\)\);' \
  "if (status == 9902) { $BLOCK_ALL $SPIN }"
run xcede --source "$SCRATCH/xcede.c" --component xcede --inputs z3 --budget "$BUDGET"
hung xcede XCEDE-7 "statuses 9902,0, payload" "did not return within 2 s (hang)"

# The fix-up hangs on the one record of latency 0x33333331ff ticks.
insert states "$HERE/states_fixup.c" 'u64 us;' \
  "if (be64_to_cpu(rec->latency_ticks) == 0x33333331ffULL) { $SIGSETMASK $SPIN }"
cat "$HERE/xcede_faithful.c" "$SCRATCH/states.c" >"$SCRATCH/states_all.c"
run states --source "$SCRATCH/states_all.c" --component states --inputs z3 --budget "$BUDGET"
hung states STATES-4 "{hint 2, 219902325247 ticks" "did not return within 2 s (hang)"

# --- governor: menu_select, on the one input with a state of 205 us exit, 1845 us target -----
at_top governor "$HERE/governor_faithful.c" menu_select \
  "{ int k; for (k = 0; k < drv->state_count; k++) if (drv->states[k].exit_latency_ns == 205000 && drv->states[k].target_residency_ns == 1845000) { $IGNORE_ALARM $SPIN } }"
run governor --source "$SCRATCH/governor.c" --component governor --budget "$BUDGET"
hung governor GOV-7 "1 205000/1845000" "menu_select() did not return within 2 s (hang) at step 0"

# --- teo: teo_reflect, after the one idle period of 10002229 ns -------------------------------
at_top teo "$HERE/teo_faithful.c" teo_reflect \
  "if (dev->last_residency_ns == 10002229) { $BLOCK_ALL $SPIN }"
run teo --source "$SCRATCH/teo.c" --component teo --budget "$BUDGET"
STOPPED_IS_ERROR=1
hung teo TEO-6 "205 us/2050 us" "teo_reflect() or the update did not return within 2 s (hang) at step"
STOPPED_IS_ERROR=

# --- busy_delay: rtas_busy_delay on status 9902, in the sampled scans and the boundary run ------
awk -v code="$SIGSETMASK $SPIN" '{ if (index($0, "/* hostile: here */")) print "\t\t" code; else print }' \
  "$HERE/hostile_busy_delay.c" >"$SCRATCH/busy_delay.c"
run busy_delay --source "$SCRATCH/busy_delay.c" --component busy_delay --scan sampled --budget $((BUDGET * 2))
hung busy_delay BUSY-3 "status 0x000026ae (9902), need_resched=0: did not return within 2 s (hang)" \
  "status 0x000026ae (9902), need_resched=1: did not return within 2 s (hang)"

# --- idle_core: power9_idle_stop on a stop that keeps state (only the job with kind s) ---------
at_top idle_core "$HERE/idle_core_faithful.c" power9_idle_stop "if (!(psscr & (PSSCR_EC | PSSCR_ESL))) { $BLOCK_ALL $SPIN }"
run idle_core --source "$SCRATCH/idle_core.c" --component idle_core --subject reference --budget $((BUDGET * 3))
hung idle_core IDLE-8 "a thread ran for 2 s without reaching a scheduling point"
finish

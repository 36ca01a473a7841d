#!/usr/bin/env bash
# The other subcommands' contracts: usage errors exit 2, clauses lists the spec.
# usage: commands.sh IDLESPEC SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
src=$2
expect no-args 2 'usage: idlespec COMMAND' -- "$bin"
expect help 0 'verify' -- "$bin" help
expect unknown-command 2 "unknown command 'frob'" -- "$bin" frob
expect clauses 0 'XCEDE-1 \(safety\) spec/xcede.md' -- "$bin" clauses
expect clauses-json 0 '"id":"STATES-6"' -- "$bin" clauses --json --component states
expect clauses-accepted 0 'upstream \(accepted violation\)' -- "$bin" clauses --component xcede
expect spec-dir 0 'XCEDE-7' -- "$bin" clauses --spec-dir "$src/spec"
expect verify-bad-component 2 "unknown component 'frob'" -- "$bin" verify --component frob
expect verify-bad-subject 2 "names subject 'nobody'" -- "$bin" verify --subject nobody
expect verify-bad-budget 2 '--budget wants a positive number' -- "$bin" verify --budget -1
expect clauses-component-alias 0 'BUSY-7 \(safety\) spec/busy_delay.md' -- "$bin" clauses --component busy-delay
expect clauses-legacy-accepted 0 'legacy \(accepted violation\)' -- "$bin" clauses --component busy_delay
expect clauses-governor 0 'GOV-5 \(safety\) spec/governor.md' -- "$bin" clauses --component governor
expect clauses-era 0 'era v6.14-v6.18 \(no subject\): teo.c with .artificial_wakeup.* fixed by b54df61c7428' -- "$bin" clauses --component teo
expect clauses-era-json 0 '"eras":\[\{"era":"v6.14-v6.18"' -- "$bin" clauses --json --component teo
expect verify-governor-bad-subject 2 "names subject 'v5.0'" -- "$bin" verify --component governor --subject v5.0
expect check-bad-kind 2 "unknown check kind 'lemma'" -- "$bin" check lemma x
expect check-missing 2 "no proof check named 'nope'" -- "$bin" check proof nope
echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

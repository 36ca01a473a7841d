#!/usr/bin/env bash
# `idlespec COMMAND --help` and the manual's page docs/COMMAND.md list the
# same options. For each command, the option names (--foo) of the help
# text's option block and of the page's options section are compared; every
# name in one and not the other is named, and the test fails.
#
# The help's option block: from its first line that starts (after at most
# four spaces) with an option, to the next empty line; every --name in it
# counts (review's and matrix's "and validate's --budget, ..." too).
# The page's options section: from the heading "## Options" (or, for a page
# with several, the heading the table below names) to the next "## "
# heading; every --name in it counts. --help itself is left out of both.
#
# usage: help_docs.sh IDLESPEC SOURCE_DIR
set -u
bin=$1
src=$2
fails=0
n=0

# help_options ARGS...: the option names of `idlespec ARGS --help`.
help_options() {
  "$bin" "$@" --help 2>&1 |
    awk '!on && match($0, /^ +/) && RLENGTH <= 4 && substr($0, RLENGTH + 1) ~ /^(-h, )?--[a-z0-9]/ {
           on = 1
         }
         on && /^[[:space:]]*$/ { exit }
         on { print }' |
    grep -oE -- '--[a-z0-9][a-z0-9-]*' | grep -vx -- '--help' | sort -u
}

# page_options PAGE HEADING: the option names of PAGE's section HEADING.
page_options() {
  awk -v want="$2" '$0 == want { on = 1; next }
                    on && /^## / { exit }
                    on { print }' "$1" |
    grep -oE -- '--[a-z0-9][a-z0-9-]*' | grep -vx -- '--help' | sort -u
}

# compare NAME PAGE HEADING ARGS...: the help of ARGS against PAGE's HEADING.
compare() {
  local name=$1 page=$src/docs/$2 heading=$3
  shift 3
  n=$((n + 1))
  if [ ! -f "$page" ]; then
    echo "FAIL $name: no page docs/${page##*/docs/}"
    fails=$((fails + 1))
    return
  fi
  local from_help from_page only_help only_page
  from_help=$(help_options "$@")
  from_page=$(page_options "$page" "$heading")
  if [ -z "$from_help" ]; then
    echo "FAIL $name: 'idlespec $* --help' lists no option"
    fails=$((fails + 1))
    return
  fi
  if [ -z "$from_page" ]; then
    echo "FAIL $name: docs/${page##*/docs/} has no section '$heading' listing options"
    fails=$((fails + 1))
    return
  fi
  only_help=$(comm -23 <(echo "$from_help") <(echo "$from_page") | tr '\n' ' ')
  only_page=$(comm -13 <(echo "$from_help") <(echo "$from_page") | tr '\n' ' ')
  if [ -n "$only_help" ] || [ -n "$only_page" ]; then
    echo "FAIL $name: 'idlespec $* --help' and docs/${page##*/docs/} ('$heading') differ"
    [ -n "$only_help" ] && echo "     only in --help: $only_help"
    [ -n "$only_page" ] && echo "     only in the page: $only_page"
    fails=$((fails + 1))
  else
    echo "ok   $name: $(echo "$from_help" | wc -l) options"
  fi
}

compare verify verify.md '## Options' verify
compare check check.md '## Options' check
compare clauses clauses.md '## Options' clauses
compare decode decode.md '## Options' decode xcede
compare simulate-busy_delay simulate.md '## Options of simulate busy_delay' simulate busy_delay
compare simulate-governor simulate.md '## Options of simulate governor' simulate governor
compare model-check model-check.md '## Options' model-check idle_core
compare validate validate.md '## Options' validate
compare review review.md '## Options' review
compare matrix matrix.md '## Options' matrix

# Every command the top-level help names has a page.
for cmd in $("$bin" help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
                                on && /^  [a-z]/ { print $1 }'); do
  [ "$cmd" = help ] && continue
  n=$((n + 1))
  if [ -f "$src/docs/$cmd.md" ]; then
    echo "ok   page docs/$cmd.md"
  else
    echo "FAIL 'idlespec help' names $cmd and docs/$cmd.md does not exist"
    fails=$((fails + 1))
  fi
done
echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

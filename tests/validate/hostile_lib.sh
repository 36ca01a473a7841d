# tests/validate/hostile_lib.sh: what the hostile scripts share (sourced
# after lib.sh, which sets BIN, SCRATCH and fail). The scripts plant tokens
# the code under test must never print (FILE_TOKEN, ENV_TOKEN, and those in
# TOKENS) and check every output format of each attack for them: a file
# beside the run's scratch directory (OUTSIDE), readable by anyone, and the
# caller's environment.
chmod 755 "$SCRATCH"
RUN_BUDGET=10
OUTSIDE=$SCRATCH/outside
mkdir -p "$OUTSIDE" && chmod 755 "$OUTSIDE"
FILE_TOKEN=TOKEN-FILE-$$-x9q
ENV_TOKEN=TOKEN-ENV-$$-k2w
printf '%s\n' "$FILE_TOKEN" >"$OUTSIDE/token.txt"
chmod 644 "$OUTSIDE/token.txt"
export IDLESPEC_HOSTILE_TOKEN="$ENV_TOKEN"
HTML=0
command -v python3 >/dev/null && HTML=1

# hostile NAME C-STATEMENTS: the file with the misdeed at its hook.
hostile() {
  awk -v code="$2" '{ if (index($0, "/* hostile: here */")) print "\t\t" code; else print }' \
    "$HERE/hostile_busy_delay.c" >"$SCRATCH/$1.c"
  cmp -s "$HERE/hostile_busy_delay.c" "$SCRATCH/$1.c" && fail "$1: the misdeed was not inserted"
}

# attack NAME [OPTIONS]: validate the file NAME.c writing every format.
attack() {
  name=$1; shift
  # The same run's JSON (stdout) first, as CI's machine readers get it.
  "$BIN" --source "$SCRATCH/$name.c" --budget "$RUN_BUDGET" --scan sampled --json "$@" \
    >"$SCRATCH/$name.json" 2>"$SCRATCH/$name.json.err"
  JSON_RC=$?
  set -- --source "$SCRATCH/$name.c" --budget "$RUN_BUDGET" --scan sampled \
    --markdown "$SCRATCH/$name.md" --sarif "$SCRATCH/$name.sarif" --junit "$SCRATCH/$name.xml" "$@"
  [ "$HTML" = 1 ] && set -- "$@" --html "$SCRATCH/$name.html"
  run "$name" "$@"
}

# outputs NAME: every file the run wrote.
outputs() {
  for f in "$SCRATCH/$1.out" "$SCRATCH/$1.err" "$SCRATCH/$1.md" "$SCRATCH/$1.sarif" \
    "$SCRATCH/$1.xml" "$SCRATCH/$1.json" "$SCRATCH/$1.json.err"; do
    [ -f "$f" ] && echo "$f"
  done
  [ -d "$SCRATCH/$1.html" ] && find "$SCRATCH/$1.html" -type f
}

# no_leak NAME: neither token, no raw escape/bell/CR/bidi override anywhere.
no_leak() {
  files=$(outputs "$1")
  [ -n "$files" ] || { fail "$1: no output at all"; return; }
  # shellcheck disable=SC2086  # one path a word
  for tok in "$FILE_TOKEN" "$ENV_TOKEN" ${TOKENS:-}; do
    # shellcheck disable=SC2086
    if grep -l -e "$tok" $files >/dev/null 2>&1; then
      fail "$1: the token $tok reached $(grep -l -e "$tok" $files | tr '\n' ' ')"
    fi
  done
  # shellcheck disable=SC2086
  if LC_ALL=C grep -l "$(printf '[\033\007\r]')" $files >/dev/null 2>&1; then
    fail "$1: a raw control character reached $(LC_ALL=C grep -l "$(printf '[\033\007\r]')" $files | tr '\n' ' ')"
  fi
  # shellcheck disable=SC2086
  if grep -l "$(printf '\342\200\256')" $files >/dev/null 2>&1; then
    fail "$1: a raw right-to-left override reached an output"
  fi
}

# finding NAME TEXT: exit 1 (text and JSON runs alike), TEXT named in the
# text report, the Markdown, the SARIF (rule SANDBOX-ESCAPE) and the HTML.
finding() {
  [ "$RC" = 1 ] || fail "$1: exit $RC, expected 1 (an escape attempt)"
  [ "$JSON_RC" = 1 ] || fail "$1: --json run exit $JSON_RC, expected 1"
  grep '^escape: ' "$SCRATCH/$1.out" | grep -qF -- "$2" ||
    fail "$1: the text report names no escape with '$2' (got: $(grep -h escape "$SCRATCH/$1.out" | head -2))"
  grep -qF -- "$2" "$SCRATCH/$1.json" || fail "$1: the JSON report does not name the escape"
  grep -qF -- "escape" "$SCRATCH/$1.md" || fail "$1: the Markdown does not name the escape"
  grep -qF -- "SANDBOX-ESCAPE" "$SCRATCH/$1.sarif" || fail "$1: no SANDBOX-ESCAPE result in the SARIF"
  if [ "$HTML" = 1 ] && [ -d "$SCRATCH/$1.html" ]; then
    grep -rqF "sandbox escape attempts" "$SCRATCH/$1.html" || fail "$1: the HTML does not name the escape"
  fi
  no_leak "$1"
}


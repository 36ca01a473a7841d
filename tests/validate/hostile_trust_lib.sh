# tests/validate/hostile_trust_lib.sh: what run_hostile_trust.sh and
# run_hostile_limits.sh share (sourced after lib.sh and hostile_lib.sh): the
# secrets the driver must never hand the code, the host files the attacks
# aim at, and the check that none of them changed. Every run is made from
# the caller's working directory WORKDIR (what /proc/self/cwd is for the
# driver).
# A secret as root keeps one: 0600 under a 0700 directory.
SECRET_DIR=$SCRATCH/secret
SECRET_TOKEN=TOKEN-SECRET-$$-p4z
mkdir -p "$SECRET_DIR" && chmod 700 "$SECRET_DIR"
printf '%s\n' "$SECRET_TOKEN" >"$SECRET_DIR/token" && chmod 600 "$SECRET_DIR/token"
# One beside the checkout.
CHECKOUT=$(cd "$HERE/../.." && pwd)
BESIDE_DIR=$(dirname "$CHECKOUT")/.idlespec-hostile-$$
BESIDE_TOKEN=TOKEN-BESIDE-$$-m7r
mkdir -p "$BESIDE_DIR" && chmod 700 "$BESIDE_DIR"
printf '%s\n' "$BESIDE_TOKEN" >"$BESIDE_DIR/token" && chmod 600 "$BESIDE_DIR/token"
# Host files the attacks aim their links at: one under the host's /tmp (a
# link target the sandbox's policy allows, since its own /tmp is private),
# one in the caller's working directory.
VICTIM=$(mktemp /tmp/idlespec-trust-victim-XXXXXX)
printf 'host file, not the code'"'"'s\n' >"$VICTIM" && chmod 644 "$VICTIM"
WORKDIR=$SCRATCH/cwd
mkdir -p "$WORKDIR" && printf 'the caller'"'"'s file\n' >"$WORKDIR/victim"
trap '[ -n "${KEEP_SCRATCH:-}" ] || rm -rf "$SCRATCH"; rm -rf "$BESIDE_DIR" "$VICTIM"' EXIT
TOKENS="$SECRET_TOKEN $BESIDE_TOKEN"
WATCHED="$SECRET_DIR/token $BESIDE_DIR/token $OUTSIDE/token.txt $VICTIM $WORKDIR/victim /etc/passwd"
# shellcheck disable=SC2086  # one path a word
hashes() { sha256sum $WATCHED 2>&1; stat -c '%n %s %a %u %Y' $WATCHED 2>&1; ls -A "$SECRET_DIR" "$BESIDE_DIR" "$WORKDIR"; }
hashes >"$SCRATCH/hashes.before"
cd "$WORKDIR" || exit 1

# host_files_unchanged: the files the attacks aim at hash as they did.
host_files_unchanged() {
  hashes >"$SCRATCH/hashes.after"
  if ! cmp -s "$SCRATCH/hashes.before" "$SCRATCH/hashes.after"; then
    fail "a host file changed: $(diff "$SCRATCH/hashes.before" "$SCRATCH/hashes.after" | tr '\n' ' ')"
  fi
  cd "$SCRATCH" || true
  # Outside SCRATCH: gone even when finish keeps SCRATCH for a failure.
  rm -rf "$BESIDE_DIR" "$VICTIM"
}

#!/usr/bin/env bash
# Writes the spec as built into idlespec: verify/spec_embedded.cc.in with one
# raw string per spec/*.md (README.md excepted), in file-name order. The one
# place that does it: CMakeLists.txt runs it at configure time and
# .clusterfuzzlite/build.sh before its compiles. The output is replaced only
# when its text changes, so a re-configure rebuilds nothing it need not.
# usage: embed_spec.sh SOURCE_DIR OUTPUT.cc
set -eu
export LC_ALL=C  # the glob's order: CMake's file(GLOB) sorts bytewise too
[ $# -eq 2 ] || { echo "usage: embed_spec.sh SOURCE_DIR OUTPUT.cc" >&2; exit 2; }
root=$1
out=$2
template_file="$root/verify/spec_embedded.cc.in"
marker=@IDLESPEC_SPEC_ENTRIES@
template=$(cat "$template_file")
case "$template" in
  *"$marker"*) ;;
  *) echo "embed_spec.sh: $template_file has no $marker" >&2; exit 1 ;;
esac
mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
{
  printf '%s' "${template%%"$marker"*}"
  # The template is split at its marker rather than substituted, so that no
  # character of the spec is taken for a pattern.
  for md in "$root"/spec/*.md; do
    stem=$(basename "$md" .md)
    [ "$stem" = README ] && continue
    if grep -q ')idlespec_spec' "$md"; then
      echo "embed_spec.sh: $md contains the raw string's delimiter ')idlespec_spec'" >&2
      exit 1
    fi
    printf '    {"%s", "spec/%s.md", R"idlespec_spec(' "$stem" "$stem"
    cat "$md"
    printf ')idlespec_spec"},\n'
  done
  printf '%s\n' "${template#*"$marker"}"
} >"$tmp"
if ! cmp -s "$tmp" "$out" 2>/dev/null; then mv "$tmp" "$out"; fi

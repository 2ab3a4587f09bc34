#!/usr/bin/env bash
# docs_schema_check.sh CLI DOC [--update]
# The field reference in docs/scenario-format.md is generated: it must equal the output of
# `traincost schema`, placed between the lines `<!-- schema:begin -->` and `<!-- schema:end -->`
# (blank lines right inside the markers are ignored). Fails with a diff when the two differ;
# with --update, rewrites the table in DOC instead.
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ] || { [ $# -eq 3 ] && [ "$3" != "--update" ]; }; then
  echo "usage: $0 CLI DOC [--update]" >&2
  exit 2
fi
cli=$1 doc=$2 update=${3:-}
begin='<!-- schema:begin -->' end='<!-- schema:end -->'

if [ "$(grep -cxF -- "$begin" "$doc")" -ne 1 ] || [ "$(grep -cxF -- "$end" "$doc")" -ne 1 ]; then
  echo "$doc must contain the line '$begin' once and the line '$end' once, in that order" >&2
  exit 1
fi
if [ "$(grep -nxF -- "$begin" "$doc" | cut -d: -f1)" -ge "$(grep -nxF -- "$end" "$doc" | cut -d: -f1)" ]; then
  echo "$doc: '$begin' must come before '$end'" >&2
  exit 1
fi

expected=$("$cli" schema)

if [ "$update" = "--update" ]; then
  tmp=$(mktemp)
  trap 'rm -f "$tmp"' EXIT
  { sed -n "1,/^$begin\$/p" "$doc"; printf '\n%s\n\n' "$expected"; sed -n "/^$end\$/,\$p" "$doc"; } >"$tmp"
  cat "$tmp" >"$doc"
  echo "updated the field reference in $doc"
  exit 0
fi

# The lines strictly between the markers, without leading and trailing blank lines.
# (Command substitution drops the trailing ones.)
actual=$(awk -v b="$begin" -v e="$end" '$0 == e { inside = 0 } inside { print } $0 == b { inside = 1 }' "$doc" |
         sed -e '/./,$!d')

if [ "$actual" != "$expected" ]; then
  echo "The field reference in $doc differs from \`traincost schema\` (- doc, + CLI):"
  diff <(printf '%s\n' "$actual") <(printf '%s\n' "$expected") || true
  echo "Regenerate it with: $0 $cli $doc --update"
  exit 1
fi

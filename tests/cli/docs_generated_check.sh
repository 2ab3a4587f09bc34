#!/usr/bin/env bash
# docs_generated_check.sh CLI DOC COMMAND [--update]
# A generated part of a document (the field reference in docs/scenario-format.md, the validation
# table in docs/validation.md) must equal the output of `traincost COMMAND`, placed between the
# lines `<!-- COMMAND:begin -->` and `<!-- COMMAND:end -->` (blank lines right inside the markers
# are ignored). Fails with a diff when the two differ; with --update, rewrites the part instead.
set -euo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ] || { [ $# -eq 4 ] && [ "$4" != "--update" ]; }; then
  echo "usage: $0 CLI DOC COMMAND [--update]" >&2
  exit 2
fi
cli=$1 doc=$2 command=$3 update=${4:-}
begin="<!-- $command:begin -->" end="<!-- $command:end -->"

if [ "$(grep -cxF -- "$begin" "$doc")" -ne 1 ] || [ "$(grep -cxF -- "$end" "$doc")" -ne 1 ]; then
  echo "$doc must contain the line '$begin' once and the line '$end' once, in that order" >&2
  exit 1
fi
if [ "$(grep -nxF -- "$begin" "$doc" | cut -d: -f1)" -ge "$(grep -nxF -- "$end" "$doc" | cut -d: -f1)" ]; then
  echo "$doc: '$begin' must come before '$end'" >&2
  exit 1
fi

expected=$("$cli" "$command")

if [ "$update" = "--update" ]; then
  tmp=$(mktemp)
  trap 'rm -f "$tmp"' EXIT
  { sed -n "1,/^$begin\$/p" "$doc"; printf '\n%s\n\n' "$expected"; sed -n "/^$end\$/,\$p" "$doc"; } >"$tmp"
  cat "$tmp" >"$doc"
  echo "updated the $command part of $doc"
  exit 0
fi

# The lines strictly between the markers, without leading and trailing blank lines.
# (Command substitution drops the trailing ones.)
actual=$(awk -v b="$begin" -v e="$end" '$0 == e { inside = 0 } inside { print } $0 == b { inside = 1 }' "$doc" |
         sed -e '/./,$!d')

if [ "$actual" != "$expected" ]; then
  echo "The $command part of $doc differs from \`traincost $command\` (- doc, + CLI):"
  diff <(printf '%s\n' "$actual") <(printf '%s\n' "$expected") || true
  echo "Regenerate it with: $0 $cli $doc $command --update"
  exit 1
fi

#!/usr/bin/env bash
# markdown_renders.sh CLI TABLES ARGS...
# Runs the CLI (which prints Markdown), renders it with cmark-gfm (GitHub's Markdown with tables) and
# checks that it opens cleanly: exactly TABLES tables, every table row as long as its header, no line
# of a table fallen into a paragraph, and no HTML of the input's own (cmark-gfm passes raw HTML through).
set -u
cli=$1 tables=$2
shift 2
if ! command -v cmark-gfm >/dev/null; then
  echo "cmark-gfm is not installed (scripts/setup-deps installs it)"
  exit 1
fi
markdown=$("$cli" "$@") || { echo "the CLI failed"; exit 1; }
html=$(printf '%s\n' "$markdown" | cmark-gfm --extension table) || { echo "cmark-gfm failed"; exit 1; }
fail() { printf '%s\n--- markdown ---\n%s\n--- html ---\n%s\n' "$1" "$markdown" "$html"; exit 1; }
found=$(printf '%s\n' "$html" | grep -c '^<table>')
[ "$found" -eq "$tables" ] || fail "expected $tables tables, found $found"
printf '%s\n' "$html" | grep -q '^<p>|' && fail "a table row was rendered as a paragraph"
# Each table: the cells of every row equal the header's.
printf '%s\n' "$html" | awk '
  /^<table>/ { header = -1 }
  /^<tr>/ { cells = 0 }
  /^<t[hd]/ { cells++ }
  /^<\/tr>/ { if (header < 0) header = cells; else if (cells != header) { print "row of " cells " cells under a header of " header; bad = 1 } }
  END { exit bad }' || fail "a table row has the wrong number of cells"
# The only tags are the ones Markdown makes.
tags=$(printf '%s\n' "$html" | grep -o '<[a-z0-9]*' | sort -u | tr -d '<' | tr '\n' ' ')
for tag in $tags; do
  case "$tag" in
    h3|h4|p|strong|em|table|thead|tbody|tr|th|td|a|code) ;;
    *) fail "unexpected tag <$tag>" ;;
  esac
done
exit 0

#!/usr/bin/env bash
# markdown_autolinks.sh CLI
# Issue 33, item 8: no user text in TrainCost's Markdown becomes a link under GitHub's autolink
# extension (cmark-gfm -e autolink): addresses (http://, https://, ftp://), www. names, e-mail
# addresses, mailto: and xmpp: in a scenario name, a workload name and option labels.
set -u
cli=$1
command -v cmark-gfm >/dev/null || { echo "cmark-gfm is not installed (scripts/setup-deps installs it)"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
for text in "https://evil.example/p" "http://evil.example" "ftp://evil.example/x" "www.evil.example" "see WWW.evil.example/x" \
            "(www.evil.example)" "mailto:me@evil.example" "me@evil.example" "a.b+c@evil.example" "xmpp:me@evil.example/r"; do
  cat > "$dir/s.json" <<JSON
{"version":1,"name":"$text","workloads":[{"name":"$text","model":{"params":8e9},"target":{"tokens":1e11}}],
 "options":[{"instance":"trn2.48xlarge","instances":4,"label":"$text"},{"instance":"p5.48xlarge","instances":4,"label":"x $text"}]}
JSON
  for command in "evaluate --format markdown" "analyze --samples 200 --format markdown" "pilot --samples 200 --format markdown"; do
    markdown=$("$cli" $command "$dir/s.json") || { echo "FAIL: traincost $command failed for \"$text\""; status=1; continue; }
    html=$(printf '%s\n' "$markdown" | cmark-gfm -e autolink -e table)
    if printf '%s' "$html" | grep -q 'href="[^"]*evil'; then
      echo "FAIL: traincost $command: \"$text\" became a link:"
      printf '%s\n' "$html" | grep -o '<a href="[^"]*evil[^"]*"' | head -3
      status=1
    fi
  done
done
exit $status

#!/usr/bin/env bash
# link_roundtrip.sh CLI SCENARIO: the results of a scenario and of its share link are identical.
set -eu
cli=$1 scenario=$2
link=$("$cli" link "$scenario")
case "$link" in "#s=1."*) ;; *) echo "unexpected link: $link"; exit 1;; esac
diff <("$cli" evaluate "$scenario" --format json) <("$cli" evaluate --link "$link" --format json)

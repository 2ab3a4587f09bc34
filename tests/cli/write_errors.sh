#!/usr/bin/env bash
# write_errors.sh CLI SOURCE_DIR
# Issue 33, item 11: every command that writes to standard output, run with its output sent to
# /dev/full (every write fails with ENOSPC), exits with status 3 and says so on stderr, however
# short or long its output; the same commands writing to /dev/null exit 0.
set -u
cli=$1 src=$2
[ -w /dev/full ] || { echo "no /dev/full here: the check needs it"; exit 1; }
example=$src/assets/scenarios/llama3-8b-pretrain.json
config=$(ls "$src"/tests/fuzz/corpus/hf_config/*.json | grep -v /bad- | head -1)
status=0
check() {
  "$cli" "$@" >/dev/null 2>/dev/null || { echo "FAIL (to /dev/null): traincost $*"; status=1; return; }
  err=$("$cli" "$@" 2>&1 >/dev/full)
  code=$?
  # The last line (import-hf notes what it assumed before it).
  if [ "$code" -ne 3 ] || [ "$(printf '%s\n' "$err" | tail -1)" != "traincost: cannot write the output: No space left on device" ]; then
    echo "FAIL: traincost $* > /dev/full exited $code: $err"
    status=1
  fi
}
for format in text json markdown csv; do check evaluate "$example" --format "$format"; done
check evaluate --link "$("$cli" link "$example")"
check explain "$example"
check explain "$example" --format json
check analyze "$example" --samples 200
check pilot "$example" --samples 200
check sweep "$example"
check link "$example"
check link "$example" --format json
check embed "$example"
check catalog
check catalog --format json
check import-hf "$config"
check schema
check replay
check --version
check --help
exit $status

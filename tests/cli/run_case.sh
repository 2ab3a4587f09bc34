#!/usr/bin/env bash
# run_case.sh CLI EXPECTED_EXIT EXPECTED_REGEX ARGS...
# Runs the CLI, checks its exit status and that stdout+stderr match the (extended) regex, and
# that it never crashed (a signal gives a status above 128).
set -u
cli=$1 expected=$2 pattern=$3
shift 3
output=$("$cli" "$@" 2>&1)
status=$?
if [ "$status" -ne "$expected" ]; then
  printf 'exit status %s, expected %s\n--- output ---\n%s\n' "$status" "$expected" "$output"
  exit 1
fi
if [ -n "$pattern" ] && ! printf '%s' "$output" | grep -Eq -- "$pattern"; then
  printf 'output does not match /%s/\n--- output ---\n%s\n' "$pattern" "$output"
  exit 1
fi
if [ -z "$output" ]; then
  echo "no output"
  exit 1
fi

#!/usr/bin/env bash
# run_fuzzer.sh replay|SECONDS FUZZER SCRATCH SEEDS REGRESSIONS DICT
#   replay    run every seed and every saved crash input once, then stop
#   SECONDS   fuzz for that long, starting from the seeds and the saved crash inputs
# libFuzzer writes new inputs into the first corpus folder it is given and treats the others as
# read-only, so SCRATCH (in the build tree) comes first and the committed folders are never
# written. A crash leaves its input in SCRATCH/artifacts/ and fails the test.
set -euo pipefail
mode=$1 fuzzer=$2 scratch=$3 seeds=$4 regressions=$5 dict=$6
rm -rf "$scratch"
mkdir -p "$scratch/corpus" "$scratch/artifacts"
dirs=("$seeds")
[ -d "$regressions" ] && dirs+=("$regressions")
args=(-artifact_prefix="$scratch/artifacts/" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
[ -f "$dict" ] && args+=(-dict="$dict")
if [ "$mode" = replay ]; then
  exec "$fuzzer" "${args[@]}" -runs=0 "$scratch/corpus" "${dirs[@]}"
fi
exec "$fuzzer" "${args[@]}" -max_total_time="$mode" "$scratch/corpus" "${dirs[@]}"

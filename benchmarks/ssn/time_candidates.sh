#!/usr/bin/env bash
# benchmarks/ssn/time_candidates.sh EXOLABEL SEARCH_OUTPUT REPS GAMMA...
# Times the command-line tool on one raw search output: today's default
# (`--format blast`, label propagation) against Leiden-CPM at each GAMMA
# (`--algorithm leiden --objective cpm --resolution GAMMA`), in turns,
# REPS rounds, threads 2, seed 1, under GNU time. Prints CSV: method, rep,
# wall_s, user_s, sys_s, maxrss_kb, load1. Used for the "time at 10^5
# within 2x of today's default" check of issue 25 (benchmarks/ssn/notes.md).
set -euo pipefail
exe=$1 in=$2 reps=$3; shift 3
out=$(mktemp) tf=$(mktemp)
echo "method,rep,wall_s,user_s,sys_s,maxrss_kb,load1"
for r in $(seq 1 "$reps"); do
  for m in default "$@"; do
    opts=(); [ "$m" = default ] || opts=(--algorithm leiden --objective cpm --resolution "$m")
    l=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%e,%U,%S,%M' -o "$tf" "$exe" --format blast --seed 1 --threads 2 "${opts[@]}" --out "$out" "$in" > /dev/null
    echo "$([ "$m" = default ] && echo default || echo "cpm_$m"),$r,$(cat "$tf"),$l"
  done
done
rm -f "$out" "$tf"

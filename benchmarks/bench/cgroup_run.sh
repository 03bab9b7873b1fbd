#!/usr/bin/env bash
# benchmarks/bench/cgroup_run.sh: one ExoLabel() run from R inside a cgroup v1
# memory cgroup, for the out-of-core results in benchmarks/RESULTS.md.
#
#   cgroup_run.sh FILE CAP MEMORY_LIMIT [cold]
#
# CAP: memory.limit_in_bytes (e.g. 1G, 2G; "none" = no cap, still measured).
# The cgroup's limit counts RSS and page cache, so with a cap below the
# input and graph sizes every stage really reads from disk. "cold" drops the
# page cache first. Prints the metrics of exolabel_run.R plus the cgroup's
# peak usage (memory.max_usage_in_bytes, page cache included), failcnt,
# peak temp disk (du every second) and the wall time of the whole process.
# Needs root and /sys/fs/cgroup/memory (cgroup v1). Temp files go to
# ${BENCH_DIR:-/tmp/exolabel-bench}/cg-tmp.
set -euo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/bench/cgroup_lib.sh
file=$1 cap=$2 mem=$3 cold=${4:-}
BENCH_DIR=${BENCH_DIR:-/tmp/exolabel-bench}
if [ -n "${RLIB:-}" ]; then export R_LIBS="$RLIB${R_LIBS:+:$R_LIBS}"; fi
cg=/sys/fs/cgroup/memory/exolabel-bench-$$
mkdir "$cg"
trap 'rmdir "$cg" 2> /dev/null || true' EXIT
if [ "$cap" != none ]; then echo "$cap" > "$cg/memory.limit_in_bytes"; fi
tmp=$BENCH_DIR/cg-tmp
rm -rf "$tmp"; mkdir -p "$tmp"
if [ "$cold" = cold ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi
t0=$(date +%s.%N)
bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$cg" \
  Rscript benchmarks/bench/exolabel_run.R "$file" "$tmp" "$mem" > "$BENCH_DIR/cg.out" &
cg_wait $! "$tmp"
cat "$BENCH_DIR/cg.out"
printf 'process_wall\t%s\n' "$(awk -v a="$t0" -v b="$cg_t1" 'BEGIN { printf "%.3f", b - a }')"
cg_report "$cg" "$cap"
rm -rf "$tmp"

#!/usr/bin/env bash
# benchmarks/bench/leiden_run.sh: the three Leiden figures of issue 11 in one
# command (not part of CI; about an hour on a quiet 2-core machine):
#
#   benchmarks/bench/leiden_run.sh [20m|100m|all]      (make leiden-bench)
#
# 1. 20M-edge graph, REPS repetitions: ExoLabel() from R with the label
#    propagation defaults, then with algorithm = "leiden" (same threads, same
#    memory_limit, same repetition: the ratio of the medians is the figure).
# 2. The same graph through data.table::fread + igraph::graph_from_data_frame
#    + igraph::cluster_leiden(objective_function = "modularity")
#    (igraph_run.R leiden), IGRAPH_REPS repetitions (default REPS).
# 3. With "100m" (only this) or "all": the 100M-edge graph, generated into BENCH_DIR and deleted
#    at the end, Leiden uncapped and under a cgroup v1 memory cap of CAP
#    (1G) with cgroup_run.sh (needs root), CG_REPS repetitions (default 1).
#
# Environment: REPS (3), BENCH_DIR (/tmp/exolabel-bench), BUILD (build:
# exogen is compiled there), RLIB (R library holding ExoLabel), MEM
# (memory_limit, 256MB), CG_MEM (memory_limit under the cap, 512MB), CAP (1G),
# THREADS (empty = the package default). Raw values go to
# BENCH_DIR/leiden-raw-*.tsv ("size rep metric value"), the medians and
# ratios to standard output (leiden_summary.R).
set -euo pipefail
cd "$(dirname "$0")/../.."
WHAT=${1:-20m}
REPS=${REPS:-3}
IGRAPH_REPS=${IGRAPH_REPS:-$REPS}
CG_REPS=${CG_REPS:-1}
BUILD=${BUILD:-build}
BENCH_DIR=${BENCH_DIR:-/tmp/exolabel-bench}
MEM=${MEM:-256MB}
CG_MEM=${CG_MEM:-512MB}
CAP=${CAP:-1G}
THREADS=${THREADS:-}
RSCRIPT=${RSCRIPT:-Rscript}
if [ -n "${RLIB:-}" ]; then export R_LIBS="$RLIB${R_LIBS:+:$R_LIBS}"; fi
here=benchmarks/bench
mkdir -p "$BENCH_DIR" "$BUILD"
RAW=$BENCH_DIR/leiden-raw-$(date +%Y%m%d-%H%M%S).tsv
: > "$RAW"
cc -std=c11 -O2 -o "$BUILD/exogen" benchmarks/gen/exogen.c -lz -lm

record() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$RAW"; }
load1() { cut -d' ' -f1 /proc/loadavg; }
# run_exo SIZE REP PREFIX ALGORITHM FILE: one ExoLabel() call, metrics recorded
# as PREFIX_metric.
run_exo() {
  local T=$BENCH_DIR/leiden-tmp
  rm -rf "$T"; mkdir -p "$T"
  record "$1" "$2" "$3_load1_before" "$(load1)"
  EXO_ALGORITHM=$4 "$RSCRIPT" "$here/exolabel_run.R" "$5" "$T" "$MEM" $THREADS |
    while IFS=$'\t' read -r k v; do record "$1" "$2" "$3_$k" "$v"; done
  rm -rf "$T"
}
gen() { # gen FILE NODES EDGES
  if [ ! -s "$1" ]; then
    echo "generating $1" >&2
    "$BUILD/exogen" --nodes "$2" --edges "$3" --min-comm 100 --max-comm 5000 --seed 1 \
      --out "$1" --quiet
  fi
}

f=$BENCH_DIR/g20m.tsv
[ "$WHAT" = 100m ] || gen "$f" 1e6 2e7
[ "$WHAT" = 100m ] && REPS=0 IGRAPH_REPS=0
for rep in $(seq 1 "$REPS"); do
  echo "== 20m rep $rep: label propagation, Leiden" >&2
  run_exo 20m "$rep" lp lp "$f"
  run_exo 20m "$rep" leiden leiden "$f"
done
for rep in $(seq 1 "$IGRAPH_REPS"); do
  echo "== 20m rep $rep: fread + igraph Leiden" >&2
  record 20m "$rep" igraph_load1_before "$(load1)"
  "$RSCRIPT" "$here/igraph_run.R" "$f" leiden |
    while IFS=$'\t' read -r k v; do record 20m "$rep" "$k" "$v"; done
done

if [ "$WHAT" = all ] || [ "$WHAT" = 100m ]; then
  g=$BENCH_DIR/g100m-leiden.tsv
  gen "$g" 5e6 1e8
  for rep in $(seq 1 "$CG_REPS"); do
    for cap in none "$CAP"; do
      echo "== 100m rep $rep: Leiden, cap $cap" >&2
      tag=uncapped; [ "$cap" = none ] || tag=capped
      record 100m "$rep" "${tag}_load1_before" "$(load1)"
      BENCH_DIR=$BENCH_DIR RLIB=${RLIB:-} EXO_ALGORITHM=leiden \
        bash "$here/cgroup_run.sh" "$g" "$cap" "$CG_MEM" |
        while IFS=$'\t' read -r k v; do record 100m "$rep" "${tag}_$k" "$v"; done
    done
  done
  rm -f "$g"
fi
record all 0 load1_end "$(load1)"
echo "raw results: $RAW" >&2
"$RSCRIPT" "$here/leiden_summary.R" "$RAW"

#!/usr/bin/env bash
# benchmarks/bench/device_run.sh: issue 27's figures on a machine with many
# cores, in one short run. The machine may have no compiler, no R and no
# network, so everything it needs is built here first and carried over.
#
#   benchmarks/bench/device_run.sh prepare [GVE_SRC]   # on this machine
#   benchmarks/bench/device_run.sh run OUTDIR           # on the many-core one
#
# prepare: builds the command-line tool (make cli), exogen, nmi
# (benchmarks/bench/nmi.c) and, given GVE_SRC (a checkout or bare clone of
# github.com/puzzlef/leiden-communities-openmp), GVE-Leiden statically linked
# with MAX_THREADS=MAXT (16), into build/device/ (git ignores build/; carry
# that folder), and writes the commit to build/device/COMMIT.
#
# run: on the planted graph of issue 27 (exogen --nodes NODES --edges EDGES
# --mixing 0.4 --min-comm 100 --max-comm 5000 --seed 1, text with string
# names, in the page cache), for each thread count of THREADS ("1 2 4 8 16"):
#  - the default label-propagation call (`exolabel --threads T --stats`),
#    LP_REPS times; at 1 thread and at the last thread count also once with
#    `--memory-limit LP_BIG_MEM` (method lp-bigmem: the whole input in one
#    sort buffer, issue 27's 8GB observation);
#  - Leiden (`--algorithm leiden --memory-limit LEIDEN_MEM`, 1GB as the issue
#    asks), LEIDEN_REPS times (the last thread count: PAIR_REPS times,
#    alternating with GVE-Leiden's whole process at the same thread count);
#  - GVE-Leiden at 2 threads too, alternating with ExoLabel's Leiden at 2
#    (the 2-core target), PAIR_REPS pairs.
# Every run's stage times (--stats: seconds, seconds_parse, seconds_csr,
# seconds_cluster, seconds_refine), peak RSS, clusters, NMI against the
# planted communities and Leiden's modularity go to OUTDIR/runs.tsv; each
# Leiden run's -v log goes to OUTDIR/logs/ (the serial parts per phase). The
# medians, the speed-ups against one thread and the pair ratios are printed
# and written to OUTDIR/summary.txt. No run starts after DEADLINE seconds
# (420) from the start; the ones skipped are listed.
#
# Environment: NODES (1e6), EDGES (2e7), THREADS, LP_REPS (3), LEIDEN_REPS
# (1), PAIR_REPS (3), LEIDEN_MEM (1GB), LP_BIG_MEM (8GB; empty: none),
# DEADLINE (420), DIR (/tmp/exodev:
# the graph, about 1.2 GB), MAXT (16, prepare only).
set -euo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/bench/gve_lib.sh
BIN=build/device
mode=${1:?usage: device_run.sh prepare [GVE_SRC] | run OUTDIR}

if [ "$mode" = prepare ]; then
  mkdir -p "$BIN"
  make -s cli BUILD="$BIN/build" > /dev/null
  cp "$BIN/build/exolabel" "$BIN/exolabel"
  cc -std=c11 -O2 -o "$BIN/exogen" benchmarks/gen/exogen.c -lz -lm
  cc -std=c11 -O2 -o "$BIN/nmi" benchmarks/bench/nmi.c -lm
  if [ -n "${2:-}" ]; then
    git -C "$2" rev-parse HEAD > "$BIN/GVE_COMMIT" 2> /dev/null || echo "$2" > "$BIN/GVE_COMMIT"
    gve_build "$(gve_source "$2" "$BIN")" "$PWD/$BIN/gve-leiden" "${MAXT:-16}" leiden -static
    rm -rf "$BIN/gve-src"
  fi
  rm -rf "$BIN/build"
  git rev-parse --short HEAD > "$BIN/COMMIT"
  ls -l "$BIN"
  exit 0
fi

[ "$mode" = run ] || { echo "device_run.sh: unknown mode '$mode'" >&2; exit 2; }
OUTDIR=${2:?usage: device_run.sh run OUTDIR}
NODES=${NODES:-1e6}
EDGES=${EDGES:-2e7}
THREADS=${THREADS:-1 2 4 8 16}
LP_REPS=${LP_REPS:-3}
LEIDEN_REPS=${LEIDEN_REPS:-1}
PAIR_REPS=${PAIR_REPS:-3}
LEIDEN_MEM=${LEIDEN_MEM:-1GB}
LP_BIG_MEM=${LP_BIG_MEM-8GB}
DEADLINE=${DEADLINE:-420}
DIR=${DIR:-/tmp/exodev}
for f in exolabel exogen nmi; do
  [ -x "$BIN/$f" ] || { echo "device_run.sh: $BIN/$f missing: run 'prepare' first" >&2; exit 2; }
done
mkdir -p "$OUTDIR/logs" "$DIR"
START=$(date +%s)
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "ExoLabel: $(cat "$BIN/COMMIT" 2> /dev/null || echo '?');" \
    "GVE-Leiden: $(cat "$BIN/GVE_COMMIT" 2> /dev/null || echo 'none')"
  echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
    "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUTDIR/machine.txt"

G=$DIR/g.tsv
T0=$(date +%s.%N)
"$BIN/exogen" --nodes "$NODES" --edges "$EDGES" --mixing 0.4 --min-comm 100 --max-comm 5000 \
  --seed 1 --out "$G" --truth "$DIR/g.truth" --quiet
echo "graph: $NODES nodes, $EDGES edges, $(stat -c %s "$G") bytes," \
  "generated in $(echo "$(date +%s.%N) - $T0" | bc) s" >> "$OUTDIR/machine.txt"
cat "$G" > /dev/null

RUNS=$OUTDIR/runs.tsv
printf '%s\t' method threads rep wall seconds parse csr cluster refine peak_rss_mb clusters nmi \
  > "$RUNS"
echo modularity >> "$RUNS"
SKIPPED=""
late() { [ $(($(date +%s) - START)) -ge "$DEADLINE" ]; }

# exo METHOD THREADS REP ARGS...: one ExoLabel call, a row of runs.tsv
exo() {
  local method=$1 t=$2 rep=$3; shift 3
  if late; then SKIPPED="$SKIPPED $method/$t/$rep"; return 0; fi
  local log=$OUTDIR/logs/$method-t$t-$rep.log out=$DIR/$method.out
  local t0; t0=$(date +%s.%N)
  rm -f "$out"
  "$BIN/exolabel" --threads "$t" --stats "$@" -o "$out" "$G" 2> "$log" > /dev/null ||
    echo "device_run.sh: $method, $t threads, run $rep failed (log: $log)" >&2
  local wall; wall=$(echo "$(date +%s.%N) - $t0" | bc)
  local q
  q=$("$BIN/nmi" "$DIR/g.truth" "$out" 2> /dev/null | awk -F'\t' '$1 == "nmi" { print $2 }' || true)
  awk -F'\t' -v m="$method" -v t="$t" -v r="$rep" -v w="$wall" -v q="$q" '
    { s[$1] = $2 }
    END { printf "%s\t%s\t%s\t%.3f\t%s\t%s\t%s\t%s\t%s\t%.0f\t%s\t%s\t%s\n", m, t, r, w,
            s["seconds"], s["seconds_parse"], s["seconds_csr"], s["seconds_cluster"],
            (s["seconds_refine"] == "" ? 0 : s["seconds_refine"]), s["peak_rss"] / 1048576,
            s["clusters"], q, (s["leiden_quality"] == "" ? "NA" : s["leiden_quality"]) }' \
    "$log" >> "$RUNS"
}

# gve THREADS REP: GVE-Leiden's whole process (reading, its Leiden only: gve_one.cxx)
gve() {
  local t=$1 rep=$2
  if late; then SKIPPED="$SKIPPED gve/$t/$rep"; return 0; fi
  local log=$OUTDIR/logs/gve-t$t-$rep.log t0; t0=$(date +%s.%N)
  OMP_NUM_THREADS=$t "$BIN/gve-leiden" "$DIR/g.mtx" 1 1 > "$log" 2>&1 ||
    echo "device_run.sh: GVE-Leiden, $t threads, run $rep failed (log: $log)" >&2
  local wall; wall=$(echo "$(date +%s.%N) - $t0" | bc)
  local lt q
  lt=$(awk -F'\t' '$1 == "gve_leiden_ms" { print $2 / 1000 }' "$log")
  q=$(awk -F'\t' '$1 == "gve_modularity" { print $2 }' "$log")
  printf 'gve-leiden\t%s\t%s\t%.3f\t%s\tNA\tNA\t%s\t0\tNA\tNA\tNA\t%s\n' "$t" "$rep" "$wall" \
    "$wall" "${lt:-NA}" "${q:-NA}" >> "$RUNS"
}

set -- $THREADS
LAST=${!#}
for t in $THREADS; do
  for rep in $(seq 1 "$LP_REPS"); do exo lp "$t" "$rep"; done
  if [ -n "$LP_BIG_MEM" ] && { [ "$t" = 1 ] || [ "$t" = "$LAST" ]; }; then
    exo lp-bigmem "$t" 1 --memory-limit "$LP_BIG_MEM"
  fi
  if [ "$t" != "$LAST" ] && [ "$t" != 2 ] || [ ! -x "$BIN/gve-leiden" ]; then
    for rep in $(seq 1 "$LEIDEN_REPS"); do
      exo leiden "$t" "$rep" --algorithm leiden --memory-limit "$LEIDEN_MEM" -v
    done
  fi
done
if [ -x "$BIN/gve-leiden" ]; then
  [ -s "$DIR/g.mtx" ] || gve_mtx "$G" "$DIR/g.mtx" "$NODES" "$EDGES"
  cat "$DIR/g.mtx" > /dev/null
  for t in $(printf '%s\n' "$LAST" 2 | uniq); do
    for rep in $(seq 1 "$PAIR_REPS"); do
      exo leiden "$t" "$rep" --algorithm leiden --memory-limit "$LEIDEN_MEM" -v
      gve "$t" "$rep"
    done
  done
fi

# median(a, m): the median of a[1..m] (sorted in place; "NA" when one is NA)
MEDIAN='function median(a, m,   i, j, x) {
    for (i = 1; i <= m; i++) if (a[i] == "NA" || a[i] == "") return "NA"
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
      if (a[j] + 0 < a[i] + 0) { x = a[i]; a[i] = a[j]; a[j] = x }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }'
{
  cat "$OUTDIR/machine.txt"
  echo
  echo "medians (s; nmi, modularity: of the same runs); speed-up: median wall at 1 thread / at T"
  awk -F'\t' "$MEDIAN"'
    function med(k, c,   i, a) { for (i = 1; i <= n[k]; i++) a[i] = v[k, c, i]; return median(a, n[k]) }
    BEGIN { CONVFMT = OFMT = "%.10g" }
    NR > 1 {
      k = $1 SUBSEP $2; n[k]++
      for (c = 4; c <= 13; c++) v[k, c, n[k]] = $c
      if (!($1 in seen)) { seen[$1] = 1; order[++no] = $1 }
    }
    END {
      printf "%-11s %7s %4s %8s %8s %8s %8s %8s %8s %8s %8s %10s\n", "method", "threads", "runs",
        "wall", "parse", "csr", "cluster", "refine", "peak_MB", "speedup", "nmi", "modularity"
      for (o = 1; o <= no; o++) for (t = 1; t <= 1024; t++) {
        k = order[o] SUBSEP t
        if (!(k in n)) continue
        one = (order[o] SUBSEP 1) in n ? med(order[o] SUBSEP 1, 4) : "NA"
        printf "%-11s %7d %4d %8.2f %8s %8s %8s %8s %8s %8s %8s %10s\n", order[o], t, n[k],
          med(k, 4), med(k, 6), med(k, 7), med(k, 8), med(k, 9), med(k, 10),
          one == "NA" ? "NA" : sprintf("%.2f", one / med(k, 4)), med(k, 12), med(k, 13)
      }
    }' "$RUNS"
  if [ -x "$BIN/gve-leiden" ]; then
    echo
    echo "pairs, ExoLabel Leiden / GVE-Leiden whole process (same thread count, alternating):"
    awk -F'\t' "$MEDIAN"'
      $1 == "leiden" || $1 == "gve-leiden" { w[$1, $2, $3] = $4; th[$2] = 1 }
      END {
        for (t in th) {
          m = 0; s = ""
          for (r = 1; r <= 64; r++) {
            if (!(("leiden" SUBSEP t SUBSEP r) in w && ("gve-leiden" SUBSEP t SUBSEP r) in w)) continue
            q[++m] = w["leiden", t, r] / w["gve-leiden", t, r]
            s = s sprintf(" %.3f", q[m])
          }
          if (m) printf "threads %s: pairs%s; median %.3f\n", t, s, median(q, m)
        }
      }' "$RUNS"
  fi
  [ -z "$SKIPPED" ] || echo "skipped at the deadline (${DEADLINE} s):$SKIPPED"
  echo "total $(($(date +%s) - START)) s"
} | tee "$OUTDIR/summary.txt"

#!/usr/bin/env bash
# benchmarks/mpi/run.sh: figures of the MPI mode for the model in
# benchmarks/RESULTS.md (make mpi-bench).
#   BUILD=/abs/build EDGES=2e7 [NODES=1e6] [PS="1 2 4"] [MEM=256MB]
#   [BENCH_DIR=/tmp/exolabel-mpi-bench] [SKIP_CLI=1] bash benchmarks/mpi/run.sh
# Generates a planted graph with exogen (the 20M graph of benchmarks/bench:
# 1e6 nodes, 2e7 edges, communities 100..5000, seed 1), split into four
# files so that every rank reads at P = 4, then runs the single-machine CLI
# (one thread; SKIP_CLI=1 leaves it out) and exolabel-mpi at each P (in the
# order PS gives) with -v. The per-rank table (nodes,
# arcs, ghosts, bytes sent per stage, seconds per stage, temporary disk,
# peak RSS), the per-superstep table (label changes, bytes sent by all ranks
# and by the busiest rank) and the NMI against the planted truth go to
# benchmarks/mpi/results/<edges>-P<P>.txt; a summary to standard output.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
EDGES=${EDGES:-2e7}
NODES=${NODES:-$(awk -v e="$EDGES" 'BEGIN { printf "%.0f", e / 20 }')}
PS=${PS:-1 2 4}
MEM=${MEM:-256MB}
BENCH_DIR=${BENCH_DIR:-/tmp/exolabel-mpi-bench}
OUT=$ROOT/benchmarks/mpi/results
MPIRUN=(mpirun --oversubscribe --bind-to none)
if [ "$(id -u)" = 0 ]; then MPIRUN+=(--allow-run-as-root); fi
mkdir -p "$BENCH_DIR/tmp" "$OUT"
tag=$(awk -v e="$EDGES" 'BEGIN { printf "%gM", e / 1e6 }')
cc -std=c11 -O2 -o "$BUILD/exogen" "$ROOT/benchmarks/gen/exogen.c" -lz -lm
g=$BENCH_DIR/g$tag
if [ ! -s "$g.truth" ]; then
  echo "generating $g ($NODES nodes, $EDGES edges)"
  "$BUILD/exogen" --nodes "$NODES" --edges "$EDGES" --min-comm 100 --max-comm 5000 --seed 1 \
    --quiet --out "$g.tsv" --truth "$g.truth"
  (cd "$BENCH_DIR" && split -n l/4 -d --additional-suffix=.tsv "g$tag.tsv" "g$tag.part" && rm "g$tag.tsv")
fi
parts=("$g".part0*.tsv)
nmi() { awk -f "$ROOT/tests/mpi/nmi.awk" "$g.truth" "$1"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "machine: $(nproc) cores, load $(load) before; MEM=$MEM per process"
# the single-machine reference is kept from an earlier run unless REDO_CLI=1
if [ -z "${SKIP_CLI:-}" ] && { [ ! -s "$OUT/$tag-cli.txt" ] || [ -n "${REDO_CLI:-}" ]; }; then
t0=$(date +%s.%N)
"$BUILD/exolabel" --threads 1 --seed 5 --memory-limit "$MEM" --stats -o "$BENCH_DIR/cli.tsv" \
  "${parts[@]}" 2> "$BENCH_DIR/cli.err"
t1=$(date +%s.%N)
{
  echo "# single machine (exolabel --threads 1), load $(load) after"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "wall_seconds\t%.2f\n", b - a }'
  cat "$BENCH_DIR/cli.err"
  echo "nmi	$(nmi "$BENCH_DIR/cli.tsv")"
} > "$OUT/$tag-cli.txt"
fi
[ -s "$OUT/$tag-cli.txt" ] && echo "cli: $(grep -E '^(wall_seconds|nodes|arcs|peak_rss|peak_temp_disk|nmi)' "$OUT/$tag-cli.txt" | tr '\t\n' '= ')"
for P in $PS; do
  rm -rf "$BENCH_DIR/tmp"/*
  t0=$(date +%s.%N)
  "${MPIRUN[@]}" -np "$P" "$BUILD/exolabel-mpi" -v --seed 5 --memory-limit "$MEM" \
    --tempdir "$BENCH_DIR/tmp" -o "$BENCH_DIR/mpi$P.tsv" "${parts[@]}" 2> "$BENCH_DIR/mpi$P.err"
  t1=$(date +%s.%N)
  {
    echo "# exolabel-mpi P=$P, load $(load) after"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "wall_seconds\t%.2f\n", b - a }'
    cat "$BENCH_DIR/mpi$P.err"
    echo "nmi	$(nmi "$BENCH_DIR/mpi$P.tsv")"
  } > "$OUT/$tag-P$P.txt"
  echo "P=$P: $(grep -E '^(wall_seconds|supersteps|lp_visits|nmi)' "$OUT/$tag-P$P.txt" | tr '\t\n' '= ')"
done
rm -f "$BENCH_DIR"/*.tsv.mpi-tmp

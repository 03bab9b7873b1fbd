#!/usr/bin/env bash
# Measure peak memory and temporary disk of the exolabel command-line tool on
# generated graphs, then compare with EstimateExoLabel() (compare.R).
#   BUILD=/tmp/b-NAME RLIB=/tmp/lib-NAME benchmarks/estimates/run.sh [WORKDIR]
# Needs `make cli BUILD=...` and the package installed in RLIB.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
work=${1:-$BUILD/estimates}
mkdir -p "$work"
gcc -O2 -o "$BUILD/exogen" benchmarks/gen/exogen.c -lm -lz -pthread
for spec in "100000 2000000" "1000000 10000000" "3000000 30000000"; do
  set -- $spec
  [ -f "$work/g_$1.tsv" ] || "$BUILD/exogen" --nodes "$1" --edges "$2" --seed 1 \
    --out "$work/g_$1.tsv" --truth "$work/t_$1.tsv" 2>/dev/null
  for mem in 64MB 1GB; do
    "$BUILD/exolabel" --seed 1 --threads 2 --memory-limit "$mem" --stats \
      -o "$work/out.tsv" "$work/g_$1.tsv" 2> "$work/st_${1}_$mem.txt"
  done
done
R_LIBS=${RLIB:+$RLIB:}${R_LIBS:-} Rscript benchmarks/estimates/compare.R "$work"

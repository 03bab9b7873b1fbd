#!/usr/bin/env bash
# Measure peak memory and temporary disk of the exolabel command-line tool
# (label propagation and Leiden) on generated graphs, then compare with
# EstimateExoLabel() given the edge-list file (compare.R).
#   BUILD=/tmp/b-NAME RLIB=/tmp/lib-NAME benchmarks/estimates/run.sh [WORKDIR]
# Needs `make cli BUILD=...` and the package installed in RLIB. About 5
# minutes on 2 shared cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
work=${1:-$BUILD/estimates}
mkdir -p "$work"
gcc -O2 -o "$BUILD/exogen" benchmarks/gen/exogen.c -lm -lz -pthread
# tag nodes edges [exogen options]; "pl": power-law degrees, names repeat unevenly
graphs=("n1e5 100000 2000000" "n1e6 1000000 10000000" "pl 100000 1000000 --degree-exponent 2.5")
for spec in "${graphs[@]}"; do
  set -- $spec
  tag=$1; shift
  [ -f "$work/g_$tag.tsv" ] || "$BUILD/exogen" --nodes "$1" --edges "$2" "${@:3}" --seed 1 \
    --out "$work/g_$tag.tsv" --truth "$work/t_$tag.tsv" --quiet 2>/dev/null
  for algo in lp leiden; do
    for mem in 64MB 1GB; do
      st="$work/st_${tag}_${algo}_$mem.txt"
      td="$work/tmp"
      rm -rf "$td"; mkdir -p "$td"
      "$BUILD/exolabel" --seed 1 --threads 2 --memory-limit "$mem" --algorithm "$algo" \
        --stats --tempdir "$td" -o "$work/out.tsv" "$work/g_$tag.tsv" 2> "$st" &
      pid=$!
      # the temporary files actually present (sampled every 20 ms: Leiden's
      # own files are not in the core's peak_temp_disk)
      peak=0
      while kill -0 "$pid" 2>/dev/null; do
        b=$(du -sb "$td" 2>/dev/null | cut -f1 || true); b=${b:-0} # du fails when a file vanishes
        [ "$b" -gt "$peak" ] && peak=$b
        sleep 0.02
      done
      wait "$pid"
      printf 'du_peak\t%s\n' "$peak" >> "$st"
    done
  done
done
rm -rf "$work/tmp" "$work/out.tsv"
R_LIBS=${RLIB:+$RLIB:}${R_LIBS:-} Rscript benchmarks/estimates/compare.R "$work"

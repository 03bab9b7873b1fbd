#!/usr/bin/env bash
# benchmarks/ssn/copies.sh BASE K OUT: K disjoint copies of the simulated set
# in folder BASE (its truth.tsv and every search output TOOL.m8 whose
# TOOL.done exists), names prefixed "c1_" .. "cK_", written to folder OUT:
# a larger graph of the same difficulty without a new search (the sizes
# BASExK of run.sh, e.g. 10000x10). Existing outputs are kept.
set -euo pipefail
b=$1 k=$2 d=$3
mkdir -p "$d"
searches=""
for s in diamond mmseqs; do [ -e "$b/$s.done" ] && searches="$searches $s"; done
[ -n "$searches" ] || { echo "copies.sh: $b has no search output yet" >&2; exit 1; }
if [ ! -s "$d/truth.tsv" ]; then
  awk -F'\t' -v OFS='\t' -v k="$k" 'NR == 1 { print; next } { l[++m] = $0 }
    END { for (r = 1; r <= k; r++) for (i = 1; i <= m; i++) { split(l[i], f, "\t");
      f[1] = "c" r "_" f[1]; f[2] = "c" r "_" f[2]; if (f[4] != "NA") f[4] = "c" r "_" f[4];
      print f[1], f[2], f[3], f[4], f[5], f[6], f[7] } }' "$b/truth.tsv" > "$d/truth.tsv"
fi
for s in $searches; do
  if [ ! -e "$d/$s.done" ]; then
    for r in $(seq 1 "$k"); do
      awk -F'\t' -v OFS='\t' -v r="$r" '{ $1 = "c" r "_" $1; $2 = "c" r "_" $2; print }' "$b/$s.m8"
    done > "$d/$s.m8"
    printf 'NA\tNA\tNA\tNA\n' > "$d/$s.search.time"
    echo NA > "$d/$s.search.load"
    touch "$d/$s.done"
  fi
done

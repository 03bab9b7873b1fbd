#!/usr/bin/env bash
# cluster_mcl.sh SEARCH_OUTPUT INFLATION OUT.tsv WORKDIR THREADS
# MCL as protein-family studies run it: the e-value column of the search
# output goes to mcxload as an abc file; both directions of a pair are
# combined by their maximum (--stream-mirror), weights are -log10(e-value)
# capped at 200 ('ceil(200)', which also caps an e-value of 0), then mcl at
# the given inflation and mcxdump back to protein names. Every step counts in
# the time (run this script under GNU time). Writes OUT.tsv as Vertex<TAB>
# Cluster (cluster = line number of mcxdump's output); prints elapsed s.
set -euo pipefail
in=$1 infl=$2 out=$3 work=$4 threads=$5
mkdir -p "$work"
t0=$(date +%s.%N)
cut -f 1,2,11 "$in" > "$work/g.abc"
mcxload -abc "$work/g.abc" --stream-mirror --stream-neg-log10 -stream-tf 'ceil(200)' \
  -o "$work/g.mci" -write-tab "$work/g.tab" 2> "$work/mcxload.log"
mcl "$work/g.mci" -I "$infl" -te "$threads" -o "$work/out.mci" 2> "$work/mcl.log"
mcxdump -icl "$work/out.mci" -tabr "$work/g.tab" -o "$work/clusters.txt" 2> "$work/mcxdump.log"
awk -F'\t' '{ for (i = 1; i <= NF; i++) print $i "\t" NR }' "$work/clusters.txt" > "$out"
rm -f "$work/g.abc" "$work/g.mci" "$work/out.mci"
awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", b - a }'

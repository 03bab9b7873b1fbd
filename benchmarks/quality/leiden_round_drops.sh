#!/usr/bin/env bash
# benchmarks/quality/leiden_round_drops.sh EXOGEN EXOLABEL [TMPDIR]
# How often a round of Leiden lowers the modularity reached by the round
# before it (session 31). Planted graphs of 33,000 nodes (lanes at level 0)
# and 165,000 unweighted edge lines, mixing 0.6, 0.7 and 0.75, generator
# seeds 1..4, clustered with seeds 1..3 and up to 100 rounds
# (`--algorithm leiden --iterations 100 --verbose`). Prints one line per run
# with a round whose quality is below the previous round's: which round, the
# two qualities, and whether the tool reports keeping the round before it;
# then the count. Its files go to a new folder under TMPDIR (default
# $TMPDIR or /tmp), removed at the end, on error too.
set -euo pipefail
EXOGEN=$1 EXOLABEL=$2
WORK=$(mktemp -d "${3:-${TMPDIR:-/tmp}}/leiden_round_drops.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
runs=0 drops=0
for mu in 0.6 0.7 0.75; do
  for s in 1 2 3 4; do
    "$EXOGEN" --nodes 33000 --edges 165000 --mixing "$mu" --min-comm 20 --max-comm 1000 \
      --seed "$s" --unweighted --quiet --out "$WORK/g.tsv" 2> /dev/null
    for es in 1 2 3; do
      runs=$((runs + 1))
      "$EXOLABEL" --seed "$es" --algorithm leiden --iterations 100 --verbose \
        -o "$WORK/c.tsv" "$WORK/g.tsv" 2> "$WORK/log" || { cat "$WORK/log"; exit 1; }
      line=$(grep -o 'iteration [0-9]*: quality [0-9.e-]*' "$WORK/log" |
        awk -v tag="mixing $mu graph seed $s seed $es" \
          'NR > 1 && $4 < p { printf "%s: round %d lowers %s -> %s", tag, NR, p, $4; exit } { p = $4 }')
      if [ -n "$line" ]; then
        drops=$((drops + 1))
        kept=no; grep -q 'lowered the quality; keeping' "$WORK/log" && kept=yes
        echo "$line (previous round kept: $kept)"
      fi
    done
  done
done
echo "runs with a round that lowers the quality: $drops of $runs"

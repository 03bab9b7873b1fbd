#!/usr/bin/env bash
# Seed noise for the Leiden lanes grid (lanes_quality.sh with
# ALGORITHM=leiden): the one-lane order (EXOLABEL_MAX_LANES=1) with the
# clustering seed 6 instead of 5 on the grid's 10^5-node graphs, NMI
# against the planted truth, so that the lanes' differences can be set
# beside a change of seed.
#   benchmarks/quality/leiden_seednoise.sh BUILD_DIR > OUT.csv
# BUILD_DIR as for lanes_quality.sh (its graphs must be there already).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?BUILD_DIR}
exolabel=${EXOLABEL:-$build/exolabel}
gdir=$build/lanes-graphs
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "graph,seed,nmi_one_lane_seed6"
for f in planted lfr; do for w in weighted unweighted; do for mu in 0.5 0.6 0.7 0.75; do for s in 1 2 3; do
  g=$gdir/$f-$w-n1e5-mu$mu-s$s
  EXOLABEL_MAX_LANES=1 "$exolabel" --algorithm leiden --seed 6 -o "$out" "$g.tsv" 2> /dev/null
  echo "$f-$w-n1e5-mu$mu,$s,$(awk -f tests/mpi/nmi.awk "$g.truth" "$out")"
done; done; done; done

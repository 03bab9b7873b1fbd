#!/usr/bin/env bash
# benchmarks/mpi/nmi_ranks.sh: NMI of exolabel-mpi at P = 1, 2, 4 against the
# planted truth, and the CLI's, on the planted 10^5-node graph of the quality
# benchmark at mixing 0.6, unweighted (issue 26: the distributed mode's NMI
# at 2 and 4 ranks should come within 0.005 of one process's).
#   BUILD=/abs/build bash benchmarks/mpi/nmi_ranks.sh [SEEDS...]   (default 1 2 3)
# Needs $BUILD/exolabel, $BUILD/exolabel-mpi (make cli mpi) and mpirun. Prints
# one line per run and the mean per P; a few minutes on 2 cores.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SEEDS=("$@")
[ ${#SEEDS[@]} -gt 0 ] || SEEDS=(1 2 3)
MPIRUN=(mpirun --oversubscribe --bind-to none)
if [ "$(id -u)" = 0 ]; then MPIRUN+=(--allow-run-as-root); fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/exolabel-nmi-ranks.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/tmp"
cc -std=c11 -O2 -o "$WORK/exogen" "$ROOT/benchmarks/gen/exogen.c" -lz -lm
"$WORK/exogen" --nodes 100000 --edges 1000000 --mixing 0.6 --min-comm 20 --max-comm 1000 \
  --seed 1 --unweighted --quiet --out "$WORK/g.tsv" --truth "$WORK/truth.tsv"
nmi() { awk -f "$ROOT/tests/mpi/nmi.awk" "$WORK/truth.tsv" "$1"; }
for seed in "${SEEDS[@]}"; do
  "$BUILD/exolabel" --seed "$seed" -o "$WORK/out.tsv" "$WORK/g.tsv"
  echo "cli seed $seed NMI $(nmi "$WORK/out.tsv")"
  for P in 1 2 4; do
    "${MPIRUN[@]}" -np "$P" "$BUILD/exolabel-mpi" --tempdir "$WORK/tmp" --seed "$seed" \
      -o "$WORK/out.tsv" "$WORK/g.tsv"
    echo "P=$P seed $seed NMI $(nmi "$WORK/out.tsv")"
  done
done | tee "$WORK/log"
awk '{ k = $1; s[k] += $5; n[k]++ } END { for (k in s) printf "mean %s %.4f (%d seeds)\n", k, s[k] / n[k], n[k] }' "$WORK/log" | sort

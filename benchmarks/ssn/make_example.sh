#!/usr/bin/env bash
# benchmarks/ssn/make_example.sh [BUILD]: the recipe of the small DIAMOND
# output shipped for the vignette and the examples:
#   inst/extdata/example_diamond.m8.gz   DIAMOND blastp --outfmt 6 (12 columns)
#   inst/extdata/example_diamond_truth.tsv  the simulated family of each protein
# 300 proteins from ssngen (seed 42; families of 5 to 30 members, 1% chimeras)
# searched all against all with DIAMOND 2.1 in its default mode, e-value
# cutoff 1e-5 and at most 10 hits per query (to keep the file small).
# DIAMOND's output order depends on its threads, so the file is sorted.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-${BUILD:-build}}
mkdir -p "$BUILD/example"
bash tools/install-bench-deps.sh
cc -std=c11 -O2 -Wall -Wextra -o "$BUILD/ssngen" benchmarks/ssn/ssngen.c -lm
w=$BUILD/example
"$BUILD/ssngen" -n 300 --seed 42 --min-family 5 --max-family 30 --family-exponent 1.5 \
  --chimeras 0.01 --fasta "$w/proteins.fa" --truth "$w/truth.tsv"
diamond makedb --in "$w/proteins.fa" -d "$w/db" --quiet
diamond blastp -q "$w/proteins.fa" -d "$w/db" -o "$w/hits.m8" --outfmt 6 --evalue 1e-5 \
  --max-target-seqs 10 --threads 2 --quiet
LC_ALL=C sort -k1,1 -k12,12gr -k2,2 "$w/hits.m8" | gzip -9n > inst/extdata/example_diamond.m8.gz
cut -f 1-4 "$w/truth.tsv" > inst/extdata/example_diamond_truth.tsv
ls -l inst/extdata/example_diamond.m8.gz inst/extdata/example_diamond_truth.tsv

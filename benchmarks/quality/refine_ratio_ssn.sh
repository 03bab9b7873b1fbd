#!/usr/bin/env bash
# Label propagation with its merge passes on real protein searches, at several
# merge thresholds (benchmarks/quality/DEFAULT.md, "The merge threshold"):
#   refine_ratio_ssn.sh OUT.csv EXOLABEL RATIOS SEEDS SETDIR/SEARCH.m8...
# SETDIR holds truth.tsv as benchmarks/ssn/real.sh writes it (the searches
# too: benchmarks/ssn/search.sh SETDIR diamond|diamond_ms|mmseqs_s7.5).
# EXOLABEL is a command-line tool built with
# benchmarks/quality/refine_ratio_experiment.patch (the threshold from
# EXO_EXP_RATIO); an unpatched build gives its default for every ratio.
# Each run: exolabel --format blast --algorithm lp --seed S (refine's default
# 5 passes); scores by benchmarks/ssn/metrics_real.R, one row per run.
set -euo pipefail
out=$1 exo=$2 ratios=$3 seeds=$4; shift 4
here=$(cd "$(dirname "$0")/../ssn" && pwd)
[ -s "$out" ] || echo "search,ratio,seed,family_ari,family_prec,family_rec,family_nmi,superfamily_ari,superfamily_prec,superfamily_rec,superfamily_nmi,in_output,clusters,clusters_2plus,largest_share" > "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for m8 in "$@"; do
  d=$(dirname "$m8"); name=$(basename "$d")-$(basename "$m8" .m8)
  for r in ${ratios//,/ }; do for s in ${seeds//,/ }; do
    EXO_EXP_RATIO=$r "$exo" --format blast --algorithm lp --seed "$s" -o "$tmp/c.tsv" "$m8" 2> /dev/null
    echo "$name,$r,$s,$(Rscript "$here/metrics_real.R" "$d/truth.tsv" "$tmp/c.tsv")" >> "$out"
  done; done
done

#!/usr/bin/env bash
# benchmarks/ssn/heldout.sh SETDIR OUT.csv: the check of a real set held out
# from the choice of the default (issue 25; benchmarks/SSN.md, "Held-out
# real set: balifam"). SETDIR holds proteins.fa and truth.tsv as real.sh
# leaves them (e.g. SETS=balifam make ssn-bench, or real.sh balifam); the
# three searches are made by search.sh if missing (e-value 1e-3, at most
# 1000 targets). Then, per search: MCL at I = 1.4, 2, 4, igraph Leiden
# (modularity; CPM at 1), igraph label propagation and the connected
# components (seed 1), ExoLabel's default (`blast_default`) and the e-value
# default of earlier versions (`auto`: Leiden CPM "auto" on -log10 e-values)
# with seeds 1..5. One row per run in OUT.csv, scored by metrics_real.R.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=benchmarks/ssn d=$1 out=$2
RSCRIPT=${RSCRIPT:-Rscript}
THREADS=${THREADS:-2}
echo "set,search,method,seed,family_ari,family_prec,family_rec,family_nmi,superfamily_ari,superfamily_prec,superfamily_rec,superfamily_nmi,in_output,clusters,clusters_2plus,largest_share" > "$out"
for s in diamond diamond_ms mmseqs_s7.5; do
  EVALUE=1e-3 MAXT=1000 THREADS=$THREADS bash $here/search.sh "$d" "$s"
  m8=$d/$s.m8 c=$d/heldout-$s
  mkdir -p "$c"
  score() { echo "$(basename "$d"),$s,$1,$2,$("$RSCRIPT" $here/metrics_real.R "$d/truth.tsv" "$3")" >> "$out"; }
  for i in 1.4 2 4; do
    bash $here/cluster_mcl.sh "$m8" "$i" "$c/mcl_$i.tsv" "$c/mcl-work-$i" "$THREADS" > /dev/null
    score "mcl_$i" 1 "$c/mcl_$i.tsv"
  done
  for x in leiden cpm lp components; do
    "$RSCRIPT" $here/cluster_igraph.R "$m8" "$x" "$c/igraph_$x.tsv" > /dev/null
    score "igraph_$x" 1 "$c/igraph_$x.tsv"
  done
  for x in blast_default auto; do
    for seed in 1 2 3 4 5; do
      SEED=$seed "$RSCRIPT" $here/cluster_exolabel.R "$m8" "$x" "$c/exolabel_$x.tsv" "$THREADS" > /dev/null
      score "exolabel_$x" "$seed" "$c/exolabel_$x.tsv"
    done
  done
  echo "heldout.sh: $s done" >&2
done

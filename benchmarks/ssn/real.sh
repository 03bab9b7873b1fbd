#!/usr/bin/env bash
# benchmarks/ssn/real.sh SET: the real-protein part of `make ssn-bench`
# (called by run.sh for every name in SETS that is not a number).
#
# SET is a folder of benchmarks/ssn-data (sets shipped in the repository) or
# of shared/data (beside the repository's top folder, as CI checks it out:
# $(git rev-parse --show-toplevel)/../shared/data/SET). Known: scop40
# (shared/data; its README there: SCOPe domains at <= 40% identity with their
# SCOP family and superfamily) and swissprot_ec (benchmarks/ssn-data; its
# README: 7,757 full-length Swiss-Prot enzymes with their EC numbers, family
# = full EC number, superfamily = EC sub-subclass) and balifam
# (benchmarks/ssn-data; its README: 7,221 Pfam domain sequences of 59
# families around BAliBASE references, family level only) and scop40_fusions
# (issue 54's bridge set, made from scop40 by make_fusions.R: the 11,206
# domains plus 1,500 two-domain fusions of different superfamilies; only the
# domains are scored; its searches add qlen and slen as columns 13-14). The sequences are searched all
# against all (search.sh, e-value 1e-3, at most 1000 targets per query):
# DIAMOND default mode (diamond), DIAMOND --more-sensitive (diamond_ms),
# MMseqs2 -s 7.5 (mmseqs_s7.5). Each raw search output is clustered by
# ExoLabel (cluster_exolabel.R, settings REAL_EXO, seeds 1..REAL_SEEDS, one
# process per run under GNU time), MCL at I = 1.4, 2, 4, igraph Leiden
# (modularity; CPM at resolution 1), igraph label propagation and connected
# components (seed 1); MMseqs2 easy-cluster clusters the sequences itself
# (its own search, default settings), once per set, and is listed with
# every search. Scores: metrics_real.R (family and superfamily ARI, pair
# precision and recall; NMI, inflated by singletons). Rows go to
# $WORK/SET/real-SEARCH.csv; run.sh collects them into benchmarks/ssn/real.csv.
# Environment: as run.sh (BUILD, WORK, THREADS, RSCRIPT, SEARCHES, APPEND),
# REAL_EXO ("blast_default default cpm leiden bitscore cpm_strength":
# blast_default is `format = "blast"` alone, today's default, Leiden CPM at
# resolution "auto"; default is label propagation, the default before it),
# REAL_SEEDS (5),
# REAL_PEERS (1; 0 runs only the ExoLabel settings, e.g. with APPEND=1 to
# add a setting to the rows already there).
set -euo pipefail
cd "$(dirname "$0")/../.."
set_name=$1
here=benchmarks/ssn
THREADS=${THREADS:-2}
RSCRIPT=${RSCRIPT:-Rscript}
REAL_EXO=${REAL_EXO:-"blast_default default cpm leiden bitscore cpm_strength"}
REAL_PEERS=${REAL_PEERS:-1}
REAL_SEEDS=${REAL_SEEDS:-5}
# the shared data: SHARED_DATA if set, else shared/data beside the repository's
# top folder (for a git worktree, also beside the main checkout)
top=$(git rev-parse --show-toplevel)
common=$(cd "$(git rev-parse --git-common-dir)/.." && pwd)
data=""
# (sets small enough to ship lie in the repository: benchmarks/ssn-data/SET)
# (scop40_fusions is made from scop40's files: make_fusions.R)
src_name=$set_name; [ "$set_name" = scop40_fusions ] && src_name=scop40
for c in "$top/benchmarks/ssn-data" ${SHARED_DATA:+"$SHARED_DATA"} "$top/../shared/data" "$common/../shared/data"; do
  if [ -d "$c/$src_name" ]; then data=$(cd "$c/$src_name" && pwd); break; fi
done
if [ -z "$data" ]; then
  echo "real.sh: real set '$src_name' not found: looked for shared/data/$src_name beside $top${SHARED_DATA:+ and in $SHARED_DATA} (the shared data folder must lie beside the repository's top folder, or set SHARED_DATA)" >&2
  exit 1
fi
d=$WORK/$set_name
mkdir -p "$d"
case "$set_name" in
  scop40)
    if [ ! -s "$d/truth.tsv" ]; then
      zcat "$data/scop40.fa.gz" > "$d/proteins.fa"
      # truth: the domains of the FASTA file; superfamily = first 3 fields of the sccs
      awk '/^>/ { print substr($1, 2) }' "$d/proteins.fa" > "$d/ids"
      zcat "$data/scop40_labels.tsv.gz" | awk -F'\t' 'BEGIN { OFS = "\t"; print "protein", "family", "superfamily" }
        NR == FNR { keep[$1] = 1; next } ($1 in keep) { split($2, f, "."); print $1, $2, f[1] "." f[2] "." f[3] }' \
        "$d/ids" - > "$d/truth.tsv"
    fi ;;
  swissprot_ec)
    if [ ! -s "$d/truth.tsv" ]; then
      zcat "$data/swissprot_ec.fa.gz" > "$d/proteins.fa"
      # truth (README of benchmarks/ssn-data/swissprot_ec): family = the
      # protein's EC numbers (sorted, joined by ';': a multifunctional enzyme
      # is its own class), superfamily = its distinct EC sub-subclasses (the
      # first three fields), sorted and joined the same way
      zcat "$data/swissprot_ec_labels.tsv.gz" | awk -F'\t' 'BEGIN { OFS = "\t"; print "protein", "family", "superfamily" }
        function srt(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
        NR > 1 { n = split($2, e, ";"); srt(e, n); fam = e[1]; for (i = 2; i <= n; i++) fam = fam ";" e[i]
          m = 0; delete seen; for (i = 1; i <= n; i++) { split(e[i], f, "."); p = f[1] "." f[2] "." f[3]; if (!(p in seen)) { seen[p] = 1; s3[++m] = p } }
          srt(s3, m); sf = s3[1]; for (i = 2; i <= m; i++) sf = sf ";" s3[i]
          print $1, fam, sf }' > "$d/truth.tsv"
    fi ;;
  balifam)
    if [ ! -s "$d/truth.tsv" ]; then
      zcat "$data/balifam.fa.gz" > "$d/proteins.fa"
      # truth (README of benchmarks/ssn-data/balifam): family = the Pfam
      # accession(s); no superfamily level in the source: the family again
      zcat "$data/balifam_labels.tsv.gz" | awk -F'\t' 'BEGIN { OFS = "\t"; print "protein", "family", "superfamily" }
        NR > 1 { print $1, $2, $2 }' > "$d/truth.tsv"
    fi ;;
  scop40_fusions)
    # the bridge set of issue 54: SCOP40's domains plus 1,500 fusions of two
    # domains of different superfamilies (make_fusions.R, seed 54); truth =
    # the domains only, the fusions (unscored.txt) are clustered but not scored
    [ -s "$d/truth.tsv" ] || "$RSCRIPT" $here/make_fusions.R "$data/scop40.fa.gz" "$data/scop40_labels.tsv.gz" "$d" 1500 54
    ;;
  *) echo "real.sh: unknown real set '$set_name' (known: scop40, scop40_fusions, swissprot_ec, balifam)" >&2; exit 1 ;;
esac
searches="diamond diamond_ms mmseqs_s7.5"
if [ -n "${SEARCHES:-}" ]; then
  keep=""; for s in $searches; do case " $SEARCHES " in *" $s "*) keep="$keep $s" ;; esac; done; searches=$keep
fi
load1() { cut -d' ' -f1 /proc/loadavg; }
HEAD="set,search,method,seed,wall_s,inner_s,user_s,sys_s,maxrss_kb,load1,family_ari,family_prec,family_rec,family_nmi,superfamily_ari,superfamily_prec,superfamily_rec,superfamily_nmi,in_output,clusters,clusters_2plus,largest_share"
# timed CSV SEARCH METHOD SEED OUT CMD...: one run under GNU time, scored
timed() {
  local csv=$1 search=$2 meth=$3 seed=$4 out=$5; shift 5
  local tf l inner wall user sys rss
  tf=$(mktemp); l=$(load1)
  inner=$(/usr/bin/time -f '%e,%U,%S,%M' -o "$tf" "$@" | tail -n 1)
  IFS=, read -r wall user sys rss < "$tf"; rm -f "$tf"
  echo "$set_name,$search,$meth,$seed,$wall,$inner,$user,$sys,$rss,$l,$("$RSCRIPT" $here/metrics_real.R "$d/truth.tsv" "$out")" >> "$csv"
  echo "  $set_name $search $meth seed $seed: ${wall}s $(tail -n 1 "$csv" | cut -d, -f11,15)" >&2
}
# MMseqs2 easy-cluster (its own search and clustering; default settings)
if [ "$REAL_PEERS" = 1 ] && [ ! -s "$d/easycluster.csv" ]; then
  rm -rf "$d/ec_tmp"
  echo "$HEAD" > "$d/easycluster.csv"
  timed "$d/easycluster.csv" NA mmseqs_easy-cluster 1 "$d/easycluster.tsv" bash -c '
    t0=$(date +%s.%N)
    nice -n 5 mmseqs easy-cluster "$1" "$2/ec" "$2/ec_tmp" --threads "$3" -v 1 > /dev/null
    awk -F"\t" -v OFS="\t" "{ print \$2, \$1 }" "$2/ec_cluster.tsv" > "$2/easycluster.tsv"
    rm -rf "$2/ec_tmp" "$2/ec_all_seqs.fasta" "$2/ec_rep_seq.fasta"
    awk -v a="$t0" -v b="$(date +%s.%N)" "BEGIN { printf \"%.3f\n\", b - a }"' _ "$d/proteins.fa" "$d" "$THREADS"
fi
for s in $searches; do
  echo "== $set_name: $s search (load $(load1))" >&2
  # scop40_fusions: the search output has qlen and slen after the 12 columns
  LENCOLS=0; [ "$set_name" = scop40_fusions ] && LENCOLS=1
  LENCOLS=$LENCOLS EVALUE=1e-3 MAXT=1000 bash $here/search.sh "$d" "$s"
  IFS=$'\t' read -r w u sy m < "$d/$s.search.time"
  mk=NA; [ -f "$d/diamond.makedb.time" ] && case $s in diamond*) mk=$(cut -f1 "$d/diamond.makedb.time") ;; esac
  { echo "set,search,makedb_s,search_s,user_s,sys_s,maxrss_kb,hits"
    echo "$set_name,$s,$mk,$w,$u,$sy,$m,$(wc -l < "$d/$s.m8")"; } > "$d/search-$s.csv"
  csv=$d/real-$s.csv
  if [ "${APPEND:-0}" != 1 ] || [ ! -f "$csv" ]; then echo "$HEAD" > "$csv"; fi
  m8=$d/$s.m8 cdir=$d/clusters-$s
  mkdir -p "$cdir"
  for x in $REAL_EXO; do
    for seed in $(seq 1 "$REAL_SEEDS"); do
      SEED=$seed timed "$csv" "$s" "exolabel_$x" "$seed" "$cdir/exolabel_$x.tsv" \
        "$RSCRIPT" $here/cluster_exolabel.R "$m8" "$x" "$cdir/exolabel_$x.tsv" "$THREADS"
    done
  done
  [ "$REAL_PEERS" = 1 ] || continue
  for i in 1.4 2 4; do
    timed "$csv" "$s" "mcl_$i" 1 "$cdir/mcl_$i.tsv" bash $here/cluster_mcl.sh "$m8" "$i" "$cdir/mcl_$i.tsv" "$cdir/mcl-work-$i" "$THREADS"
  done
  for x in leiden cpm lp components; do
    timed "$csv" "$s" "igraph_$x" 1 "$cdir/igraph_$x.tsv" "$RSCRIPT" $here/cluster_igraph.R "$m8" "$x" "$cdir/igraph_$x.tsv"
  done
  tail -n +2 "$d/easycluster.csv" | sed "s/^$set_name,NA,/$set_name,$s,/" >> "$csv"
done

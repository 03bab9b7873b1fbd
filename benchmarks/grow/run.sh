#!/usr/bin/env bash
# benchmarks/grow/run.sh: growing a clustering (issue 57), `make grow-bench`
# (also the last step of `make ssn-bench`); report: benchmarks/GROW.md.
#
# Part 1, updates. For each set of SETS and each share f of FRACS, a seeded
# random share f of the proteins (nodes) is "new": their hits (with the old
# proteins and among themselves) are the new file, the other hits the old
# file. Then, with the command-line tool on THREADS threads:
#   full     the whole hit file clustered from scratch (timed, REPS runs);
#   old      the old file clustered once with --keep-graph (not timed);
#   update   --graph (the kept graph) --initial (the old clusters) and the
#            new file only (timed, REPS runs; the kept graph is not changed);
# and score.R compares the clusterings (ARI against the truth and against
# the full run, the share of old proteins whose id is unchanged where their
# family did not change). Each run's wall time, peak RSS and the sort's peak
# temporary disk come from --stats.
# Part 2, nested levels (NESTED_SETS, levels NESTED_RES): one run with
# --nested against one independent run per resolution, scored at family and
# superfamily level (score_levels of benchmarks/ssn/scores.R).
#
# Sets: scop40, swissprot_ec (real SCOPe domains, Swiss-Prot enzymes;
# DIAMOND --more-sensitive hits, prepared by benchmarks/ssn/real.sh), 10000x10 (10^5 simulated proteins: 10 disjoint
# copies of the 10^4-protein set of make ssn-bench, its DIAMOND hits),
# bench20m (the 2 x 10^7-edge planted graph of make bench: 10^6 nodes,
# exogen --nodes 1e6 --edges 2e7 --min-comm 100 --max-comm 5000
# --seed 1, the graph g20m.tsv of make bench). SSN sets run the default of
# --format blast (Leiden, CPM, resolution auto); bench20m runs the default
# of plain edges (label propagation with merge passes) and Leiden
# (--algorithm leiden).
# Environment: BUILD (build dir with the CLI; work files in
# $WORK = $BUILD/ssn-work by default, shared with make ssn-bench), SETS
# ("scop40 10000x10 bench20m"), FRACS ("0.01 0.10"), REPS (3), THREADS (2),
# NESTED_SETS ("scop40"), NESTED_RES (see below), OUT (benchmarks/grow).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd || { mkdir -p "$BUILD"; cd "$BUILD"; pwd; })
WORK=${WORK:-$BUILD/ssn-work}
SETS=${SETS:-"scop40 10000x10 bench20m"}
FRACS=${FRACS:-"0.01 0.10"}
REPS=${REPS:-3}
THREADS=${THREADS:-2}
NESTED_SETS=${NESTED_SETS-"scop40 swissprot_ec"}
# levels of --nested, finest first: --resolution values for --algorithm
# leiden --objective cpm on the bit scores over self scores of --format blast
# (absolute: "auto" scales each connected component, which on these sets
# makes every factor give the same clusters)
NESTED_RES=${NESTED_RES:-"0.01,0.002,5e-4"}
OUT=${OUT:-benchmarks/grow}
RSCRIPT=${RSCRIPT:-Rscript}
if [ -n "${RLIB:-}" ]; then export R_LIBS="$RLIB${R_LIBS:+:$R_LIBS}"; fi
cli=$BUILD/exolabel
here=benchmarks/grow
export WORK THREADS RSCRIPT
mkdir -p "$WORK"

prepare() { # prepare SET: the set's folder with hits.tsv (or a search output) and truth
  local s=$1 d
  case "$s" in
    scop40|swissprot_ec|balifam)
      # (the real sets' search of make ssn-bench: DIAMOND --more-sensitive)
      d=$WORK/$s
      if [ ! -e "$d/diamond_ms.done" ]; then
        SEARCHES=diamond_ms REAL_EXO=blast_default REAL_PEERS=0 REAL_SEEDS=1 \
          bash benchmarks/ssn/real.sh "$s" >&2
      fi
      echo "$d/diamond_ms.m8 $d/truth.tsv blast" ;;
    *x*)
      local base=${s%x*} k=${s#*x}
      d=$WORK/n$base
      if [ ! -e "$d/diamond.done" ]; then
        mkdir -p "$d"
        cc -std=c11 -O2 -Wall -o "$BUILD/ssngen" benchmarks/ssn/ssngen.c -lm
        [ -s "$d/truth.tsv" ] || "$BUILD/ssngen" -n "$base" --seed $(( base / 10000 > 0 ? base / 10000 : 1 )) \
          --fasta "$d/proteins.fa" --truth "$d/truth.tsv"
        bash benchmarks/ssn/search.sh "$d" diamond >&2
      fi
      bash benchmarks/ssn/copies.sh "$d" "$k" "$WORK/n$s"
      echo "$WORK/n$s/diamond.m8 $WORK/n$s/truth.tsv blast" ;;
    bench20m)
      d=$WORK/bench20m
      mkdir -p "$d"
      if [ ! -s "$d/truth.tsv" ]; then
        cc -std=c11 -O2 -o "$BUILD/exogen" benchmarks/gen/exogen.c -lz -lm
        "$BUILD/exogen" --nodes 1e6 --edges 2e7 --min-comm 100 --max-comm 5000 --seed 1 --out "$d/graph.tsv" --truth "$d/truth.tsv" --quiet
      fi
      echo "$d/graph.tsv $d/truth.tsv edges" ;;
    *) echo "grow/run.sh: unknown set $s" >&2; exit 1 ;;
  esac
}

stat() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$2"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

csv=$OUT/updates.csv
echo "set,method,new_share,proteins,new_proteins,old_hits,new_hits,full_s,update_s,ratio,full_rss_mb,update_rss_mb,full_disk_mb,update_disk_mb,kept_graph_mb,ari_full,ari_updated,ari_vs_full,same_family,same_id_share,id_unchanged_share,ids_kept,ids_merged,ids_split,ids_new" > "$csv.tmp"
for s in $SETS; do
  read -r hits truth kind < <(prepare "$s")
  methods="default"
  [ "$kind" = edges ] && methods="default leiden"
  w=$WORK/grow/$s
  mkdir -p "$w"
  # the nodes, in the truth's order (SSN truth tables have a header)
  awk -F'\t' 'NR == 1 && $1 == "protein" { next } { print $1 }' "$truth" > "$w/nodes"
  nprot=$(wc -l < "$w/nodes")
  for f in $FRACS; do
    awk -v f="$f" 'BEGIN { srand(57) } rand() < f' "$w/nodes" > "$w/new.$f"
    awk -F'\t' -v o="$w/old.$f.tsv" -v n="$w/newhits.$f.tsv" 'NR == FNR { nw[$1] = 1; next }
      { if (($1 in nw) || ($2 in nw)) print > n; else print > o }' "$w/new.$f" "$hits"
    for m in $methods; do
      args=(--threads "$THREADS" --seed 1)
      [ "$kind" = blast ] && args+=(--format blast)
      [ "$m" = leiden ] && args+=(--algorithm leiden)
      tag=$m.$f
      rm -rf "$w/kept.$tag"
      "$cli" "${args[@]}" --keep-graph "$w/kept.$tag" -o "$w/old.$tag.out" "$w/old.$f.tsv"
      fs=() us=() fr=() ur=() fd=() ud=()
      for r in $(seq 1 "$REPS"); do
        echo "== $s $m new share $f: rep $r" >&2
        "$cli" "${args[@]}" --stats -o "$w/full.$tag.out" "$hits" 2> "$w/full.$tag.stats"
        "$cli" "${args[@]}" --stats --graph "$w/kept.$tag" --initial "$w/old.$tag.out" \
          -o "$w/upd.$tag.out" "$w/newhits.$f.tsv" 2> "$w/upd.$tag.stats"
        fs+=("$(stat seconds "$w/full.$tag.stats")"); us+=("$(stat seconds "$w/upd.$tag.stats")")
        fr+=("$(stat peak_rss "$w/full.$tag.stats")"); ur+=("$(stat peak_rss "$w/upd.$tag.stats")")
        fd+=("$(stat peak_temp_disk "$w/full.$tag.stats")"); ud+=("$(stat peak_temp_disk "$w/upd.$tag.stats")")
      done
      ft=$(printf '%s\n' "${fs[@]}" | median); ut=$(printf '%s\n' "${us[@]}" | median)
      mb() { printf '%s\n' "$@" | median | awk '{ printf "%.1f", $1 / 1048576 }'; }
      sc=$("$RSCRIPT" $here/score.R "$truth" "$w/old.$tag.out" "$w/full.$tag.out" "$w/upd.$tag.out" "$w/new.$f")
      ids="$(stat ids_kept "$w/upd.$tag.stats"),$(stat ids_merged "$w/upd.$tag.stats"),$(stat ids_split "$w/upd.$tag.stats"),$(stat ids_new "$w/upd.$tag.stats")"
      echo "$s,$m,$f,$nprot,$(wc -l < "$w/new.$f"),$(wc -l < "$w/old.$f.tsv"),$(wc -l < "$w/newhits.$f.tsv"),$ft,$ut,$(awk -v a="$ut" -v b="$ft" 'BEGIN { printf "%.3f", a / b }'),$(mb "${fr[@]}"),$(mb "${ur[@]}"),$(mb "${fd[@]}"),$(mb "${ud[@]}"),$(du -sm "$w/kept.$tag" | cut -f1),$sc,$ids" >> "$csv.tmp"
      tail -1 "$csv.tmp" >&2
    done
  done
done
mv "$csv.tmp" "$csv"

csv=$OUT/nested.csv
echo "set,run,level,resolution,seconds,clusters,family_ari,family_prec,family_rec,superfamily_ari,superfamily_prec,superfamily_rec,nested_ok" > "$csv.tmp"
for s in $NESTED_SETS; do
  read -r hits truth kind < <(prepare "$s")
  w=$WORK/grow/$s
  mkdir -p "$w"
  args=(--threads "$THREADS" --seed 1 --format blast --algorithm leiden --objective cpm)
  "$cli" "${args[@]}" --nested --resolution "$NESTED_RES" --stats -o "$w/nested.out" "$hits" 2> "$w/nested.stats"
  IFS=, read -ra levels <<< "$NESTED_RES"
  for i in "${!levels[@]}"; do
    r=${levels[$i]}
    cut -f1,$((i + 2)) "$w/nested.out" > "$w/nested.l$i.out"
    "$cli" "${args[@]}" --resolution "$r" --stats -o "$w/indep.l$i.out" "$hits" 2> "$w/indep.l$i.stats"
    for run in nested indep; do
      sec=$(stat seconds "$w/$run.$([ $run = nested ] && echo stats || echo l$i.stats)")
      "$RSCRIPT" -e 'here <- "benchmarks/ssn"; source(file.path(here, "scores.R"))
        a <- commandArgs(TRUE); tr <- read_truth(a[1])
        cl <- fread(a[2], sep = "\t", header = FALSE, col.names = c("Vertex", "Cluster"), colClasses = "character")
        sc <- score_levels(tr, cl$Vertex, cl$Cluster, c("family", "superfamily"))
        cat(length(unique(cl$Cluster)), paste(sprintf("%.4f", sc[c("family_ari", "family_prec", "family_rec", "superfamily_ari", "superfamily_prec", "superfamily_rec")]), collapse = ","), sep = ",")' \
        "$truth" "$w/$run.l$i.out" > "$w/score.tmp"
      ok=NA
      if [ "$run" = nested ] && [ "$i" -gt 0 ]; then
        # every cluster of this level is a union of clusters of the level below
        ok=$(awk -F'\t' -v a=$((i + 1)) -v b=$((i + 2)) '{ if (($a in up) && up[$a] != $b) bad = 1; up[$a] = $b } END { print bad ? "no" : "yes" }' "$w/nested.out")
      fi
      echo "$s,$run,$((i + 1)),$r,$sec,$(cat "$w/score.tmp"),$ok" >> "$csv.tmp"
      tail -1 "$csv.tmp" >&2
    done
  done
done
mv "$csv.tmp" "$csv"
{ echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src R cli || echo ' (with uncommitted changes)')"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, threads $THREADS, reps $REPS"
  echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/machine.txt"
echo "grow/run.sh: results in $OUT/updates.csv, $OUT/nested.csv" >&2

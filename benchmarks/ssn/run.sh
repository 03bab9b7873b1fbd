#!/usr/bin/env bash
# benchmarks/ssn/run.sh: the protein-family benchmark behind `make ssn-bench`
# (report: benchmarks/SSN.md; method: benchmarks/ssn/README.md).
#
# For each size N in SIZES it simulates N proteins (ssngen.c, seed N/10^4),
# searches them all against all with DIAMOND and MMseqs2 (search.sh), and
# clusters each raw search output with ExoLabel (R, several settings; the
# recommended one also from the command-line tool), MCL at inflation 1.4 and
# 2.0 (cluster_mcl.sh), and igraph's Leiden and label propagation
# (cluster_igraph.R; also its connected components as a reference). Each clustering runs in its own process under GNU time
# (wall time, CPU, peak RSS), REPS times unless the first run took more than
# SLOW seconds; then metrics.R compares its clusters with the families.
#
# Environment: BUILD (build dir: ssngen, the CLI, work files under
# $BUILD/ssn-work unless WORK is set), RLIB (R library with ExoLabel),
# SETS ("scop40 scop40_fusions swissprot_ec balifam 10000 100000": the sets to run; a name that is
# not a number is a real set of benchmarks/ssn-data or shared/data, run by
# real.sh: SCOP40 domains, the SCOP40 fusion bridge set of issue 54,
# Swiss-Prot enzymes and balifam, see its header),
# SIZES (the numeric part of SETS; a size BASExK, e.g. 10000x10, is K disjoint copies
# of the set BASE with its search outputs, renamed: no new search, a larger
# graph of the same difficulty for timing the clusterings), REPS (3), SLOW (60), THREADS (2), MMSEQS_MAX
# (largest N searched with MMseqs2 too: 100000; its 10^5 search needs hours
# on 2 cores), EXO_SETTINGS (the ExoLabel
# settings of cluster_exolabel.R), RECOMMENDED (the setting judged against
# the targets, also run by the CLI with and without memory_limit 32MB: cpm,
# i.e. Leiden with CPM at resolution 1 on -log10(e-value)), SEARCHES (e.g. "diamond": only these searches and their
# clusterings; results of the others stay as they are), METHODS (e.g.
# "exolabel_bitscore mcl_2.0": only these methods), APPEND=1 (add to the
# results of the set instead of replacing them), SEEDS (5: the CLI runs the
# settings SEED_SETTINGS, default "RECOMMENDED bitscore bitscore_refine
# bitscore_res0", with
# seeds 1..SEEDS once each, for the spread of the NMI over seeds; 0 = none),
# REPORT_ONLY=1 (only collect
# the results in $WORK and write the report).
# Results per size go to $WORK/nN/*.csv; all sizes present in $WORK are then
# collected into benchmarks/ssn/{search,timings,metrics}.csv and report.R
# writes benchmarks/SSN.md. Searches already done are reused (delete
# $WORK/nN/TOOL.done to redo one).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd || { mkdir -p "$BUILD"; cd "$BUILD"; pwd; })
WORK=${WORK:-$BUILD/ssn-work}
SETS=${SETS:-"scop40 scop40_fusions swissprot_ec balifam ${SIZES:-10000 100000}"}
SIZES="" REAL_SETS=""
for x in $SETS; do
  case "$x" in [0-9]*) SIZES="$SIZES $x" ;; *) REAL_SETS="$REAL_SETS $x" ;; esac
done
if [ "${REPORT_ONLY:-0}" = 1 ]; then SIZES=""; REAL_SETS=""; fi
REPS=${REPS:-3}
SLOW=${SLOW:-60}
THREADS=${THREADS:-2}
MMSEQS_MAX=${MMSEQS_MAX:-100000}
EXO_SETTINGS=${EXO_SETTINGS:-"default bitscore bitscore_res0 bitscore_refine bitscore_att_refine bitscore_leiden cpm cpm_32MB"}
RECOMMENDED=${RECOMMENDED:-cpm}; export RECOMMENDED
SEEDS=${SEEDS:-5}
SEED_SETTINGS=${SEED_SETTINGS:-"$RECOMMENDED bitscore bitscore_refine bitscore_res0"}
RSCRIPT=${RSCRIPT:-Rscript}
if [ -n "${RLIB:-}" ]; then export R_LIBS="$RLIB${R_LIBS:+:$R_LIBS}"; fi
here=benchmarks/ssn
bash tools/install-bench-deps.sh
mkdir -p "$WORK"
cc -std=c11 -O2 -Wall -Wextra -o "$BUILD/ssngen" $here/ssngen.c -lm
EXOLABEL_CLI=$BUILD/exolabel
load1() { cut -d' ' -f1 /proc/loadavg; }
export WORK THREADS RSCRIPT
# each real set run here: its rows in $WORK/SET, and the machine and run in
# $WORK/SET/machine.txt (lines "SET: ..."; collected into real_machine.txt)
for rs in $REAL_SETS; do
  bash $here/real.sh "$rs"
  { echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src R || echo ' (with uncommitted changes)')"
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
    echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "tools: $(diamond version 2>&1 | head -1); MMseqs2 $(mmseqs version 2>&1 | head -1); $(mcl --version 2>&1 | head -1)"
  } | sed "s/^/$rs: /" > "$WORK/$rs/machine.txt"
done

# run_timed CSV SIZE SEARCH METHOD OUT CMD...: runs CMD REPS times (once if
# the first run is slower than SLOW s), appending size,search,method,rep,
# wall_s,inner_s,user_s,sys_s,maxrss_kb,load1 per run; the clusters of the
# last run stay in OUT.
run_timed() {
  local csv=$1 size=$2 search=$3 method=$4 out=$5; shift 5
  local rep tf inner wall
  tf=$(mktemp)
  for rep in $(seq 1 "$REPS"); do
    local l=$(load1)
    inner=$(/usr/bin/time -f '%e,%U,%S,%M' -o "$tf" "$@" | tail -n 1)
    IFS=, read -r wall user sys rss < "$tf"
    echo "$size,$search,$method,$rep,$wall,$inner,$user,$sys,$rss,$l" >> "$csv"
    echo "  $search $method rep $rep: ${wall}s, ${rss} KB (load $l)" >&2
    awk -v w="$wall" -v s="$SLOW" 'BEGIN { exit !(w > s) }' && break
  done
  rm -f "$tf"
}

for n in $SIZES; do
  d=$WORK/n$n
  mkdir -p "$d"
  case "$n" in
    *x*) # BASExK: K disjoint copies of the set BASE and of its search outputs
      base=${n%x*} k=${n#*x} b=$WORK/n${n%x*}
      seed=NA nprot=$(( base * k )) searches=""
      for s in diamond mmseqs; do [ -e "$b/$s.done" ] && searches="$searches $s"; done
      [ -n "$searches" ] || { echo "run.sh: $n needs the searches of $base first" >&2; exit 1; }
      bash $here/copies.sh "$b" "$k" "$d" ;;
    *)
      seed=$(( n / 10000 > 0 ? n / 10000 : 1 )) nprot=$n
      if [ ! -s "$d/truth.tsv" ]; then
        "$BUILD/ssngen" -n "$n" --seed "$seed" --fasta "$d/proteins.fa" --truth "$d/truth.tsv"
      fi
      searches="diamond"
      if [ "$n" -le "$MMSEQS_MAX" ]; then searches="diamond mmseqs"; fi ;;
  esac
  awk -F"\t" -v n="$nprot" -v seed="$seed" -v set="$n" 'NR > 1 { fam[$2] = fam[$2] + 1; ch += $3; res += $5 } END { mx = 0; nf = 0; for (f in fam) { nf++; if (fam[f] > mx) mx = fam[f] }; printf "set,proteins,seed,families,largest_family,chimeras,residues,mean_length\n%s,%d,%s,%d,%d,%d,%d,%.0f\n", set, n, seed, nf, mx, ch, res, res / n }' "$d/truth.tsv" > "$d/datasets.csv"
  if [ -n "${SEARCHES:-}" ]; then
    keep=""; for s in $searches; do case " $SEARCHES " in *" $s "*) keep="$keep $s" ;; esac; done; searches=$keep
  fi
  for s in $searches; do
    echo "== $n proteins: $s search (load $(load1))" >&2
    case "$n" in *x*) ;; *) bash $here/search.sh "$d" "$s" ;; esac
    mk=NA
    [ -f "$d/$s.makedb.time" ] && mk=$(cut -f1 "$d/$s.makedb.time")
    IFS=$'\t' read -r w u sy m < "$d/$s.search.time"
    [ -f "$d/$s.search.load" ] || load1 > "$d/$s.search.load"
    { echo "size,search,makedb_s,search_s,user_s,sys_s,maxrss_kb,hits,load1"
      echo "$n,$s,$mk,$w,$u,$sy,$m,$(wc -l < "$d/$s.m8"),$(cat "$d/$s.search.load")"; } > "$d/search-$s.csv"
  done
  for s in $searches; do
    if [ "${APPEND:-0}" != 1 ] || [ ! -f "$d/timings-$s.csv" ]; then
      echo "size,search,method,rep,wall_s,inner_s,user_s,sys_s,maxrss_kb,load1" > "$d/timings-$s.csv"
      echo "size,search,method,proteins,in_output,nmi,ari,nmi_nochim,ari_nochim,clusters,clusters_2plus,largest_share,nmi_igraph" > "$d/metrics-$s.csv"
    fi
    m8=$d/$s.m8
    cdir=$d/clusters-$s
    mkdir -p "$cdir"
    methods=()
    for x in $EXO_SETTINGS; do methods+=("exolabel_$x"); done
    [ -x "$EXOLABEL_CLI" ] && methods+=("exolabel_cli_$RECOMMENDED" "exolabel_cli_${RECOMMENDED}_32MB")
    methods+=(mcl_1.4 mcl_2.0 igraph_leiden igraph_lp igraph_components)
    if [ -n "${METHODS:-}" ]; then read -r -a methods <<< "$METHODS"; fi
    for meth in "${methods[@]}"; do
      out=$cdir/$meth.tsv
      case "$meth" in
        exolabel_cli_*) run_timed "$d/timings-$s.csv" "$n" "$s" "$meth" "$out" \
            bash $here/cluster_exolabel_cli.sh "$EXOLABEL_CLI" "$m8" "${meth#exolabel_cli_}" "$out" "$THREADS" ;;
        exolabel_*) run_timed "$d/timings-$s.csv" "$n" "$s" "$meth" "$out" \
            "$RSCRIPT" $here/cluster_exolabel.R "$m8" "${meth#exolabel_}" "$out" "$THREADS" ;;
        mcl_*) run_timed "$d/timings-$s.csv" "$n" "$s" "$meth" "$out" \
            bash $here/cluster_mcl.sh "$m8" "${meth#mcl_}" "$out" "$cdir/mcl-work-${meth#mcl_}" "$THREADS" ;;
        igraph_*) run_timed "$d/timings-$s.csv" "$n" "$s" "$meth" "$out" \
            "$RSCRIPT" $here/cluster_igraph.R "$m8" "${meth#igraph_}" "$out" ;;
      esac
      echo "$n,$s,$meth,$("$RSCRIPT" $here/metrics.R "$d/truth.tsv" "$out" | tr '\t' ',')" >> "$d/metrics-$s.csv"
    done
    # the spread over seeds (ExoLabel is randomised; MCL is not)
    if [ "$SEEDS" -gt 0 ] && [ -x "$EXOLABEL_CLI" ]; then
      echo "size,search,method,seed,proteins,in_output,nmi,ari,nmi_nochim,ari_nochim,clusters,clusters_2plus,largest_share,nmi_igraph" > "$d/seeds-$s.csv"
      for x in $SEED_SETTINGS; do
        for seed in $(seq 1 "$SEEDS"); do
          SEED=$seed bash $here/cluster_exolabel_cli.sh "$EXOLABEL_CLI" "$m8" "$x" "$cdir/seed.tsv" "$THREADS" > /dev/null
          echo "$n,$s,exolabel_cli_$x,$seed,$("$RSCRIPT" $here/metrics.R "$d/truth.tsv" "$cdir/seed.tsv" | tr '\t' ',')" >> "$d/seeds-$s.csv"
        done
        echo "  $s exolabel_cli_$x: NMI over seeds 1..$SEEDS: $(awk -F, -v m="exolabel_cli_$x" '$3 == m { printf "%s ", $7 }' "$d/seeds-$s.csv")" >&2
      done
      rm -f "$cdir/seed.tsv"
    fi
  done
done

# collect every size present in WORK (none there, e.g. SETS=swissprot_ec:
# the collected files stay as they are)
sim_dirs=$(cd "$WORK" && ls -d n* 2>/dev/null || true)
[ -n "$sim_dirs" ] && for f in datasets search timings metrics seeds; do
  first=1
  for d in $(cd "$WORK" && ls -d n* | sort -V); do
    for g in "$WORK/$d/$f".csv "$WORK/$d/$f"-diamond.csv "$WORK/$d/$f"-mmseqs.csv; do
      [ -f "$g" ] || continue
      if [ $first = 1 ]; then cat "$g"; first=0; else tail -n +2 "$g"; fi
    done
  done > $here/$f.csv
done
# collect the real sets present in WORK; the rows of a set not in WORK stay
# as they were in benchmarks/ssn/real*.csv (and its lines in real_machine.txt)
in_work=$(for d in "$WORK"/*/; do s=$(basename "$d"); case "$s" in n[0-9]*) continue ;; esac
  ls "$d"real-*.csv > /dev/null 2>&1 && echo "$s"; done || true)
for f in real search; do
  dest=$here/real.csv; [ $f = search ] && dest=$here/real_search.csv
  {
    first=1
    for g in $(for s in $in_work; do ls "$WORK/$s/$f"-*.csv 2>/dev/null; done | sort); do
      if [ $first = 1 ]; then cat "$g"; first=0; else tail -n +2 "$g"; fi
    done
    if [ -f "$dest" ]; then
      awk -F, -v w=" $(echo $in_work) " -v first=$first 'NR == 1 { if (first == 1) print; next }
        index(w, " " $1 " ") == 0' "$dest"
    fi
  } > "$dest.tmp"
  if [ "$(wc -l < "$dest.tmp")" -gt 1 ]; then mv "$dest.tmp" "$dest"; else rm -f "$dest.tmp"; fi
done
if [ -f $here/real.csv ]; then
  for s in $(tail -n +2 $here/real.csv | cut -d, -f1 | sort -u); do
    if [ -f "$WORK/$s/machine.txt" ]; then cat "$WORK/$s/machine.txt"
    else grep "^$s: " $here/real_machine.txt 2>/dev/null || true; fi
  done > $here/real_machine.txt.tmp
  mv $here/real_machine.txt.tmp $here/real_machine.txt
fi
# the machine of the simulated sets' run (kept when WORK has none)
[ -n "$sim_dirs" ] && {
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src R || echo ' (with uncommitted changes)')"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
  echo "memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "tools: $(diamond version 2>&1 | head -1); MMseqs2 $(mmseqs version 2>&1 | head -1); $(mcl --version 2>&1 | head -1); $("$RSCRIPT" -e 'cat(R.version.string, "; igraph", as.character(packageVersion("igraph")), "; data.table", as.character(packageVersion("data.table")), "; ExoLabel", as.character(packageVersion("ExoLabel")))')"
} > $here/machine.txt
"$RSCRIPT" $here/report.R $here benchmarks/SSN.md

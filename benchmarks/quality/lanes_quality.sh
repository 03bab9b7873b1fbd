#!/usr/bin/env bash
# Label propagation's lanes (src/core/exo_lp.h) against the one-lane
# sequential sweep (the testing hook EXOLABEL_MAX_LANES=1 of the CLI): the
# same exogen graphs clustered both ways with the same seed, NMI against the
# planted truth (tests/mpi/nmi.awk) and the sweeps of each run.
#   benchmarks/quality/lanes_quality.sh BUILD_DIR [OUT.csv]
# BUILD_DIR holds exolabel (make cli BUILD=...); exogen is built there if
# missing, graphs are cached in BUILD_DIR/lanes-graphs. EXOLABEL=path runs
# another CLI binary (e.g. a variant of the lane rule). Grid: 10^4 nodes x
# seeds 1..3 and 10^5 nodes x seed 1; planted (Poisson degrees) and LFR-style
# (--degree-exponent 2.5 --comm-exponent 1.5); weighted and unweighted;
# mixing 0.5 0.6 0.7 0.75 (lower mixing never lost); mean degree 20.
# ALGORITHM=leiden does the same for Leiden's local moving (exo_leiden.h):
# `--algorithm leiden`, 10^5 nodes x seeds 1..3 and 10^6 x seed 1 (smaller
# graphs have one lane), and two more columns, the modularity both ways;
# default output benchmarks/quality/leiden_lanes_quality.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?BUILD_DIR}
algo=${ALGORITHM:-lp}
sizes="1e4 1e5"; algo_args=(); default_out=benchmarks/quality/lanes_quality.csv
if [ "$algo" = leiden ]; then
  sizes="1e5 1e6"; algo_args=(--algorithm leiden)
  default_out=benchmarks/quality/leiden_lanes_quality.csv
fi
out=${2:-$default_out}
exolabel=${EXOLABEL:-$build/exolabel}
exogen=$build/exogen
gdir=$build/lanes-graphs
mkdir -p "$gdir"
[ -x "$exogen" ] || cc -std=c11 -O2 -o "$exogen" benchmarks/gen/exogen.c -lz -lm
run() { # LANES GRAPH -> "nmi sweeps quality"
  local cl=$gdir/run.$$.$1.tsv st=$gdir/run.$$.$1.stats
  EXOLABEL_MAX_LANES=$1 "$exolabel" "${algo_args[@]}" --seed 5 --stats --out "$cl" "$2.tsv" 2> "$st"
  printf '%s %s %s\n' "$(awk -f tests/mpi/nmi.awk "$2.truth" "$cl")" \
    "$(awk -F'\t' '$1 == "lp_sweeps" { print $2 }' "$st")" \
    "$(awk -F'\t' '$1 == "leiden_quality" { q = $2 } END { print q == "" ? "NA" : q }' "$st")"
  rm -f "$cl" "$st"
}
header="graph,seed,nmi_one_lane,nmi_lanes,diff,sweeps_one_lane,sweeps_lanes"
[ "$algo" = leiden ] && header="$header,quality_one_lane,quality_lanes"
echo "$header" > "$out"
for size in $sizes; do
  seeds="1 2 3"; [ "$size" = "${sizes##* }" ] && seeds=1
  for fam in planted lfr; do
    for w in weighted unweighted; do
      for mu in 0.5 0.6 0.7 0.75; do
        for seed in $seeds; do
          name=$fam-$w-n$size-mu$mu
          g=$gdir/$name-s$seed
          if [ ! -s "$g.truth" ]; then
            extra=(); [ "$fam" = lfr ] && extra=(--degree-exponent 2.5 --comm-exponent 1.5)
            "$exogen" --nodes "$size" --edges "$(awk "BEGIN{printf \"%d\", 10*$size}")" \
              --mixing "$mu" --"$w" --seed "$seed" "${extra[@]}" \
              --out "$g.tsv" --truth "$g.truth" --quiet 2> /dev/null
          fi
          r1=$(run 1 "$g"); rl=$(run 0 "$g")
          read -r n1 s1 q1 <<< "$r1"; read -r nl sl ql <<< "$rl"
          awk -v g="$name" -v s="$seed" -v a="$n1" -v b="$nl" -v x="$s1" -v y="$sl" \
            -v q1="$q1" -v ql="$ql" -v leiden="$([ "$algo" = leiden ] && echo 1)" \
            'BEGIN { printf "%s,%s,%.4f,%.4f,%.4f,%s,%s", g, s, a, b, b - a, x, y
                     if (leiden) printf ",%s,%s", q1, ql; printf "\n" }' >> "$out"
        done
      done
    done
  done
done
awk -F, 'NR > 1 { match($1, /-n[0-9e]+-/); sz = substr($1, RSTART + 2, RLENGTH - 3); n[sz]++
  if ($5 < w[sz] || !(sz in w)) w[sz] = $5
  if ($5 < -0.005) bad[sz]++; s1[sz] += $6; sl[sz] += $7
  if (NF >= 9) { d = $9 - $8; if (d < wq[sz] || !(sz in wq)) wq[sz] = d } }
  END { for (k in n) { printf "n=%s: %d cases, worst %.4f, %d worse by > 0.005, sweeps one lane %d, lanes %d",
        k, n[k], w[k], bad[k], s1[k], sl[k]
        if (k in wq) printf ", worst modularity difference %.5f", wq[k]; printf "\n" } }' "$out" >&2

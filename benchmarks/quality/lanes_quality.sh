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
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?BUILD_DIR}
out=${2:-benchmarks/quality/lanes_quality.csv}
exolabel=${EXOLABEL:-$build/exolabel}
exogen=$build/exogen
gdir=$build/lanes-graphs
mkdir -p "$gdir"
[ -x "$exogen" ] || cc -std=c11 -O2 -o "$exogen" benchmarks/gen/exogen.c -lz -lm
run() { # LANES GRAPH -> "nmi sweeps"
  local cl=$gdir/run.$$.$1.tsv st=$gdir/run.$$.$1.stats
  EXOLABEL_MAX_LANES=$1 "$exolabel" --seed 5 --stats --out "$cl" "$2.tsv" 2> "$st"
  printf '%s %s\n' "$(awk -f tests/mpi/nmi.awk "$2.truth" "$cl")" \
    "$(awk -F'\t' '$1 == "lp_sweeps" { print $2 }' "$st")"
  rm -f "$cl" "$st"
}
echo "graph,seed,nmi_one_lane,nmi_lanes,diff,sweeps_one_lane,sweeps_lanes" > "$out"
for size in 1e4 1e5; do
  seeds="1 2 3"; [ "$size" = 1e5 ] && seeds=1
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
          read -r n1 s1 <<< "$r1"; read -r nl sl <<< "$rl"
          awk -v g="$name" -v s="$seed" -v a="$n1" -v b="$nl" -v x="$s1" -v y="$sl" \
            'BEGIN { printf "%s,%s,%.4f,%.4f,%.4f,%s,%s\n", g, s, a, b, b - a, x, y }' >> "$out"
        done
      done
    done
  done
done
awk -F, 'NR > 1 { sz = ($1 ~ /n1e4/) ? "1e4" : "1e5"; n[sz]++; if ($5 < w[sz] || !(sz in w)) w[sz] = $5
  if ($5 < -0.005) bad[sz]++; s1[sz] += $6; sl[sz] += $7 }
  END { for (k in n) printf "n=%s: %d cases, worst %.4f, %d worse by > 0.005, sweeps one lane %d, lanes %d\n",
        k, n[k], w[k], bad[k], s1[k], sl[k] }' "$out" >&2

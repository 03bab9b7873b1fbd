#!/usr/bin/env bash
# benchmarks/bench/gve_run.sh: ExoLabel's Leiden against GVE-Leiden, side by
# side on one machine (issue 27's "Leiden's whole call <= 0.6x GVE-Leiden's
# whole process"). Not part of CI or `make bench`: GVE-Leiden is neither in
# Debian nor on CRAN, so its sources are given by path (a checkout of
# github.com/puzzlef/leiden-communities-openmp, or a bare clone of it, whose
# HEAD is used; the commit is printed).
#
#   benchmarks/bench/gve_run.sh GVE_SRC [EXOLABEL [EXOGEN]]
#
# Builds GVE-Leiden as its main.sh does (g++ -std=c++17 -O3 -fopenmp, float
# weights, MAX_THREADS = THREADS, REPEAT_METHOD=1), generates the planted
# graph of the issue (exogen --nodes NODES --edges EDGES --min-comm 100
# --max-comm 5000 --seed 1, mixing 0.4: text with string names) and writes
# it once more as a symmetric MatrixMarket file of integer ids for GVE (the
# node index p of exogen's names "g.._c.._pN", plus one, and the weight;
# GVE reads it as symmetric and weighted, arguments 1 1). Then REPS pairs,
# alternating: `exolabel --algorithm leiden --threads THREADS --seed 3
# --memory-limit MEM -v` (the whole call: reading, sorting, Leiden, writing
# the clusters) and GVE's whole process (reading the file, its Louvain and
# its Leiden, as the issue timed it). Prints each run's wall and CPU seconds,
# each side's modularity, the medians and the median of the pair ratios.
#
# Environment: THREADS (2), REPS (3), MEM (256MB), NODES (1e6), EDGES (2e7),
# DIR (/tmp/exolabel-gve: the graph files, about 1.2 GB, kept for reruns).
set -euo pipefail
GVE_SRC=${1:?usage: gve_run.sh GVE_SRC [EXOLABEL [EXOGEN]]}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/benchmarks/bench/gve_lib.sh"
EXO=${2:-$ROOT/build/exolabel}
DIR=${DIR:-/tmp/exolabel-gve}
GEN=${3:-$DIR/exogen}
THREADS=${THREADS:-2}
REPS=${REPS:-3}
MEM=${MEM:-256MB}
NODES=${NODES:-1e6}
EDGES=${EDGES:-2e7}
mkdir -p "$DIR"
[ -x "$GEN" ] || cc -std=c11 -O2 -o "$GEN" "$ROOT/benchmarks/gen/exogen.c" -lz -lm

echo "GVE-Leiden: $(git -C "$GVE_SRC" rev-parse HEAD 2>/dev/null || echo "$GVE_SRC (not a git checkout)")"
GVE_SRC=$(gve_source "$GVE_SRC" "$DIR")
echo "ExoLabel: $("$EXO" --version 2>&1 | head -1), tree $(git -C "$ROOT" rev-parse --short HEAD)"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
GVE=$DIR/gve-leiden-t$THREADS
[ -x "$GVE" ] || gve_build "$GVE_SRC" "$GVE" "$THREADS"

TXT=$DIR/planted-$NODES-$EDGES.tsv
MTX=$DIR/planted-$NODES-$EDGES.mtx
if [ ! -s "$TXT" ]; then
  "$GEN" --nodes "$NODES" --edges "$EDGES" --mixing 0.4 --min-comm 100 --max-comm 5000 \
    --seed 1 --out "$TXT" --quiet
fi
[ -s "$MTX" ] || gve_mtx "$TXT" "$MTX" "$NODES" "$EDGES"
ls -l "$TXT" "$MTX"
[ "$REPS" -gt 0 ] || exit 0 # REPS=0: only build and generate
cat "$TXT" "$MTX" > /dev/null # into the page cache, as the issue measured

# timed NAME OUT CMD...: runs CMD, prints "NAME wall cpu", stdout+stderr to OUT
timed() {
  local name=$1 out=$2; shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$@" > "$out" 2>&1
  read -r wall usr sys rss < "$DIR/time"
  printf '%s\t%s\t%.2f\t%d\n' "$name" "$wall" "$(echo "$usr + $sys" | bc)" "$((rss / 1024))"
}
printf 'run\twall_s\tcpu_s\tpeak_MB\tload1\n'
for rep in $(seq 1 "$REPS"); do
  for side in exolabel gve; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    if [ $side = exolabel ]; then
      r=$(timed "exolabel.$rep" "$DIR/exo.$rep.log" "$EXO" --algorithm leiden --threads "$THREADS" \
        --seed 3 --memory-limit "$MEM" -v -o "$DIR/clusters.tsv" "$TXT")
      awk -F'\t' '$1 == "leiden_quality" { print $2 }' "$DIR/exo.$rep.log" > "$DIR/exo.q"
    else
      r=$(OMP_NUM_THREADS=$THREADS timed "gve.$rep" "$DIR/gve.$rep.log" "$GVE" "$MTX" 1 1)
      grep -o '[0-9.]* modularity.*leidenStaticOmp' "$DIR/gve.$rep.log" | cut -d' ' -f1 > "$DIR/gve.q" || true
    fi
    printf '%s\t%s\n' "$r" "$load"
    echo "$r" | cut -f1,2 >> "$DIR/runs.$$"
  done
done
echo "modularity: exolabel $(cat "$DIR/exo.q"), gve-leiden $(cat "$DIR/gve.q")"
awk '
  { split($1, a, "."); t[a[1], a[2]] = $2; if (a[2] > r) r = a[2] }
  function median(v, n,   i, j, x) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
      if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
  END { for (i = 1; i <= r; i++) { e[i] = t["exolabel", i]; g[i] = t["gve", i]; q[i] = e[i] / g[i] }
    printf "median wall: exolabel %.2f s, gve-leiden %.2f s; median pair ratio exolabel/gve %.3f\n",
      median(e, r), median(g, r), median(q, r) }' "$DIR/runs.$$"
rm -f "$DIR/runs.$$"

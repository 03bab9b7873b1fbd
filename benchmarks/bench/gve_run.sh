#!/usr/bin/env bash
# benchmarks/bench/gve_run.sh: ExoLabel against GVE-Leiden or GVE-LPA, side
# by side on one machine, method with method (issue 59). Not part of CI or
# `make bench`: the GVE codes are neither in Debian nor on CRAN, so their
# sources are given by path (a checkout of
# github.com/puzzlef/leiden-communities-openmp for METHOD=leiden, of
# github.com/puzzlef/rak-communities-openmp for METHOD=lpa, or a bare clone
# of it, whose HEAD is used; the commit is printed).
#
#   [METHOD=leiden|lpa] benchmarks/bench/gve_run.sh GVE_SRC [EXOLABEL [EXOGEN]]
#
# GVE is built with our driver gve_one.cxx (gve_lib.sh's gve_build: the
# flags of the project's main.sh, float weights, MAX_THREADS = THREADS),
# which reads the graph and runs the one method once; the projects' own
# main.cxx runs Louvain before Leiden and repeats each method, which would
# put another algorithm's time on GVE's side. The planted graph of the issue
# (exogen --nodes NODES --edges EDGES --min-comm 100 --max-comm 5000 --seed
# 1, mixing 0.4: text with string names) is written once more as a symmetric
# MatrixMarket file of integer ids for GVE (the node index p of exogen's
# names "g.._c.._pN", plus one, and the weight; arguments 1 1). Then REPS
# pairs, alternating: `exolabel --threads THREADS --seed 3 --memory-limit
# MEM -v EXO_ARGS` (METHOD=leiden adds --algorithm leiden; the whole call:
# reading, sorting, clustering, writing the clusters) and GVE's whole
# process (reading the file, the method, the modularity of its result).
# Prints each run's wall and CPU seconds, peak RSS, each side's stage or
# phase times (exolabel: its -v statistics; GVE: gve_one's timers) and
# modularity, then the medians and the median of the pair ratios.
#
# Environment: METHOD (leiden), THREADS (2), REPS (3), MEM (256MB), EXO_ARGS
# (none), NODES (1e6), EDGES (2e7), DIR (/tmp/exolabel-gve: the graph files,
# about 1.2 GB, kept for reruns).
set -euo pipefail
GVE_SRC=${1:?usage: [METHOD=leiden|lpa] gve_run.sh GVE_SRC [EXOLABEL [EXOGEN]]}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/benchmarks/bench/gve_lib.sh"
EXO=${2:-$ROOT/build/exolabel}
DIR=${DIR:-/tmp/exolabel-gve}
GEN=${3:-$DIR/exogen}
THREADS=${THREADS:-2}
REPS=${REPS:-3}
MEM=${MEM:-256MB}
METHOD=${METHOD:-leiden}
EXO_ARGS=${EXO_ARGS:-}
NODES=${NODES:-1e6}
EDGES=${EDGES:-2e7}
mkdir -p "$DIR"
[ -x "$GEN" ] || cc -std=c11 -O2 -o "$GEN" "$ROOT/benchmarks/gen/exogen.c" -lz -lm

echo "GVE ($METHOD): $(git -C "$GVE_SRC" rev-parse HEAD 2>/dev/null || echo "$GVE_SRC (not a git checkout)")"
GVE_SRC=$(gve_source "$GVE_SRC" "$DIR")
echo "ExoLabel: $("$EXO" --version 2>&1 | head -1), tree $(git -C "$ROOT" rev-parse --short HEAD)"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
GVE=$DIR/gve-$METHOD-t$THREADS
gve_build "$GVE_SRC" "$GVE" "$THREADS" "$METHOD"
case $METHOD in leiden) EXO_ALG=(--algorithm leiden) ;; *) EXO_ALG=() ;; esac

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
echo "exolabel call: $EXO ${EXO_ALG[*]} --threads $THREADS --seed 3 --memory-limit $MEM -v $EXO_ARGS"

# timed NAME OUT CMD...: runs CMD, prints "NAME wall cpu rss", stdout+stderr to OUT
timed() {
  local name=$1 out=$2; shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$@" > "$out" 2>&1
  read -r wall usr sys rss < "$DIR/time"
  printf '%s\t%s\t%.2f\t%d' "$name" "$wall" "$(echo "$usr + $sys" | bc)" "$((rss / 1024))"
}
# stats LOG KEYS...: the values of KEYS in a log of "key<TAB>value" lines
stats() {
  local log=$1; shift
  awk -F'\t' -v keys="$*" 'BEGIN { n = split(keys, k, " ") } { v[$1] = $2 }
    END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? "\t" : ""), (k[i] in v ? v[k[i]] : "NA") }' "$log"
}
EXO_KEYS="seconds_parse seconds_csr seconds_cluster seconds_refine seconds_output"
[ "$METHOD" = leiden ] && EXO_KEYS="$EXO_KEYS leiden_quality"
if [ "$METHOD" = leiden ]; then
  GVE_KEYS="gve_read_s gve_leiden_ms gve_local_move_ms gve_refine_ms gve_aggregate_ms gve_modularity"
else
  GVE_KEYS="gve_read_s gve_lpa_ms gve_iterations gve_modularity"
fi
echo "exolabel columns: ${EXO_KEYS// /, }"
echo "gve columns: ${GVE_KEYS// /, }"
printf 'run\twall_s\tcpu_s\tpeak_MB\tload1\tstages...\n'
for rep in $(seq 1 "$REPS"); do
  for side in exolabel gve; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    if [ $side = exolabel ]; then
      # shellcheck disable=SC2086 # EXO_ARGS: words on purpose
      r=$(timed "exolabel.$rep" "$DIR/exo.$rep.log" "$EXO" "${EXO_ALG[@]}" --threads "$THREADS" \
        --seed 3 --memory-limit "$MEM" -v $EXO_ARGS -o "$DIR/clusters.tsv" "$TXT")
      st=$(stats "$DIR/exo.$rep.log" $EXO_KEYS)
    else
      r=$(OMP_NUM_THREADS=$THREADS timed "gve.$rep" "$DIR/gve.$rep.log" "$GVE" "$MTX" 1 1)
      st=$(stats "$DIR/gve.$rep.log" $GVE_KEYS)
    fi
    printf '%s\t%s\t%s\n' "$r" "$load" "$st"
    printf '%s\t%s\n' "$r" "$st" | cut -f1,2,5- >> "$DIR/runs.$$"
  done
done
awk -F'\t' '
  function median(v, n,   i, j, x) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
      if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
  { split($1, a, "."); t[a[1], a[2]] = $2; if (a[2] > r) r = a[2]
    nc[a[1]] = NF - 2; for (i = 3; i <= NF; i++) c[a[1], a[2], i - 2] = $i }
  END {
    for (i = 1; i <= r; i++) { e[i] = t["exolabel", i]; g[i] = t["gve", i]; q[i] = e[i] / g[i] }
    printf "median wall: exolabel %.2f s, gve %.2f s; median pair ratio exolabel/gve %.3f\n",
      median(e, r), median(g, r), median(q, r)
    split("exolabel gve", sides, " ")
    for (sd = 1; sd <= 2; sd++) {
      printf "median stages, %s:", sides[sd]
      for (j = 1; j <= nc[sides[sd]]; j++) {
        for (i = 1; i <= r; i++) x[i] = c[sides[sd], i, j]
        printf " %s", (x[1] == "NA" ? "NA" : median(x, r))
      }
      printf "\n"
    }
  }' "$DIR/runs.$$"
rm -f "$DIR/runs.$$"

#!/usr/bin/env bash
# benchmarks/portability/run.sh BUILD [EDGES] [MEMORY] [REPS]: the cost of the
# fallbacks that builds without the Linux extensions take (exo_platform.h),
# measured on Linux: the normal build ($BUILD/exolabel) against the
# -DEXO_PORTABLE build ($BUILD/portable/exolabel) on one generated graph,
# alternating, REPS runs each. Per run: wall seconds, peak RSS (--stats), the
# sorter's modelled peak_temp_disk (--stats) and the real peak of allocated
# temporary disk: `du --block-size=1 -s` of the run's temp directory sampled
# every 20 ms (what hole punching changes). Prints one TSV line per run and
# the medians. Needs `make cli` and the portable CLI (make portable-test
# builds it); writes under $BUILD/portability-bench.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
EDGES=${2:-5000000}
MEM=${3:-64MB}
REPS=${4:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$BUILD/portability-bench
mkdir -p "$W"
cc -std=c11 -O2 -o "$W/exogen" "$ROOT/benchmarks/gen/exogen.c" -lz -lm
G=$W/g-$EDGES.tsv
[ -f "$G" ] || "$W/exogen" --nodes $((EDGES / 10)) --edges "$EDGES" --seed 3 --quiet --out "$G" 2>/dev/null
echo "# $(date -u +%FT%TZ) edges=$EDGES memory=$MEM reps=$REPS load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'build\trep\tseconds\tpeak_rss_MiB\tmodel_peak_disk_MB\treal_peak_disk_MB\tsort_runs\tmerge_passes\n'
one() { # build-name binary rep
  local name=$1 bin=$2 rep=$3 T=$W/tmp-$1
  rm -rf "$T"; mkdir -p "$T"
  "$bin" --seed 1 --threads 2 --memory-limit "$MEM" --tempdir "$T" --stats --out "$W/out-$name.tsv" "$G" \
    2> "$W/stats-$name.txt" &
  local pid=$! peak=0 d
  while kill -0 $pid 2>/dev/null; do
    d=$(du --block-size=1 -s "$T" 2>/dev/null | cut -f1) || d=0
    [ "${d:-0}" -gt "$peak" ] && peak=$d
    sleep 0.02
  done
  wait $pid
  local s=$W/stats-$name.txt
  printf '%s\t%s\t%s\t%.0f\t%.1f\t%.1f\t%s\t%s\n' "$name" "$rep" "$(grep ^seconds "$s" | cut -f2)" \
    "$(echo "$(grep ^peak_rss "$s" | cut -f2) / 1048576" | awk '{print $1/$3}')" \
    "$(grep ^peak_temp_disk "$s" | cut -f2 | awk '{print $1/1e6}')" "$(awk -v p=$peak 'BEGIN{print p/1e6}')" \
    "$(grep ^sort_runs "$s" | cut -f2)" "$(grep ^merge_passes "$s" | cut -f2)"
}
for r in $(seq 1 "$REPS"); do
  one linux "$BUILD/exolabel" "$r"
  one portable "$BUILD/portable/exolabel" "$r"
done | tee "$W/runs.tsv"
cmp "$W/out-linux.tsv" "$W/out-portable.tsv" && echo "# clusters identical"
echo "# medians"
for b in linux portable; do
  awk -F'\t' -v b=$b '$1==b' "$W/runs.tsv" | sort -t$'\t' -k3,3g | awk -F'\t' -v n="$REPS" 'NR==int((n+1)/2){print "# "$1": "$3" s (sorted by time; median run) "}'
  for c in 3 4 6; do
    printf '# %s col%s median: %s\n' "$b" "$c" "$(awk -F'\t' -v b=$b -v c=$c '$1==b{print $c}' "$W/runs.tsv" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')"
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"

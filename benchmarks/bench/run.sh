#!/usr/bin/env bash
# benchmarks/bench/run.sh: the end-to-end benchmark suite behind `make bench`.
#
#   benchmarks/bench/run.sh [small|large]      (SIZE=large adds 100M edges)
#
# Environment: REPS (3), BENCH_DIR (/tmp/exolabel-bench: graphs, temp files,
# raw results), BUILD (build: exogen is compiled there), MEM (memory_limit,
# 256MB = the package default), RLIB (R library holding ExoLabel), IGRAPH_MAX
# (largest size that also runs the igraph path: 20m), RESULTS
# (benchmarks/RESULTS.md: the part between the bench markers is replaced),
# SIZES (e.g. "1m": override the size list).
#
# Per size and repetition it measures, in this order: reading the input cold
# (after dropping the page cache, when permitted) and cached (cat > /dev/null),
# data.table::fread, GNU sort of the lines (LC_ALL=C sort -t$'\t' -k1,1
# -S 256M --parallel=2, output to a file next to its temp files), dd writing as
# many bytes as the sort wrote (its wchar, temp files + output), ExoLabel()
# from R (stage times, peak RSS above the R baseline, temp disk sampled with
# du every 0.2 s), the same call with threads = 1 (stage times), and the
# in-RAM R path (fread + igraph). Raw values go to
# BENCH_DIR/raw-*.tsv; summarize.R writes medians and ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE=${SIZE:-${1:-small}}
REPS=${REPS:-3}
BUILD=${BUILD:-build}
BENCH_DIR=${BENCH_DIR:-/tmp/exolabel-bench}
MEM=${MEM:-256MB}
IGRAPH_MAX=${IGRAPH_MAX:-20m}
RESULTS=${RESULTS:-benchmarks/RESULTS.md}
RSCRIPT=${RSCRIPT:-Rscript}
if [ -n "${RLIB:-}" ]; then export R_LIBS="$RLIB${R_LIBS:+:$R_LIBS}"; fi
if [ -n "${SIZES:-}" ]; then sizes=$SIZES; else
case "$SIZE" in
  small) sizes="1m 20m" ;;
  large) sizes="1m 20m 100m" ;;
  *) echo "SIZE must be small or large" >&2; exit 2 ;;
esac
fi
here=benchmarks/bench
mkdir -p "$BENCH_DIR" "$BUILD"
RAW=$BENCH_DIR/raw-$(date +%Y%m%d-%H%M%S).tsv
: > "$RAW"

cc -std=c11 -O2 -o "$BUILD/exogen" benchmarks/gen/exogen.c -lz -lm

gen_args() {
  case "$1" in
    1m) echo "--nodes 5e4 --edges 1e6" ;;
    20m) echo "--nodes 1e6 --edges 2e7" ;;
    100m) echo "--nodes 5e6 --edges 1e8" ;;
  esac
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
record() { printf '%s\t%s\t%s\t%s\n' "$size" "$rep" "$1" "$2" >> "$RAW"; }
drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; }
size_rank() { case "$1" in 1m) echo 1 ;; 20m) echo 2 ;; 100m) echo 3 ;; esac; }

# Run "$@" in the background, sampling the allocated bytes under $1 (a
# directory) every 0.2 s; prints the command's stdout, records peak_disk.
sample_disk() {
  local dir=$1; shift
  local out=$BENCH_DIR/cmd.out peak=0 d
  "$@" > "$out" &
  local pid=$!
  while kill -0 "$pid" 2> /dev/null; do
    d=$(du -sB1 "$dir" 2> /dev/null | cut -f1 || true)
    if [ -n "$d" ] && [ "$d" -gt "$peak" ]; then peak=$d; fi
    sleep 0.2
  done
  wait "$pid"
  cat "$out"
  record peak_disk "$peak"
}

for size in $sizes; do
  f=$BENCH_DIR/g$size.tsv
  if [ ! -s "$f" ]; then
    echo "generating $f" >&2
    # shellcheck disable=SC2046
    "$BUILD/exogen" $(gen_args "$size") --min-comm 100 --max-comm 5000 --seed 1 --out "$f" --quiet
  fi
  bytes=$(stat -c %s "$f")
  lines=$(wc -l < "$f")
  T=$BENCH_DIR/tmp
  for rep in $(seq 1 "$REPS"); do
    echo "== $size rep $rep" >&2
    rm -rf "$T"; mkdir -p "$T"
    record input_bytes "$bytes"
    record edges "$lines"
    if drop_caches; then
      t0=$(now); cat "$f" > /dev/null; record read_cold "$(since "$t0")"
    fi
    cat "$f" > /dev/null
    t0=$(now); cat "$f" > /dev/null; record read_cached "$(since "$t0")"
    "$RSCRIPT" "$here/fread_run.R" "$f" | while IFS=$'\t' read -r k v; do record "$k" "$v"; done
    t0=$(now)
    io=$(bash -c 'LC_ALL=C sort -t"	" -k1,1 -S 256M --parallel=2 -T "$1" -o "$1/sorted" "$2"; cat /proc/$$/io' _ "$T" "$f")
    record sort "$(since "$t0")"
    wchar=$(echo "$io" | awk '$1 == "wchar:" { print $2 }')
    record sort_wchar "$wchar"
    rm -f "$T/sorted"
    t0=$(now)
    dd if=/dev/zero of="$T/dd" bs=4M count=$(( (wchar + 4194303) / 4194304 )) status=none
    record dd_write "$(since "$t0")"
    rm -f "$T/dd"
    mkdir -p "$T/exo"
    sample_disk "$T/exo" "$RSCRIPT" "$here/exolabel_run.R" "$f" "$T/exo" "$MEM" |
      while IFS=$'\t' read -r k v; do record "$k" "$v"; done
    # the same call with threads = 1, for the 1 vs all-threads stage table
    mkdir -p "$T/exo1"
    "$RSCRIPT" "$here/exolabel_run.R" "$f" "$T/exo1" "$MEM" 1 |
      while IFS=$'\t' read -r k v; do record "t1_$k" "$v"; done
    record load1 "$(cut -d' ' -f1 /proc/loadavg)"
    if [ "$(size_rank "$size")" -le "$(size_rank "$IGRAPH_MAX")" ]; then
      "$RSCRIPT" "$here/igraph_run.R" "$f" | while IFS=$'\t' read -r k v; do record "$k" "$v"; done
    fi
  done
done
rm -rf "$BENCH_DIR/tmp"
echo "raw results: $RAW" >&2
"$RSCRIPT" "$here/summarize.R" "$RAW" "$RESULTS"

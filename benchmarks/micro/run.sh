#!/usr/bin/env bash
# run.sh: build and run the I/O micro-benchmarks and the parse benchmark,
# printing Markdown tables of medians (see README.md).
#   BUILD=/tmp/b-x benchmarks/micro/run.sh [sections]
# sections: bufsize access threads fmt parse columns (default: all)
# Environment: BUILD (build dir, default build), SCRATCH (dir for the big
# scratch files, default /var/tmp; they are deleted at the end), REPS (3),
# ACCESS_SIZE (2G), SEQ_SIZE (1G), WRITE_SIZE (256M), RAND_OPS (20000),
# GRAPH (an existing 20M-edge TSV to reuse; else one is generated),
# COLS_EDGES (edges of the columns section, default 5e6).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD=${BUILD:-build}
OUT=$BUILD/micro
SCRATCH=${SCRATCH:-/var/tmp}/exolabel-micro.$$
REPS=${REPS:-3}
ACCESS_SIZE=${ACCESS_SIZE:-2G}
SEQ_SIZE=${SEQ_SIZE:-1G}
WRITE_SIZE=${WRITE_SIZE:-256M}
RAND_OPS=${RAND_OPS:-20000}
COLS_EDGES=${COLS_EDGES:-5e6}
SECTIONS=${*:-bufsize access threads fmt parse columns}
mkdir -p "$OUT" "$SCRATCH"
trap 'rm -rf "$SCRATCH"' EXIT

CFLAGS="-std=c11 -O2 -Wall -Wextra -pthread"
for p in io_bufsize io_access io_threads fmt_output; do
  gcc $CFLAGS -o "$OUT/$p" benchmarks/micro/$p.c
done

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# value of key=... in a line
field() { tr ' ' '\n' | awk -F= -v k="$1" '$1 == k {print $2}'; }

CAN_DROP=0
if [ -w /proc/sys/vm/drop_caches ]; then CAN_DROP=1; fi
drop() {
  if [ $CAN_DROP = 1 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi
}
cold_label() { if [ $CAN_DROP = 1 ]; then echo "cold (caches dropped)"; else echo "NOT cold: cannot drop caches"; fi; }

echo "# micro-benchmarks: commit $(git -C "$ROOT" rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, $(df -h "$SCRATCH" | awk 'NR==2 {print $1}'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# median of $REPS runs; page cache: $(cold_label)"

for sec in $SECTIONS; do
case $sec in
bufsize)
  f=$SCRATCH/seq.bin
  echo
  echo "## (a) throughput by buffer size (MB/s): write $WRITE_SIZE + fdatasync; read a $SEQ_SIZE file"
  echo
  echo "| buffer | write | read, $(cold_label | cut -d' ' -f1) | read, cached |"
  echo "|---:|---:|---:|---:|"
  "$OUT/io_bufsize" write "$f" "$SEQ_SIZE" 1M > /dev/null
  for b in 4K 16K 64K 256K 1M 4M; do
    w=$(for i in $(seq $REPS); do "$OUT/io_bufsize" write "$SCRATCH/w.bin" "$WRITE_SIZE" $b | field MB/s; done | median)
    rm -f "$SCRATCH/w.bin"
    rc=$(for i in $(seq $REPS); do drop; "$OUT/io_bufsize" read "$f" $b | field MB/s; done | median)
    cat "$f" > /dev/null
    rw=$(for i in $(seq $REPS); do "$OUT/io_bufsize" read "$f" $b | field MB/s; done | median)
    echo "| $b | $w | $rc | $rw |"
  done
  rm -f "$f"
  ;;
access)
  f=$SCRATCH/records.bin
  "$OUT/io_access" create "$f" "$ACCESS_SIZE"
  nrec=$(( $(stat -c %s "$f") / 12 ))
  echo
  echo "## (b) 12-byte records in a $ACCESS_SIZE file ($nrec records), $(cold_label)"
  echo
  echo "Sequential: 1.5 MiB preads (and pwrites) over the file (rmw: first 40M records);"
  echo "sorted / random: $RAND_OPS records, one pread (+ pwrite) each; rmw timings include the final fdatasync."
  echo
  echo "| access | ns per record | MB/s of records |"
  echo "|---|---:|---:|"
  for m in seqread seqrmw sortread sortrmw randread randrmw; do
    ops=$RAND_OPS
    [ $m = seqread ] && ops=0
    [ $m = seqrmw ] && ops=40000000
    res=$(for i in $(seq $REPS); do drop; "$OUT/io_access" $m "$f" $ops $i; done)
    ns=$(echo "$res" | field ns/record | median)
    mb=$(echo "$res" | field MB/s | median)
    echo "| $m | $ns | $mb |"
  done
  rm -f "$f"
  ;;
threads)
  f=$SCRATCH/threads.bin
  "$OUT/io_bufsize" write "$f" "$SEQ_SIZE" 1M > /dev/null
  echo
  echo "## (c) one reader vs pread from T threads (1 MiB blocks, block j to thread j mod T), MB/s, $SEQ_SIZE file"
  echo
  echo "| reader | $(cold_label | cut -d' ' -f1) | cached |"
  echo "|---|---:|---:|"
  for t in 0 1 2 4; do
    c=$(for i in $(seq $REPS); do drop; "$OUT/io_threads" "$f" $t 1M | field MB/s; done | median)
    cat "$f" > /dev/null
    w=$(for i in $(seq $REPS); do "$OUT/io_threads" "$f" $t 1M | field MB/s; done | median)
    label="pread, $t threads"
    [ $t = 0 ] && label="read(), one reader"
    echo "| $label | $c | $w |"
  done
  rm -f "$f"
  ;;
fmt)
  echo
  echo "## (d) 10M \"name<TAB>cluster\" lines (names 10-20 bytes) into a 1 MiB buffer, to /dev/null"
  echo
  echo "| method | ns per line | MB/s |"
  echo "|---|---:|---:|"
  for m in fprintf snprintf hand; do
    res=$(for i in $(seq $REPS); do "$OUT/fmt_output" $m 10M /dev/null; done)
    echo "| $m | $(echo "$res" | field ns/line | median) | $(echo "$res" | field MB/s | median) |"
  done
  ;;
parse)
  make -s "$BUILD/libexocore.a" BUILD="$BUILD" >/dev/null
  gcc -std=c11 -O2 -Isrc/core -o "$OUT/parse_bench" benchmarks/micro/parse_bench.c "$BUILD/libexocore.a" -lz -lm -pthread
  g=${GRAPH:-}
  if [ -z "$g" ]; then
    gcc -std=c11 -O2 -o "$OUT/exogen" benchmarks/gen/exogen.c -lz -lm
    g=$SCRATCH/g20m.tsv
    "$OUT/exogen" --nodes 1e6 --edges 2e7 --mixing 0.3 --seed 1 --out "$g" --truth "$SCRATCH/g20m.truth" 2>/dev/null
  fi
  bytes=$(stat -c %s "$g")
  cat "$g" > /dev/null
  catt=$(for i in $(seq $REPS); do s=$(date +%s.%N); cat "$g" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; done | median)
  echo
  echo "## (e) parse + reindex of a 20M-edge graph ($bytes bytes, cached) vs cat > /dev/null"
  echo
  echo "| reader | seconds | MB/s | ratio to cat |"
  echo "|---|---:|---:|---:|"
  printf "| cat file > /dev/null | %.3f | %.0f | 1 |\n" "$catt" "$(echo "$bytes / $catt / 1000000" | bc -l)"
  for t in 1 2; do
    res=$(for i in $(seq $REPS); do "$OUT/parse_bench" "$g" $t; done)
    s=$(echo "$res" | field seconds | median)
    printf "| exo_parse_file, threads = %d | %.3f | %.0f | %.1f |\n" $t "$s" "$(echo "$bytes / $s / 1000000" | bc -l)" "$(echo "$s / $catt" | bc -l)"
    echo "$res" | field checksum | sort -u | sed 's/^/<!-- checksum /; s/$/ -->/'
  done
  ;;
columns)
  # The same edges as a 3-column edge list and as 12-column search-tool
  # output (BLAST/DIAMOND -outfmt 6 layout, the weight as the bitscore in
  # column 12): parse + reindex with one thread, runs interleaved.
  make -s "$BUILD/libexocore.a" BUILD="$BUILD" >/dev/null
  gcc -std=c11 -O2 -Isrc/core -o "$OUT/parse_bench" benchmarks/micro/parse_bench.c "$BUILD/libexocore.a" -lz -lm -pthread
  gcc -std=c11 -O2 -o "$OUT/exogen" benchmarks/gen/exogen.c -lz -lm
  g3=$SCRATCH/cols3.tsv
  g12=$SCRATCH/cols12.m8
  "$OUT/exogen" --nodes 5e5 --edges "$COLS_EDGES" --mixing 0.3 --seed 2 --out "$g3" --truth "$SCRATCH/cols.truth" 2>/dev/null
  awk -F'\t' -v OFS='\t' '{ k = NR % 997; print $1, $2, sprintf("%.1f", 25 + k % 75), 80 + k % 400, k % 40, k % 5, 1 + k % 9, 80 + k % 400, 1 + k % 7, 81 + k % 400, sprintf("%.2e", (1 + k % 9) * 10^-(k % 180)), $3 }' "$g3" > "$g12"
  b3=$(stat -c %s "$g3")
  b12=$(stat -c %s "$g12")
  cat "$g3" "$g12" > /dev/null
  r3=""; r12=""; re=""
  for i in $(seq $REPS); do
    r3="$r3$("$OUT/parse_bench" "$g3" 1 1 1,2,3 none)"$'\n'
    r12="$r12$("$OUT/parse_bench" "$g12" 1 1 1,2,12 none)"$'\n'
    re="$re$("$OUT/parse_bench" "$g12" 1 1 1,2,11 neglog10)"$'\n'
  done
  med() { echo "$1" | grep seconds | field "$2" | median; }
  n=$(echo "$r3" | grep seconds | head -1 | field edges)
  echo
  echo "## (f) the same $COLS_EDGES edges as 3 columns and as 12-column search output (one thread, cached)"
  echo
  echo "CPU seconds of the process (steadier than wall time on a shared machine) and wall seconds, medians."
  echo
  echo "| file | columns read | bytes | CPU s | CPU ns per edge | CPU ratio to 3 columns | wall s | wall ratio |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  c3s=$(med "$r3" cpu); w3s=$(med "$r3" seconds)
  row() { printf "| %s | %s | %s | %.3f | %.0f | %.2f | %.3f | %.2f |\n" "$1" "$2" "$3" "$4" "$(echo "$4 * 1000000000 / $n" | bc -l)" "$(echo "$4 / $c3s" | bc -l)" "$5" "$(echo "$5 / $w3s" | bc -l)"; }
  row "3 columns" "1, 2, 3" "$b3" "$c3s" "$w3s"
  row "12 columns" "1, 2, 12 (bitscore)" "$b12" "$(med "$r12" cpu)" "$(med "$r12" seconds)"
  row "12 columns" "1, 2, 11 (e-value, neglog10)" "$b12" "$(med "$re" cpu)" "$(med "$re" seconds)"
  c3=$(echo "$r3" | grep seconds | field checksum | sort -u)
  c12=$(echo "$r12" | grep seconds | field checksum | sort -u)
  if [ "$c3" = "$c12" ]; then echo "<!-- same edges: checksum $c3 in both -->"; else echo "<!-- CHECKSUMS DIFFER: $c3 vs $c12 -->"; fi
  ;;
esac
done

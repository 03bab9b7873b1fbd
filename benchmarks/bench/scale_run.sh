#!/usr/bin/env bash
# benchmarks/bench/scale_run.sh: the generator piped into the command-line
# tool inside one cgroup v1 memory cgroup (no input file on disk), for the
# scale results in benchmarks/RESULTS.md.
#
#   [EXO_ARGS=...] scale_run.sh NODES EDGES CAP MEMORY_LIMIT [THREADS]
#   e.g. scale_run.sh 2e7 1e9 2G 512MB 2
#   EXO_ARGS="--algorithm leiden --objective cpm --resolution auto" \
#     scale_run.sh 2e7 1e9 2G 1GB 2   (the method of the protein default)
#
# Runs `exogen --nodes NODES --edges EDGES --min-comm 100 --max-comm 5000
# --seed 1 | exolabel --threads THREADS --memory-limit MEMORY_LIMIT --seed 1
# EXO_ARGS -`
# with the command-line tool in a fresh memory cgroup whose limit (RSS + page
# cache) is CAP (the generator, about 48 bytes per node, runs outside it; its
# time is part of the wall time), samples the temporary directory's allocated size (du) every
# second, and prints the CLI's statistics, the wall time of the pipe, the
# cgroup's peak usage and failcnt and the peak temp disk. Afterwards, outside
# the cap and not timed, the clusters are compared with the planted
# communities (ClusterNMI of the package installed in RLIB). Needs root,
# cgroup v1, R with ExoLabel and data.table. Files go to
# ${BENCH_DIR:-/tmp/exolabel-bench}/scale-*; the truth and output files stay
# (about 2 x 26 bytes per node), the temp dir is removed.
set -euo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/bench/cgroup_lib.sh
nodes=$1 edges=$2 cap=$3 mem=$4 threads=${5:-2}
BUILD=${BUILD:-build}
BENCH_DIR=${BENCH_DIR:-/tmp/exolabel-bench}
if [ -n "${RLIB:-}" ]; then export R_LIBS="$RLIB${R_LIBS:+:$R_LIBS}"; fi
mkdir -p "$BENCH_DIR"
make -s cli BUILD="$BUILD" > /dev/null
cc -std=c11 -O2 -o "$BUILD/exogen" benchmarks/gen/exogen.c -lz -lm
tag=scale-$edges${EXO_ARGS:+-$(echo "$EXO_ARGS" | tr -c 'a-zA-Z0-9\n' '_' | tr -s _)}
tmp=$BENCH_DIR/$tag-tmp out=$BENCH_DIR/$tag.tsv truth=$BENCH_DIR/$tag.truth
rm -rf "$tmp"; mkdir -p "$tmp"
cg=/sys/fs/cgroup/memory/exolabel-scale-$$
mkdir "$cg"
trap 'rmdir "$cg" 2> /dev/null || true' EXIT
if [ "$cap" != none ]; then echo "$cap" > "$cg/memory.limit_in_bytes"; fi
echo "load_before	$(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s.%N)
bash -c 'set -o pipefail
  "$1/exogen" --nodes "$3" --edges "$4" --min-comm 100 --max-comm 5000 --seed 1 --quiet \
      --truth "$5" |
    bash -c "echo \$\$ > $2/cgroup.procs; exec \"\$@\"" _ "$1/exolabel" --threads "$6" \
      --memory-limit "$7" --tempdir "$8" --seed 1 --stats --verbose --out "$9" ${10} -' \
  _ "$BUILD" "$cg" "$nodes" "$edges" "$truth" "$threads" "$mem" "$tmp" "$out" "${EXO_ARGS:-}" \
  2> "$BENCH_DIR/$tag.stats" &
cg_wait $! "$tmp"
cat "$BENCH_DIR/$tag.stats"
printf 'pipe_wall\t%s\n' "$(awk -v a="$t0" -v b="$cg_t1" 'BEGIN { printf "%.1f", b - a }')"
printf 'load_after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
cg_report "$cg" "$cap"
rm -rf "$tmp"
[ "$cg_status" -eq 0 ] || exit "$cg_status"
Rscript -e '
suppressMessages({library(data.table); library(ExoLabel)})
a <- commandArgs(TRUE)
tr <- fread(a[1], header = FALSE, col.names = c("Vertex", "Cluster"), sep = "\t")
cl <- fread(a[2], header = FALSE, col.names = c("Vertex", "Cluster"), sep = "\t")
cat(sprintf("nodes_out\t%d\nclusters\t%d\nplanted\t%d\nnmi\t%.5f\n", nrow(cl),
            uniqueN(cl$Cluster), uniqueN(tr$Cluster),
            ClusterNMI(as.data.frame(cl), as.data.frame(tr))))' "$truth" "$out"

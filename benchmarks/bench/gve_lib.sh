# benchmarks/bench/gve_lib.sh: what gve_run.sh and device_run.sh share to run
# GVE-Leiden (github.com/puzzlef/leiden-communities-openmp) on the planted
# graph of issue 27. Sourced, not run.

# gve_source SRC SCRATCH: prints a folder holding GVE-Leiden's main.cxx: SRC
# itself when it is a checkout, else SCRATCH/gve-src filled from the HEAD of
# SRC (a bare clone or mirror).
gve_source() {
  local src=$1 scratch=$2
  if [ -f "$src/main.cxx" ]; then echo "$src"; return; fi
  rm -rf "$scratch/gve-src" && mkdir -p "$scratch/gve-src"
  git -C "$src" archive HEAD | tar -x -C "$scratch/gve-src"
  echo "$scratch/gve-src"
}

# gve_build SRC_DIR OUT THREADS [FLAGS...]: GVE-Leiden built as its own
# main.sh builds it (float weights, MAX_THREADS, one repetition), plus FLAGS.
gve_build() {
  local src=$1 out=$2 threads=$3
  shift 3
  (cd "$src" && g++ -DTYPE=float -DMAX_THREADS="$threads" -DREPEAT_METHOD=1 \
    -std=c++17 -O3 -fopenmp "$@" main.cxx -o "$out")
}

# gve_mtx TXT MTX NODES EDGES: exogen's text graph as a symmetric weighted
# MatrixMarket file of integer ids (the node index of exogen's names
# "g.._c.._pN", plus one), which GVE-Leiden reads with arguments "1 1".
gve_mtx() {
  awk -F'\t' -v n="$3" -v m="$4" '
    BEGIN { printf "%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n", n, n, m }
    { sub(/.*_p/, "", $1); sub(/.*_p/, "", $2); print $1 + 1, $2 + 1, $3 }' "$1" > "$2.tmp"
  mv "$2.tmp" "$2"
}

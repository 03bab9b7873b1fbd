# benchmarks/bench/gve_lib.sh: what gve_run.sh and device_run.sh share to run
# GVE-Leiden (github.com/puzzlef/leiden-communities-openmp) and GVE-LPA
# (github.com/puzzlef/rak-communities-openmp) on the planted graph of issue
# 27. Sourced, not run.

# gve_source SRC SCRATCH: prints a folder holding a GVE project's inc/: SRC
# itself when it is a checkout, else SCRATCH/gve-src filled from the HEAD of
# SRC (a bare clone or mirror).
gve_source() {
  local src=$1 scratch=$2
  if [ -d "$src/inc" ]; then echo "$src"; return; fi
  rm -rf "$scratch/gve-src" && mkdir -p "$scratch/gve-src"
  git -C "$src" archive HEAD | tar -x -C "$scratch/gve-src"
  echo "$scratch/gve-src"
}

# gve_build SRC_DIR OUT THREADS METHOD [FLAGS...]: our driver
# benchmarks/bench/gve_one.cxx (one run of one method, its phase timers
# printed; the projects' own main.cxx runs Louvain before Leiden and repeats
# each method) against the headers of a GVE checkout, with the flags of the
# project's main.sh (g++ -std=c++17 -O3 -fopenmp, float weights,
# MAX_THREADS). METHOD: leiden (SRC_DIR a checkout of
# leiden-communities-openmp) or lpa (of rak-communities-openmp).
gve_build() {
  local src=$1 out=$2 threads=$3 method=$4 root
  shift 4
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  case $method in
    leiden) method=GVE_LEIDEN ;;
    lpa) method=GVE_LPA ;;
    *) echo "gve_build: METHOD is leiden or lpa, not '$method'" >&2; return 2 ;;
  esac
  g++ -DTYPE=float -DMAX_THREADS="$threads" -DGVE_METHOD="$method" -std=c++17 -O3 -fopenmp \
    -I "$src/inc" "$@" "$root/gve_one.cxx" -o "$out"
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

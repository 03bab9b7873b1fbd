#!/usr/bin/env bash
# Install what ExoLabel needs, from Debian's packages (CRAN as a fallback
# for R packages Debian lacks). Does nothing when all is already there, so
# it is cheap to call before every build.
#
#   tools/install-deps.sh runtime   what a user needs: R with its build tools,
#                                   Rcpp, cli and zlib to install the package
#                                   (R CMD INSTALL) and build the command-line
#                                   tool (make cli), and knitr, rmarkdown and
#                                   pandoc to build the vignette (R CMD build);
#                                   used by make install and make demo
#   tools/install-deps.sh [all]     the runtime set and the developers'
#                                   toolchain (tests, checks, sanitizers,
#                                   fuzzing, Windows cross-build, MPI);
#                                   used by make test, make check and CI
#   tools/install-deps.sh --list-r runtime|all
#                                   print the R packages of a set, one a line,
#                                   and install nothing (tools/install-test.sh)
set -euo pipefail
RUNTIME_DEB=(r-base-dev r-cran-rcpp r-cran-cli zlib1g-dev rsync   # R CMD INSTALL, make cli
             r-cran-knitr r-cran-rmarkdown pandoc)                # the vignette (R CMD build)
RUNTIME_R=(Rcpp cli knitr rmarkdown)
DEV_DEB=(r-cran-testthat r-cran-igraph r-cran-roxygen2 r-cran-callr
         r-cran-matrix r-cran-data.table r-cran-bit64 r-bioc-bioccheck r-bioc-s4vectors qpdf
         r-bioc-biostrings   # Biostrings: sequences and representatives (Suggests), tests
         check libsubunit-dev pkg-config valgrind
         clang-14 libclang-rt-14-dev cppcheck   # make fuzz / fuzz-replay (libFuzzer), make cppcheck
         gcc-mingw-w64-x86-64 libz-mingw-w64-dev wine wine64  # make win-test (Windows cross-build run under Wine)
         openmpi-bin libopenmpi-dev)           # make mpi / mpi-test (exolabel-mpi)
DEV_R=(testthat igraph roxygen2 callr Matrix data.table BiocCheck S4Vectors
       igraphdata  # igraphdata: karate, UKfaculty (benchmarks/quality, a test)
       bit64       # bit64: integer64 columns (what data.table::fread gives), tests
       Biostrings) # Biostrings: AAStringSet sequences and representatives, tests

list_r=0
if [ "${1:-}" = --list-r ]; then list_r=1; shift; fi
set_name=${1:-all}
case "$set_name" in
  runtime) DEB_PKGS=("${RUNTIME_DEB[@]}"); R_PKGS=("${RUNTIME_R[@]}") ;;
  all) DEB_PKGS=("${RUNTIME_DEB[@]}" "${DEV_DEB[@]}"); R_PKGS=("${RUNTIME_R[@]}" "${DEV_R[@]}") ;;
  *) echo "usage: tools/install-deps.sh [--list-r] [runtime|all]" >&2; exit 2 ;;
esac
if [ "$list_r" = 1 ]; then printf '%s\n' "${R_PKGS[@]}"; exit 0; fi

missing=()
for p in "${DEB_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# R packages that must be loadable (CRAN if Debian's are missing or broken)
Rscript -e '
need <- commandArgs(trailingOnly = TRUE)
miss <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(miss)) {
  message("install-deps: installing from CRAN: ", paste(miss, collapse = " "))
  install.packages(miss, repos = "https://cloud.r-project.org")
}' "${R_PKGS[@]}"

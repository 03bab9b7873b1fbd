#!/usr/bin/env bash
# Install what building and testing ExoLabel needs, from Debian's packages
# (CRAN as a fallback for R packages Debian lacks). Does nothing when all is
# already there, so it is cheap to call before every build.
set -euo pipefail
DEB_PKGS=(r-base-dev r-cran-rcpp r-cran-testthat r-cran-igraph r-cran-roxygen2
          r-cran-knitr r-cran-rmarkdown r-cran-callr
          r-cran-cli r-cran-matrix r-cran-data.table r-cran-bit64 r-bioc-biocstyle r-bioc-bioccheck
          r-bioc-s4vectors qpdf
          check libsubunit-dev pkg-config zlib1g-dev valgrind rsync
          clang-14 libclang-rt-14-dev cppcheck   # make fuzz / fuzz-replay (libFuzzer), make cppcheck
          gcc-mingw-w64-x86-64 libz-mingw-w64-dev wine wine64  # make win-test (Windows cross-build run under Wine)
          openmpi-bin libopenmpi-dev)           # make mpi / mpi-test (exolabel-mpi)
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
need <- c("Rcpp", "testthat", "igraph", "roxygen2", "knitr", "rmarkdown", "callr",
          "cli", "Matrix", "data.table", "BiocStyle", "BiocCheck", "S4Vectors",
          "igraphdata",  # igraphdata: karate, UKfaculty (benchmarks/quality, a test)
          "bit64")       # bit64: integer64 columns (what data.table::fread gives), tests
miss <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(miss)) {
  message("install-deps: installing from CRAN: ", paste(miss, collapse = " "))
  install.packages(miss, repos = "https://cloud.r-project.org")
}'

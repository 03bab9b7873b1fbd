#!/usr/bin/env bash
# tools/install-test.sh TARBALL: install the package tarball (made by
# R CMD build, as `make install` makes it) into a fresh, empty library
# while R sees only its own library and the runtime R packages of
# tools/install-deps.sh (and what they depend on), linked into a second
# temporary library. There the package must install, load, cluster both
# bundled examples (an edge list and DIAMOND output), and have its
# vignette and its help pages (help.search). Run by `make install-test`,
# which `make test` runs. Fails without a runtime set or when the package
# needs more than it at install or run time.
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$1
R=${R:-R}
RSCRIPT=${RSCRIPT:-Rscript}
work=$(mktemp -d "${TMPDIR:-/tmp}/exolabel-install-test-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" "$work/runtime"

mapfile -t runtime < <(bash tools/install-deps.sh --list-r runtime)
if [ ${#runtime[@]} -eq 0 ]; then
  echo "install-test: tools/install-deps.sh --list-r runtime names no R package" >&2
  exit 1
fi
echo "install-test: runtime R packages: ${runtime[*]}"
# The runtime packages and their hard dependencies, found where they are
# installed now, linked into $work/runtime (base packages stay in R's own
# library, which R always sees).
"$RSCRIPT" -e '
args <- commandArgs(trailingOnly = TRUE)
dest <- args[1]; want <- args[-1]
ip <- installed.packages()
ip <- ip[!duplicated(ip[, "Package"]), , drop = FALSE]
base <- rownames(installed.packages(.Library, priority = "base"))
deps <- tools::package_dependencies(want, db = ip, recursive = TRUE,
                                    which = c("Depends", "Imports", "LinkingTo"))
pkgs <- setdiff(unique(c(want, unlist(deps))), c(base, "R"))
missing <- setdiff(pkgs, rownames(ip))
if (length(missing)) stop("not installed: ", paste(missing, collapse = " "))
for (p in pkgs) file.symlink(file.path(ip[p, "LibPath"], p), file.path(dest, p))
cat("install-test: linked", length(pkgs), "packages\n")' "$work/runtime" "${runtime[@]}"

# R_LIBS_SITE and R_LIBS_USER replace the site and user libraries (Debian's
# /etc/R/Renviron keeps values that are set and not empty). Debian's
# Renviron.site would add its site libraries around R_LIBS_SITE, and it is
# read unless R_ENVIRON names the system file too: so R reads a copy of the
# system Renviron and empty site and user files.
cp "$("$RSCRIPT" -e 'cat(file.path(R.home("etc"), "Renviron"))')" "$work/Renviron.system"
: > "$work/Renviron.empty"
export R_ENVIRON="$work/Renviron.system" R_ENVIRON_SITE="$work/Renviron.empty" \
  R_ENVIRON_USER="$work/Renviron.empty"
export R_LIBS="$work/lib" R_LIBS_SITE="$work/runtime" R_LIBS_USER="$work/runtime"
"$R" CMD INSTALL --no-multiarch -l "$work/lib" "$tarball" > "$work/install.log" 2>&1 || {
  cat "$work/install.log"; echo "install-test: R CMD INSTALL failed" >&2; exit 1; }

"$RSCRIPT" -e '
lib <- Sys.getenv("R_LIBS")
stopifnot(all(normalizePath(.libPaths()) %in%
              normalizePath(c(lib, Sys.getenv("R_LIBS_SITE"), .Library))))
# the isolation works: a developer package is out of sight here
stopifnot(!requireNamespace("testthat", quietly = TRUE))
library(ExoLabel)
stopifnot(normalizePath(dirname(find.package("ExoLabel"))) == normalizePath(lib))
edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
set.seed(1)
res <- ExoLabel(edges, return_table = TRUE)
stopifnot(nrow(res$results) == 200)
hits <- system.file("extdata", "example_diamond.m8.gz", package = "ExoLabel")
fam <- ExoLabel(hits, format = "blast", cluster_table = TRUE, return_table = TRUE)
stopifnot(nrow(fam$results) == 300, nrow(fam$cluster_table) >= 1)
v <- vignette(package = "ExoLabel")$results
if (nrow(v) < 1) stop("the installed package has no vignette")
out <- vignette("ExoLabel", package = "ExoLabel")$PDF
if (!nzchar(out)) stop("vignette(\"ExoLabel\") has no HTML")
for (term in c("representative", "blast", "DIAMOND", "protein", "MMseqs2"))
  if (nrow(utils::help.search(term, package = "ExoLabel")$matches) == 0)
    stop("help.search(\"", term, "\") finds nothing")
cat("install-test: installed into a fresh library with", length(list.files(Sys.getenv("R_LIBS_SITE"))),
    "runtime packages; examples, vignette (", out, ") and help found\n")'

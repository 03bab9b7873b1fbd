#!/usr/bin/env bash
# Experiment behind the "label propagation's weak spot" notes in
# benchmarks/QUALITY.md: the same graphs clustered by the package as it is
# and by a copy whose label propagation does NOT prefer the node's current
# label among tied best labels (a uniform pick among all of them), each with
# the automatic iteration cap and with iterations = 30. The copy is patched
# in a scratch directory; src/core/exo_lp.c itself is not touched.
#   benchmarks/quality/tie_experiment.sh BUILD_DIR EXOGEN
# It patches the former rule (always keep the current label when among the
# best), so it runs only on a checkout of commit 1537539 or earlier; the
# current rule and the grid that chose it are in benchmarks/notes/QUALITY-history.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-/tmp/b-tie}
exogen=${2:-$build/exogen}
mkdir -p "$build/tree" "$build/lib-orig" "$build/lib-tie" "$build/graphs"
[ -x "$exogen" ] || cc -std=c11 -O2 -o "$exogen" benchmarks/gen/exogen.c -lz -lm
rsync -a --delete --exclude .git --exclude build --exclude '*.o' --exclude '*.so' \
  --exclude benchmarks --exclude tests/c --exclude fuzz ./ "$build/tree/ExoLabel/"
R CMD INSTALL --no-multiarch -l "$build/lib-orig" "$build/tree/ExoLabel" > "$build/orig.log" 2>&1
grep -q '|| cur_best ||' "$build/tree/ExoLabel/src/core/exo_lp.c"
sed -i 's/|| cur_best ||/||/; s/^\(  int cur_best = 0;\)/\1 (void)cur_best;/' "$build/tree/ExoLabel/src/core/exo_lp.c"
R CMD INSTALL --no-multiarch -l "$build/lib-tie" "$build/tree/ExoLabel" > "$build/tie.log" 2>&1
for mu in 0.3 0.5 0.6; do
  "$exogen" --nodes 1e5 --edges 1e6 --mixing $mu --min-comm 20 --max-comm 1000 --seed 1 \
    --out "$build/graphs/g$mu.tsv" --truth "$build/graphs/g$mu.truth" --quiet
done
for lib in orig tie; do
  Rscript -e '
    a <- commandArgs(TRUE)
    suppressMessages(library(ExoLabel, lib.loc = a[1]))
    for (mu in c("0.3", "0.5", "0.6")) for (unw in c(FALSE, TRUE)) {
      f <- file.path(a[2], paste0("g", mu, ".tsv"))
      truth <- read.delim(sub("tsv$", "truth", f), header = FALSE, col.names = c("Vertex", "Cluster"))
      set.seed(3)
      rr <- ExoLabel(f, return_table = TRUE, ignore_weights = unw, iterations = c(0, 30))
      cat(sprintf("%-5s mu=%s %-10s NMI (clusters): auto cap %.4f (%d), iterations=30 %.4f (%d)\n",
                  a[3], mu, if (unw) "unweighted" else "weighted",
                  ClusterNMI(rr[[1]]$results, truth), length(unique(rr[[1]]$results$Cluster)),
                  ClusterNMI(rr[[2]]$results, truth), length(unique(rr[[2]]$results$Cluster))))
    }' "$build/lib-$lib" "$build/graphs" "$lib"
done

# Rscript merge_proto.R SETDIR SEARCH: a prototype tried for issue 25
# (benchmarks/SSN.md, "Held-out real set: balifam"): the default's clusters
# (ExoLabel(m8, format = "blast"), seed 1) merged by igraph's modularity
# Leiden run on the graph aggregated on them (weights as the default's:
# bit score over the larger self score), at resolutions 1 and 0.5; prints
# the family (and superfamily) ARI before and after. Not part of any
# benchmark target.
suppressPackageStartupMessages({library(ExoLabel); library(data.table); library(igraph)})
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "scores.R"))
args <- commandArgs(trailingOnly = TRUE); setdir <- args[1]; search <- args[2]
m8 <- file.path(setdir, paste0(search, ".m8"))
truth <- read_truth(file.path(setdir, "truth.tsv")); lv <- truth_levels(truth)
set.seed(1)
r <- ExoLabel(m8, format = "blast", return_table = TRUE, threads = 2)
h <- fread(m8, sep = "\t", header = FALSE, select = c(1L, 2L, 12L), col.names = c("q","s","bits"), colClasses = list(character = 1:2))
self <- h[q == s, .(self = max(bits)), by = .(p = q)]
e <- h[q != s][, `:=`(a = pmin(q, s), b = pmax(q, s))][, .(bits = max(bits)), by = .(a, b)]
best <- rbind(e[, .(m = max(bits)), by = .(p = a)], e[, .(m = max(bits)), by = .(p = b)])[, .(m = max(m)), by = p]
nodes <- unique(c(h$q, h$s)); sc <- setNames(self$self[match(nodes, self$p)], nodes)
sc[is.na(sc)] <- best$m[match(names(sc)[is.na(sc)], best$p)]
e[, w := bits / pmax(sc[a], sc[b])]
memb <- setNames(r$results$Cluster, r$results$Vertex)
# aggregate on the default's clusters, then modularity Leiden on the coarse graph (merges only)
ag <- e[, .(ca = memb[a], cb = memb[b], w)]
cg <- graph_from_data_frame(ag[, .(ca = as.character(ca), cb = as.character(cb), w)], directed = FALSE,
                            vertices = data.frame(name = as.character(unique(memb))))
cg <- simplify(cg, edge.attr.comb = list(w = "sum"), remove.loops = FALSE)
for (res in c(1, 0.5)) {
  set.seed(1)
  top <- membership(cluster_leiden(cg, objective_function = "modularity", weights = E(cg)$w, resolution_parameter = res, n_iterations = -1))
  m2 <- top[as.character(memb)]
  s0 <- score_levels(truth, names(memb), memb, lv); s1 <- score_levels(truth, names(memb), m2, lv)
  cat(sprintf("%s %s res %.1f: default %.3f -> merged %.3f (sf %.3f -> %.3f)\n", basename(setdir), search, res, s0[["family_ari"]], s1[["family_ari"]],
      if ("superfamily_ari" %in% names(s0)) s0[["superfamily_ari"]] else NA, if ("superfamily_ari" %in% names(s1)) s1[["superfamily_ari"]] else NA))
}

# Rscript percomp_modularity.R SEARCH.m8 truth.tsv TAG OUT.csv
# Prototype (issue 25, session 30): igraph's modularity Leiden run on each
# connected component of the search graph by itself (the null model of
# modularity taken per component instead of over the whole graph), against
# the whole graph's modularity Leiden, on the -log10(e-value) weights that
# cluster_igraph.R gives its peers (capped at 200, the two directions of a
# pair by their maximum) and on bit scores over the larger self score
# (the package's default weights for format = "blast"); seeds 1..3, one row
# per seed and method appended to OUT.csv (tag, method, seed, family and
# superfamily ARI). Components of 1 or 2 proteins are kept whole.
suppressPackageStartupMessages({library(data.table); library(igraph)})
args <- commandArgs(TRUE); m8 <- args[1]; truthf <- args[2]; tag <- args[3]; outcsv <- args[4]
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "scores.R"))
truth <- read_truth(truthf); levels <- truth_levels(truth)
d <- fread(m8, sep = "\t", header = FALSE, select = list(character = 1:2, numeric = c(11L, 12L)),
           col.names = c("q", "s", "evalue", "bits"))
self <- d[q == s, .(self = max(bits)), by = q]
best <- d[q != s, .(best = max(bits)), by = q]
sc <- merge(best, self, by = "q", all = TRUE); sc[is.na(self), self := best]
selfv <- setNames(sc$self, sc$q)
d <- d[q != s]
d[, ev := pmin(-log10(evalue), 200)]
d[, sn := bits / pmax(selfv[q], selfv[s])]
d[, `:=`(a = pmin(q, s), b = pmax(q, s))]
d <- d[, .(ev = max(ev), sn = max(sn)), by = .(a, b)]
g <- graph_from_data_frame(d, directed = FALSE)
comp <- components(g)$membership
percomp <- function(w, res = 1) {
  mem <- integer(vcount(g)); off <- 0L
  for (k in unique(comp)) {
    idx <- which(comp == k)
    if (length(idx) <= 2) { mem[idx] <- off + 1L; off <- off + 1L; next }
    sg <- induced_subgraph(g, idx)
    cl <- cluster_leiden(sg, objective_function = "modularity", weights = edge_attr(sg, w),
                         resolution_parameter = res, n_iterations = -1)
    mem[idx] <- off + membership(cl); off <- off + max(membership(cl))
  }
  mem
}
res <- list()
for (sd in 1:3) {
  set.seed(sd)
  gl <- membership(cluster_leiden(g, objective_function = "modularity", weights = E(g)$ev, n_iterations = -1))
  set.seed(sd); pe <- percomp("ev")
  set.seed(sd); ps <- percomp("sn")
  for (nm in c("global_ev", "percomp_ev", "percomp_sn")) {
    m <- switch(nm, global_ev = gl, percomp_ev = pe, percomp_sn = ps)
    s <- score_levels(truth, V(g)$name, m, levels)
    res[[length(res) + 1]] <- data.table(tag = tag, method = nm, seed = sd, fam = s[["family_ari"]],
      sf = if ("superfamily_ari" %in% names(s)) s[["superfamily_ari"]] else NA)
  }
}
r <- rbindlist(res)
fwrite(r, outcsv, append = file.exists(outcsv))
print(r[, .(fam = median(fam), sf = median(sf)), by = .(tag, method)])

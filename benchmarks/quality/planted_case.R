# Shared by general_default_planted.R and polish_proto.R: one planted graph
# of the default's cases (benchmarks/quality/DEFAULT.md), generated with
# exogen as run.R makes them (mean degree 20, communities of 20..min(N/20,
# 1000) nodes) unless WORK already holds it, read by igraph and simplified
# (parallel arcs summed, loops kept). Returns the TSV's path f, the graph gr,
# its vertex names vx and their planted communities tr.
planted_case <- function(work, exogen, n, mu, s) {
  stem <- file.path(work, sprintf("planted_n%g_mu%.2f_s%d", n, mu, s))
  f <- paste0(stem, ".tsv"); tf <- paste0(stem, ".truth")
  if (!file.exists(f)) system2(exogen, c("--nodes", format(n, scientific = FALSE), "--edges", format(10 * n, scientific = FALSE),
     "--mixing", mu, "--min-comm", 20, "--max-comm", min(n / 20, 1000), "--seed", s, "--out", f, "--truth", tf, "--quiet"))
  truth <- read.table(tf, sep = "\t", col.names = c("Vertex", "Cluster"), colClasses = "character")
  gr <- read_graph(f, format = "ncol", directed = FALSE, weights = "yes")
  gr <- simplify(gr, remove.multiple = TRUE, remove.loops = FALSE, edge.attr.comb = list(weight = "sum"))
  vx <- V(gr)$name
  list(f = f, gr = gr, vx = vx, tr = truth$Cluster[match(vx, truth$Vertex)])
}

# Rscript benchmarks/quality/leiden_rounds.R EXOGEN WORKDIR
# Session 31: the modularity reached after 1, 2, 3, 5 and 20 rounds of
# ExoLabel's Leiden (one call per cap, seed 5 each time, so every run's
# first rounds are the same) and after 1, 2, 3 rounds and until stable
# (n_iterations = -1) of igraph's cluster_leiden (seed 1), with
# cluster_louvain for scale; the planted graphs of the quality grid at
# mixing 0.7, 10^4 and 10^5 nodes, seed 1, unweighted view. Modularity:
# igraph's modularity() on the simplified unweighted graph (ExoLabel's own
# `quality`, printed beside it, counts a duplicated edge line twice).
suppressPackageStartupMessages({library(ExoLabel); library(igraph)})
args <- commandArgs(trailingOnly = TRUE)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "graphs.R"))
for (nodes in c(1e4, 1e5)) {
    g <- data.frame(nodes = nodes, mixing = 0.7, family = "planted", seed = 1, igraph = TRUE)
    f <- generate_graph(g, args[1], args[2])
    gg <- load_views(f)$unweighted
    vx <- V(gg)$name
    for (it in c(1, 2, 3, 5, 20)) {
        set.seed(5)
        r <- ExoLabel(f$edges, return_table = TRUE, ignore_weights = TRUE, algorithm = "leiden",
                      iterations = it, threads = 1, verbose = FALSE)
        m <- r$results$Cluster[match(vx, r$results$Vertex)]
        cat(sprintf("%g nodes  ExoLabel iterations=%-3d modularity %.4f (its quality %.4f), %d clusters\n",
                    nodes, it, modularity(gg, match(m, unique(m))), r$parameters[["quality"]],
                    length(unique(m))))
    }
    for (it in c(1, 2, 3, -1)) {
        set.seed(1)
        m <- membership(cluster_leiden(gg, objective_function = "modularity", n_iterations = it))
        cat(sprintf("%g nodes  igraph n_iterations=%-3d modularity %.4f, %d clusters\n", nodes, it,
                    modularity(gg, m), max(m)))
    }
    set.seed(1)
    cat(sprintf("%g nodes  igraph louvain            modularity %.4f\n", nodes,
                modularity(gg, membership(cluster_louvain(gg)))))
    unlink(c(f$edges, f$truth))
}

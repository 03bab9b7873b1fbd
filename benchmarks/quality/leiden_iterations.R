# Rscript benchmarks/quality/leiden_iterations.R --exogen BUILD/exogen --work DIR
#     [--out benchmarks/quality/leiden_iterations.csv]
# Issue 25/27 (session 31): ExoLabel's Leiden (modularity, resolution 1) with
# iterations = 1 and iterations = 2 (same seed), beside
# igraph's cluster_leiden(objective_function = "modularity") (2 iterations,
# its default), on the graphs of `make quality --scale full` that igraph
# runs on (10^4 nodes with seeds 1..3, 10^5 nodes with seed 1), weighted and
# unweighted. One row per (graph, view, method): modularity (igraph's
# modularity() on the same view), NMI against the planted communities,
# number of clusters, seconds (ExoLabel: the clustering stage of the call).
# The summary printed at the end: per graph and view the means over seeds,
# and how many meet ExoLabel >= igraph - 0.005 for each setting.
suppressPackageStartupMessages({library(ExoLabel); library(igraph)})
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "graphs.R"))
exogen <- opt("exogen", "build/exogen")
work <- opt("work", tempfile("leiden_it"))
out <- opt("out", "benchmarks/quality/leiden_iterations.csv")
dir.create(work, recursive = TRUE, showWarnings = FALSE)
grid <- quality_grid("full")
grid <- grid[grid$igraph, ]

rows <- list()
for (i in seq_len(nrow(grid))) {
    g <- grid[i, ]
    files <- generate_graph(g, exogen, work)
    truth <- read_planted(files)
    views <- load_views(files)
    for (view in names(views)) {
        gg <- views[[view]]
        vx <- V(gg)$name
        w <- if (view == "weighted") E(gg)$weight else NULL
        tr <- truth$Cluster[match(vx, truth$Vertex)]
        add <- function(method, memb, secs)
            rows[[length(rows) + 1L]] <<- data.frame(
                nodes = g$nodes, family = g$family, view = view, mixing = g$mixing,
                seed = g$seed, method = method,
                modularity = modularity(gg, match(memb, unique(memb)), weights = w),
                nmi = ClusterNMI(memb, tr), k = length(unique(memb)), seconds = secs)
        for (it in 1:2) {
            # one call per setting with the same seed (the clusterings of a
            # vector of settings in one call each draw their own seed), so
            # the first round is the same in both
            set.seed(1000 * g$seed + round(100 * g$mixing))
            r <- ExoLabel(files$edges, return_table = TRUE, ignore_weights = view == "unweighted",
                          algorithm = "leiden", iterations = it, tempfiledir = work,
                          memory_limit = "1GB", threads = 1, verbose = FALSE)
            memb <- r$results$Cluster[match(vx, r$results$Vertex)]
            add(sprintf("ExoLabel iterations=%d", it), memb, attr(r, "stats")$seconds_cluster)
        }
        set.seed(g$seed)
        t0 <- proc.time()[["elapsed"]]
        memb <- membership(cluster_leiden(gg, objective_function = "modularity", weights = w))
        add("igraph leiden", memb, proc.time()[["elapsed"]] - t0)
    }
    unlink(c(files$edges, files$truth))
    utils::write.csv(do.call(rbind, rows), out, row.names = FALSE)
    message(sprintf("[%2d/%d] %s n=%g mu=%.2f seed=%d", i, nrow(grid), g$family, g$nodes,
                    g$mixing, g$seed))
}
d <- do.call(rbind, rows)
m <- aggregate(modularity ~ nodes + family + view + mixing + method, d, mean)
wide <- reshape(m, idvar = c("nodes", "family", "view", "mixing"), timevar = "method",
                direction = "wide")
ig <- wide[["modularity.igraph leiden"]]
for (it in 1:2) {
    q <- wide[[sprintf("modularity.ExoLabel iterations=%d", it)]]
    cat(sprintf("iterations=%d: >= igraph - 0.005 on %d of %d graphs; mean difference %.4f, smallest %.4f\n",
                it, sum(q >= ig - 0.005), length(q), mean(q - ig), min(q - ig)))
}
print(wide, row.names = FALSE, digits = 4)

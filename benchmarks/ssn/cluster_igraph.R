# Rscript cluster_igraph.R SEARCH_OUTPUT METHOD OUT.tsv
# The in-memory baseline: data.table::fread of the raw 12-column search
# output, the same graph MCL gets (self hits dropped, weight -log10(e-value)
# capped at 200 like mcxload --stream-neg-log10 -stream-tf 'ceil(200)', the
# two directions of a pair combined by their maximum), then igraph's
# cluster_leiden (METHOD "leiden": modularity objective, seed 1, iterated
# until stable; METHOD "cpm": CPM at resolution 1), cluster_label_prop (METHOD "lp", seed 1) or the connected
# components (METHOD "components", a reference: what a method that never
# splits a connected group would get). Reading is part
# of the time. Prints the elapsed seconds (without R's start-up) on stdout.
suppressPackageStartupMessages({library(data.table); library(igraph)})
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) == 3L)
input <- args[1]; method <- args[2]; out <- args[3]
t0 <- proc.time()[["elapsed"]]
d <- fread(input, sep = "\t", header = FALSE,
           select = list(character = 1:2, numeric = 11L), col.names = c("q", "s", "evalue"))
d <- d[q != s]
d[, w := pmin(-log10(evalue), 200)]  # an e-value of 0 gives Inf, capped to 200
d[, `:=`(a = pmin(q, s), b = pmax(q, s))]
d <- d[, .(w = max(w)), by = .(a, b)]
g <- graph_from_data_frame(d, directed = FALSE)
set.seed(as.integer(Sys.getenv("SEED", "1")))
cl <- switch(method,
    leiden = cluster_leiden(g, objective_function = "modularity", weights = E(g)$w,
                            n_iterations = -1),
    cpm = cluster_leiden(g, objective_function = "CPM", weights = E(g)$w,
                         resolution_parameter = 1, n_iterations = -1),
    lp = cluster_label_prop(g, weights = E(g)$w),
    components = NULL,
    stop("unknown method ", method))
mem <- if (is.null(cl)) components(g)$membership else membership(cl)
fwrite(data.table(Vertex = V(g)$name, Cluster = mem), out, sep = "\t",
       col.names = FALSE)
cat(sprintf("%.3f\n", proc.time()[["elapsed"]] - t0))

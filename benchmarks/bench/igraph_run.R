# What an R user runs when the graph fits in RAM, for benchmarks/bench/run.sh:
# data.table::fread + igraph::graph_from_data_frame + igraph::cluster_label_prop.
#   Rscript igraph_run.R FILE [leiden]
# With "leiden" the last step is igraph::cluster_leiden(objective_function =
# "modularity") with the weights and igraph's defaults (2 iterations), and the
# metrics are named igraph_leiden_* (plus its modularity).
# Prints "metric<TAB>value": seconds per step, total, peak RSS above baseline.
suppressPackageStartupMessages({ library(data.table); library(igraph) })
file <- commandArgs(TRUE)[1]
leiden <- identical(commandArgs(TRUE)[2], "leiden")
status_kb <- function(field) {
    x <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
    as.numeric(gsub("[^0-9]", "", x)) * 1024
}
invisible(gc())
base <- status_kb("VmRSS")
reset <- tryCatch({ writeLines("5", "/proc/self/clear_refs"); TRUE }, error = function(e) FALSE)
set.seed(1)
t_read <- system.time(d <- fread(file, sep = "\t", header = FALSE, quote = ""))[["elapsed"]]
t_graph <- system.time(g <- graph_from_data_frame(d, directed = FALSE))[["elapsed"]]
if (leiden) {
    t_lp <- system.time(cl <- cluster_leiden(g, objective_function = "modularity",
                                             weights = E(g)$V3))[["elapsed"]]
    peak <- status_kb("VmHWM")
    vals <- c(igraph_leiden_fread = t_read, igraph_leiden_graph = t_graph,
              igraph_leiden_cluster = t_lp, igraph_leiden_total = t_read + t_graph + t_lp,
              igraph_leiden_rss_above_base = if (reset) peak - base else NA,
              igraph_leiden_clusters = length(cl),
              igraph_leiden_quality = modularity(g, membership(cl), weights = E(g)$V3))
    cat(sprintf("%s\t%.10g\n", names(vals), vals), sep = "")
    quit(save = "no")
}
t_lp <- system.time(cl <- cluster_label_prop(g, weights = E(g)$V3))[["elapsed"]]
peak <- status_kb("VmHWM")
vals <- c(igraph_fread = t_read, igraph_graph = t_graph, igraph_lp = t_lp,
          igraph_total = t_read + t_graph + t_lp,
          igraph_rss_above_base = if (reset) peak - base else NA,
          igraph_clusters = length(cl))
cat(sprintf("%s\t%.6g\n", names(vals), vals), sep = "")

# What an R user runs when the graph fits in RAM, for benchmarks/bench/run.sh:
# data.table::fread + igraph::graph_from_data_frame + igraph::cluster_label_prop.
#   Rscript igraph_run.R FILE
# Prints "metric<TAB>value": seconds per step, total, peak RSS above baseline.
suppressPackageStartupMessages({ library(data.table); library(igraph) })
file <- commandArgs(TRUE)[1]
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
t_lp <- system.time(cl <- cluster_label_prop(g, weights = E(g)$V3))[["elapsed"]]
peak <- status_kb("VmHWM")
vals <- c(igraph_fread = t_read, igraph_graph = t_graph, igraph_lp = t_lp,
          igraph_total = t_read + t_graph + t_lp,
          igraph_rss_above_base = if (reset) peak - base else NA,
          igraph_clusters = length(cl))
cat(sprintf("%s\t%.6g\n", names(vals), vals), sep = "")

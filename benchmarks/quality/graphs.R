# Shared by run.R, leiden_iterations.R and leiden_rounds.R: the "--name
# value" options, the graph grid of the quality benchmark, the generation of
# one graph with benchmarks/gen/exogen, its planted communities, and its two
# views (weighted, unweighted) as igraph objects.

script_args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
    i <- match(paste0("--", name), script_args)
    if (is.na(i)) default else script_args[i + 1L]
}

mix_all <- c(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75)
quality_grid <- function(scale) {
    if (scale == "full") {
        rbind(
            expand.grid(nodes = 1e4, mixing = mix_all, family = c("planted", "lfr"),
                        seed = 1:3, igraph = TRUE, stringsAsFactors = FALSE),
            expand.grid(nodes = 1e5, mixing = c(0.1, 0.3, 0.5, 0.6, 0.7, 0.75),
                        family = c("planted", "lfr"), seed = 1, igraph = TRUE,
                        stringsAsFactors = FALSE),
            expand.grid(nodes = 1e6, mixing = c(0.3, 0.6, 0.7), family = "planted", seed = 1,
                        igraph = FALSE, stringsAsFactors = FALSE))
    } else if (scale == "leiden") {
        rbind(
            expand.grid(nodes = 1e4, mixing = c(0.1, 0.3, 0.5, 0.6, 0.7), family = c("planted", "lfr"),
                        seed = 1, igraph = TRUE, stringsAsFactors = FALSE),
            expand.grid(nodes = 1e5, mixing = c(0.3, 0.6), family = c("planted", "lfr"), seed = 1,
                        igraph = TRUE, stringsAsFactors = FALSE))
    } else {
        expand.grid(nodes = 1e4, mixing = c(0.1, 0.3, 0.5, 0.6, 0.7, 0.75),
                    family = c("planted", "lfr"), seed = 1, igraph = TRUE,
                    stringsAsFactors = FALSE)
    }
}

# Mean degree 20 (10 edge lines per node). Communities of 20..min(N/20, 1000)
# nodes, size exponent 2 (planted) / 1.5 (LFR); LFR degrees: exponent 2.5,
# largest expected degree 10x the mean.
generate_graph <- function(g, exogen, work) {
    stem <- file.path(work, sprintf("%s_n%g_mu%.2f_s%d", g$family, g$nodes, g$mixing, g$seed))
    edges <- paste0(stem, ".tsv")
    truth <- paste0(stem, ".truth")
    a <- c("--nodes", format(g$nodes, scientific = FALSE),
           "--edges", format(10 * g$nodes, scientific = FALSE),
           "--mixing", g$mixing, "--min-comm", 20,
           "--max-comm", min(g$nodes / 20, 1000), "--seed", g$seed,
           "--out", edges, "--truth", truth, "--quiet")
    if (g$family == "lfr")
        a <- c(a, "--degree-exponent", 2.5, "--comm-exponent", 1.5)
    st <- system2(exogen, a)
    if (st != 0) stop("exogen failed: ", paste(a, collapse = " "))
    list(edges = edges, truth = truth)
}

# The planted communities exogen wrote: data.frame(Vertex, Cluster).
read_planted <- function(files)
    utils::read.delim(files$truth, header = FALSE, quote = "",
                      col.names = c("Vertex", "Cluster"),
                      colClasses = c("character", "integer"))

# The graph's two views as igraph objects.
load_views <- function(files) {
    gr <- read_graph(files$edges, format = "ncol", directed = FALSE, weights = "yes")
    # duplicate lines add up, as in ExoLabel
    gr <- simplify(gr, remove.multiple = TRUE, remove.loops = FALSE,
                   edge.attr.comb = list(weight = "sum"))
    # unweighted: no weight attribute at all
    list(weighted = gr, unweighted = delete_edge_attr(gr, "weight"))
}

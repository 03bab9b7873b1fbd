# Rscript norm_grid.R SETDIR SEARCH OUT.csv [SEEDS] [CANDIDATES]
# Issue 25 exploration (benchmarks/SSN.md, "Weight normalisation and the
# protein default"): weight normalisations and data-derived CPM
# resolutions, prototyped with igraph's Leiden (cluster_leiden, CPM,
# n_iterations = -1) on SETDIR/SEARCH.m8 (raw 12-column search output, all
# against all, self hits included). Appends one row per run to OUT.csv in
# grid.R's layout (set, search, candidate, kind, seed, seconds, proteins,
# family/superfamily ARI, pair precision, recall, NMI, cluster counts);
# scores by scores.R. Not part of make ssn-bench. ENGINE=exo runs ExoLabel's
# Leiden (CPM, the same gamma; the edges given as a data.frame, THREADS
# threads, seed from set.seed) instead of igraph; candidates are then named
# exo_<name>, igraph's ig_<name>. SEEDS: seeds 1..SEEDS (default 1).
#
# The graph is the one format = "blast" builds: self hits dropped, q -> s and
# s -> q one edge with the larger value (e-value weight and bit score each
# combined by max), every protein of the file a node.
# Weights:
#   ev     min(-log10(e-value), 200): what ExoLabel uses today;
#   nmin   bits / min(self(q), self(t)), capped at 1;
#   nmax   bits / max(self(q), self(t));
#   ngeo   bits / sqrt(self(q) self(t)), capped at 1;
#   bits   the bit score itself;
#   evn    ev * nmax;
# self(p) = the bit score of p's hit on itself, or, when the search did not
# report one, the largest bit score of p's other hits (query or target).
# Candidates (name = weight _ rule):
#   <w>_g<x>   CPM at the fixed gamma x;
#   ev_s<c>    CPM at gamma = c * mean node strength (2W / n, n = proteins
#              of the file): resolution = "auto" is ev_s5e-05;
#   <w>_q<p>_<c>  CPM at gamma = c * the p-quantile of the edge weights;
#   <w>_sq<c>  CPM at gamma = c * mean strength over the nodes with an edge;
#   <w>_cc<c>  CPM with a gamma per connected component: c * the mean
#              strength of that component's nodes (igraph: vertex weights
#              sqrt(gamma_k) at resolution 1, so gamma n_i n_j = gamma_k
#              inside component k; ExoLabel: not available, igraph only).
# CANDIDATES: comma-separated names (default: the grid of the section).
suppressPackageStartupMessages({library(ExoLabel); library(data.table); library(igraph)})
args <- commandArgs(trailingOnly = TRUE)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "scores.R"))
setdir <- args[1]; search <- args[2]; outcsv <- args[3]
nseed <- if (length(args) >= 4) as.integer(args[4]) else 1L
m8 <- file.path(setdir, paste0(search, ".m8"))
truth <- read_truth(file.path(setdir, "truth.tsv"))
levels <- truth_levels(truth)
setname <- basename(normalizePath(setdir))
engine <- Sys.getenv("ENGINE", "ig")          # "ig": igraph; "exo": ExoLabel (data.frame input)
threads <- as.integer(Sys.getenv("THREADS", "1"))

h <- fread(m8, sep = "\t", header = FALSE, select = c(1L, 2L, 11L, 12L),
           col.names = c("q", "s", "evalue", "bits"), colClasses = list(character = 1:2))
nodes <- unique(c(h$q, h$s))
selfhit <- h[q == s, .(self = max(bits)), by = .(p = q)]
e <- h[q != s]
e[, w := pmin(-log10(pmax(evalue, 0)), 200)]
e[, `:=`(a = pmin(q, s), b = pmax(q, s))]
e <- e[, .(ev = max(w), bits = max(bits)), by = .(a, b)]
best <- rbind(e[, .(m = max(bits)), by = .(p = a)], e[, .(m = max(bits)), by = .(p = b)])[, .(m = max(m)), by = p]
self <- data.table(p = nodes)
self[, s := selfhit$self[match(p, selfhit$p)]]
noself <- sum(is.na(self$s))
self[is.na(s), s := best$m[match(p, best$p)]]
sa <- self$s[match(e$a, self$p)]; sb <- self$s[match(e$b, self$p)]
e[, nmin := pmin(bits / pmin(sa, sb), 1)]
e[, nmax := bits / pmax(sa, sb)]
e[, ngeo := pmin(bits / sqrt(sa * sb), 1)]
e[, evn := ev * nmax]                     # e-value weight scaled by bits / max self
g <- graph_from_data_frame(e[, .(a, b)], directed = FALSE,
                           vertices = data.frame(name = nodes))
n_all <- length(nodes)
cat(sprintf("%s %s: %d hits, %d pairs, %d proteins (%d without a self hit); ev mean strength %.2f; nmax mean %.3f median %.3f; nmin mean %.3f\n",
            setname, search, nrow(h), nrow(e), n_all, noself, 2 * sum(e$ev) / n_all,
            mean(e$nmax), median(e$nmax), mean(e$nmin)))

gam <- function(wcol, rule) {
    x <- e[[wcol]]
    if (grepl("^g", rule)) return(as.numeric(sub("^g", "", rule)))
    if (grepl("^s", rule) && !grepl("^sq", rule)) return(as.numeric(sub("^s", "", rule)) * 2 * sum(x) / n_all)
    if (grepl("^cc", rule)) return(as.numeric(sub("^cc", "", rule)))
    if (grepl("^sq", rule)) return(as.numeric(sub("^sq", "", rule)) * 2 * sum(x) / length(unique(c(e$a, e$b))))
    if (grepl("^q", rule)) {
        p <- strsplit(sub("^q", "", rule), "_")[[1]]
        return(as.numeric(p[2]) * quantile(x, as.numeric(p[1]), names = FALSE))
    }
    stop("unknown rule ", rule)
}
default_cands <- c(
    as.vector(outer(c("nmin", "nmax", "ngeo"), c(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5),
                    function(w, x) paste0(w, "_g", x))),
    paste0("ev_s", c("5e-05", "1e-04", "2e-04", "3e-04")),
    paste0("ev_g", c(0.01, 0.1, 0.3)))
cands <- if (length(args) >= 5) strsplit(args[5], ",")[[1]] else default_cands
for (nm in cands) {
    wcol <- sub("_.*", "", nm); rule <- sub("^[^_]*_", "", nm)
    gamma <- gam(wcol, rule)
    aris <- c()
    for (sd in seq_len(nseed)) {
        t0 <- proc.time()[["elapsed"]]
        set.seed(sd)
        if (engine == "exo" && grepl("^cc", rule)) stop("cc rules are igraph only")
        if (engine == "exo") {
            r <- ExoLabel(data.frame(from = e$a, to = e$b, weight = e[[wcol]]), algorithm = "leiden",
                          objective = "CPM", resolution = gamma, threads = threads,
                          return_table = TRUE, verbose = FALSE)$results
            vx <- r$Vertex; m <- r$Cluster
        } else if (grepl("^cc", rule)) {
            comp <- components(g)$membership
            str <- strength(g, weights = e[[wcol]])
            gk <- gamma * ave(str, comp)        # c * mean strength of the node's component
            m <- membership(cluster_leiden(g, objective_function = "CPM", weights = e[[wcol]],
                                           resolution_parameter = 1, vertex_weights = sqrt(gk),
                                           n_iterations = -1))
            vx <- V(g)$name
        } else {
            m <- membership(cluster_leiden(g, objective_function = "CPM", weights = e[[wcol]],
                                           resolution_parameter = gamma, n_iterations = -1))
            vx <- V(g)$name
        }
        secs <- proc.time()[["elapsed"]] - t0
        sc <- score_levels(truth, vx, m, levels)
        row <- data.table(set = setname, search = search, candidate = paste0(engine, "_", nm), kind = engine,
                          seed = sd, seconds = round(secs, 3), proteins = nrow(truth), gamma = signif(gamma, 6),
                          t(round(sc, 6)))
        if (!"superfamily_ari" %in% names(row))
            row[, `:=`(superfamily_ari = NA_real_, superfamily_prec = NA_real_,
                       superfamily_rec = NA_real_, superfamily_nmi = NA_real_)]
        setcolorder(row, c("set", "search", "candidate", "kind", "seed", "seconds", "proteins", "gamma",
                           paste0(rep(c("family", "superfamily"), each = 4), c("_ari", "_prec", "_rec", "_nmi"))))
        fwrite(row, outcsv, append = file.exists(outcsv))
        aris <- c(aris, sc[["family_ari"]])
    }
    cat(sprintf("  %-16s gamma %-10.4g family ARI %s  sf %.3f\n", nm, gamma,
                paste(formatC(aris, digits = 3, format = "f"), collapse = " "),
                if ("superfamily_ari" %in% names(sc)) sc[["superfamily_ari"]] else NA))
}

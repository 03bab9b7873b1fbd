# Accuracy benchmark: ExoLabel against planted ground truth and igraph.
#
#   Rscript benchmarks/quality/run.R --exogen BUILD/exogen --work DIR \
#       [--scale full|quick|leiden] [--out benchmarks/quality/results.csv]
#
# --scale leiden: the 10^4-node graphs (one seed) and the 10^5-node ones at
# mixing 0.3 and 0.6, for the Leiden comparison (no G(n, m) graph). The CSV
# is rewritten after every graph.
#
# Generates graphs with benchmarks/gen/exogen (planted communities with
# power-law sizes, and LFR-style graphs with power-law degrees), clusters each
# with ExoLabel (default options and the variants that matter) and with
# igraph's cluster_label_prop, cluster_louvain and cluster_leiden
# (modularity), on the weighted graph and on the same edges unweighted, and
# writes one CSV row per (graph, view, method): NMI, ARI, modularity (of the
# clustering on that view of the graph, resolution 1; NA on graphs too large
# for igraph), number of clusters, the share of nodes in the largest cluster
# (giant) and in the largest planted community (giant_true) and seconds.
# ExoLabel's Leiden (algorithm = "leiden": modularity, and CPM at two
# resolutions) runs beside the label propagation variants. report.R turns
# the CSV into QUALITY.md and quality.png. Runs sequentially (one core).
suppressPackageStartupMessages({
    library(ExoLabel)
    library(igraph)
})

here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "graphs.R"))
exogen <- opt("exogen", "build/exogen")
work <- opt("work", tempfile("quality"))
scale <- opt("scale", "full")
out <- opt("out", "benchmarks/quality/results.csv")
consensus_runs <- as.integer(opt("consensus", "3")) # 0: skip the consensus prototype
stopifnot(file.exists(exogen), scale %in% c("full", "quick", "leiden"))
dir.create(work, recursive = TRUE, showWarnings = FALSE)
dir.create(dirname(out), recursive = TRUE, showWarnings = FALSE)

grid <- quality_grid(scale)

# ExoLabel variants: one call per view (one graph build), a vector of
# parameter values = several clusterings on that build.
# "resolution=0" is the rule before the volume penalty (plain label propagation).
variants_w <- data.frame(variant = c("default", "attenuation=TRUE", "add_self_loops=TRUE",
                                     "iterations=30", "refine=TRUE", "resolution=0"),
                         att = c(0, 1, 0, 0, 0, 0), sl = c(0, 0, 1, 0, 0, 0),
                         it = c(0, 0, 0, 30, 0, 0), refine = c(0, 0, 0, 0, 5, 0),
                         res = c(1, 1, 1, 1, 1, 0))
variants_u <- variants_w[variants_w$variant != "add_self_loops=TRUE", ]

largest_share <- function(m) max(tabulate(match(m, unique(m)))) / length(m)

# The graph's two views as igraph objects (set per graph in the main loop
# when g$igraph; NULL otherwise): modularity is computed on them.
mod_graphs <- NULL
# Modularity of a membership given for the named vertices (igraph's
# modularity() ignores weights unless they are passed).
modularity_of <- function(view, memb, vertices) {
    if (is.null(mod_graphs) || is.null(vertices)) return(NA_real_)
    gg <- mod_graphs[[view]]
    m <- memb[match(V(gg)$name, vertices)]
    w <- if (view == "weighted") E(gg)$weight else NULL
    modularity(gg, match(m, unique(m)), weights = w)
}

row_for <- function(g, view, method, variant, memb, truth, secs, extra = list(),
                    vertices = NULL) {
    data.frame(nodes = g$nodes, family = g$family, mixing = g$mixing, seed = g$seed,
               view = view, method = method, variant = variant,
               nmi = ClusterNMI(memb, truth), ari = ClusterARI(memb, truth),
               modularity = modularity_of(view, memb, vertices),
               k = length(unique(memb)), k_true = length(unique(truth)),
               giant = largest_share(memb), giant_true = largest_share(truth),
               seconds = secs,
               stringsAsFactors = FALSE)
}

run_exolabel <- function(g, files, truth_df, view) {
    v <- if (view == "weighted") variants_w else variants_u
    set.seed(1000 * g$seed + round(100 * g$mixing))
    t0 <- proc.time()[["elapsed"]]
    res <- ExoLabel(files$edges, return_table = TRUE, ignore_weights = view == "unweighted",
                    attenuation = v$att, add_self_loops = v$sl, iterations = v$it,
                    refine = v$refine, resolution = v$res,
                    tempfiledir = work, memory_limit = "1GB", threads = 1, verbose = FALSE)
    wall <- proc.time()[["elapsed"]] - t0
    # per clustering: label propagation, merge passes and output; the rest
    # of the call (reading, sorting, reading the tables back) is shared
    cl_secs <- vapply(res, function(r) {
        st <- attr(r, "stats")
        st$seconds_cluster + st$seconds_refine + st$seconds_output
    }, 1)
    build <- wall - sum(cl_secs)
    rows <- list()
    for (i in seq_along(res)) {
        tab <- res[[i]]$results
        memb <- stats::setNames(tab$Cluster, tab$Vertex)
        tr <- truth_df[match(names(memb), truth_df$Vertex), "Cluster"]
        rows[[i]] <- row_for(g, view, "ExoLabel", v$variant[i], unname(memb), tr,
                             build + cl_secs[i], vertices = names(memb))
    }
    # Leiden: modularity, and CPM at two resolutions (one build each call);
    # seconds: the whole call, reading and sorting included
    for (lv in list(list(objective = "modularity", resolution = 1),
                    list(objective = "CPM", resolution = c(0.01, 0.1)))) {
        t0 <- proc.time()[["elapsed"]]
        lres <- ExoLabel(files$edges, return_table = TRUE,
                         ignore_weights = view == "unweighted", algorithm = "leiden",
                         objective = lv$objective, resolution = lv$resolution,
                         tempfiledir = work, memory_limit = "1GB", threads = 1,
                         verbose = FALSE)
        if (length(lv$resolution) == 1L) lres <- list(lres)
        wall <- proc.time()[["elapsed"]] - t0
        for (r in lres) {
            memb <- stats::setNames(r$results$Cluster, r$results$Vertex)
            tr <- truth_df[match(names(memb), truth_df$Vertex), "Cluster"]
            rows[[length(rows) + 1L]] <- row_for(
                g, view, "ExoLabel",
                sprintf("leiden %s resolution=%g", lv$objective, r$parameters[["resolution"]]),
                unname(memb), tr, wall / length(lres), vertices = names(memb))
        }
    }
    if (consensus_runs > 0L && g$nodes <= 1e5) {
        # Prototype (in R) of a consensus of several seeded runs: run the
        # default clustering `consensus_runs` times on one build, keep the
        # edges whose two ends share a cluster in a majority of the runs, and
        # take the connected components of the kept edges. The time is that
        # of the runs (the combination would be one more streaming pass
        # over the CSR in C).
        t0 <- proc.time()[["elapsed"]]
        cres <- ExoLabel(files$edges, return_table = TRUE, ignore_weights = view == "unweighted",
                         attenuation = rep(0, consensus_runs), tempfiledir = work,
                         memory_limit = "1GB", threads = 1, verbose = FALSE)
        secs <- proc.time()[["elapsed"]] - t0
        vx <- cres[[1]]$results$Vertex
        lab <- vapply(cres, function(r) r$results$Cluster, integer(length(vx)))
        e <- utils::read.delim(files$edges, header = FALSE, quote = "",
                               colClasses = c("character", "character", "NULL"))
        ia <- match(e[[1]], vx)
        ib <- match(e[[2]], vx)
        agree <- rowMeans(lab[ia, , drop = FALSE] == lab[ib, , drop = FALSE])
        keep <- agree > 0.5
        cg <- make_graph(rbind(ia[keep], ib[keep]), n = length(vx), directed = FALSE)
        cons <- components(cg)$membership
        tr <- truth_df[match(vx, truth_df$Vertex), "Cluster"]
        rows[[length(rows) + 1L]] <- row_for(g, view, "ExoLabel",
                                             sprintf("consensus of %d runs", consensus_runs),
                                             cons, tr, secs, vertices = vx)
    }
    do.call(rbind, rows)
}

timed <- function(expr) {
    t0 <- proc.time()[["elapsed"]]
    val <- force(expr)
    list(value = val, secs = proc.time()[["elapsed"]] - t0)
}

run_igraph <- function(g, files, truth_df) {
    gr <- mod_graphs$weighted
    tr <- truth_df[match(V(gr)$name, truth_df$Vertex), "Cluster"]
    rows <- list()
    for (view in c("weighted", "unweighted")) {
        gg <- mod_graphs[[view]]
        vx <- V(gg)$name
        set.seed(g$seed)
        r <- timed(membership(cluster_label_prop(gg)))
        rows[[length(rows) + 1L]] <- row_for(g, view, "igraph label_prop", "", r$value, tr,
                                             r$secs, vertices = vx)
        r <- timed(membership(cluster_louvain(gg)))
        rows[[length(rows) + 1L]] <- row_for(g, view, "igraph louvain", "", r$value, tr,
                                             r$secs, vertices = vx)
        r <- timed(membership(cluster_leiden(gg, objective_function = "modularity")))
        rows[[length(rows) + 1L]] <- row_for(g, view, "igraph leiden", "", r$value, tr,
                                             r$secs, vertices = vx)
    }
    do.call(rbind, rows)
}

# G(n,m) with no community structure: 1e5 nodes, average degree 20.
run_gnm <- function() {
    n <- 1e5
    m <- 1e6
    set.seed(99)
    a <- sample.int(n, m, TRUE)
    b <- sample.int(n, m, TRUE)
    keep <- a != b
    f <- file.path(work, "gnm.tsv")
    writeLines(paste(a[keep], b[keep], sep = "\t"), f)
    res <- ExoLabel(f, return_table = TRUE, attenuation = c(0, 1, 0, 1, 0, 1, 0, 1),
                    iterations = c(0, 0, 30, 30, 0, 0, 0, 0), refine = c(0, 0, 0, 0, 5, 5, 0, 0),
                    resolution = c(1, 1, 1, 1, 1, 1, 0, 0),
                    tempfiledir = work, verbose = FALSE, threads = 1)
    unlink(f)
    do.call(rbind, lapply(res, function(r) {
        tb <- tabulate(r$results$Cluster)
        data.frame(nodes = n, family = "gnm", mixing = NA, seed = 99, view = "unweighted",
                   method = "ExoLabel",
                   variant = sprintf("attenuation=%s, iterations=%s, refine=%s, resolution=%s",
                                     r$parameters[["attenuation"]] > 0,
                                     r$parameters[["iterations"]],
                                     r$parameters[["refine"]],
                                     r$parameters[["resolution"]]),
                   nmi = NA, ari = NA, modularity = NA, k = length(tb), k_true = 1,
                   giant = max(tb) / sum(tb), giant_true = NA,
                   seconds = attr(r, "stats")$seconds_cluster,
                   stringsAsFactors = FALSE)
    }))
}

t_start <- proc.time()[["elapsed"]]
all_rows <- list()
for (i in seq_len(nrow(grid))) {
    g <- grid[i, ]
    files <- generate_graph(g, exogen, work)
    truth_df <- read_planted(files)
    mod_graphs <- if (g$igraph) load_views(files) else NULL
    rows <- rbind(run_exolabel(g, files, truth_df, "weighted"),
                  run_exolabel(g, files, truth_df, "unweighted"))
    if (g$igraph) rows <- rbind(rows, run_igraph(g, files, truth_df))
    unlink(c(files$edges, files$truth))
    all_rows[[i]] <- rows
    # rows so far (a long run stopped early keeps them)
    utils::write.csv(do.call(rbind, all_rows), out, row.names = FALSE)
    message(sprintf("[%3d/%d %6.0fs] %s n=%g mu=%.1f seed=%d  ExoLabel default NMI w %.3f u %.3f%s",
                    i, nrow(grid), proc.time()[["elapsed"]] - t_start, g$family, g$nodes,
                    g$mixing, g$seed,
                    rows$nmi[rows$method == "ExoLabel" & rows$variant == "default" & rows$view == "weighted"],
                    rows$nmi[rows$method == "ExoLabel" & rows$variant == "default" & rows$view == "unweighted"],
                    if (g$igraph) sprintf(", igraph LP w %.3f u %.3f",
                                          rows$nmi[rows$method == "igraph label_prop" & rows$view == "weighted"],
                                          rows$nmi[rows$method == "igraph label_prop" & rows$view == "unweighted"])
                    else ""))
}
if (scale != "leiden") all_rows[[length(all_rows) + 1L]] <- run_gnm()
res <- do.call(rbind, all_rows)
attr_line <- sprintf("# total_seconds=%.0f", proc.time()[["elapsed"]] - t_start)
# what report.R puts in the report's opening: the build this run used, when, where
sh1 <- function(cmd) tryCatch(paste(system(cmd, intern = TRUE), collapse = " "), error = function(e) "?")
dirty <- nzchar(sh1("git status --porcelain -- src R | head -1"))
attr_line <- c(attr_line,
               paste0("# commit=", sh1("git rev-parse --short HEAD"),
                      if (dirty) " (with uncommitted changes in src/ or R/)" else ""),
               paste0("# date=", format(Sys.Date())),
               sprintf("# machine=%s cores (%s), %s GiB", sh1("nproc"),
                       sh1("lscpu | sed -n 's/^Model name: *//p'"),
                       sh1("free -g | awk '/Mem:/ {print $2}'")),
               paste0("# R=", R.version$major, ".", R.version$minor),
               paste0("# igraph=", tryCatch(as.character(utils::packageVersion("igraph")),
                                            error = function(e) "not installed")))
utils::write.csv(res, out, row.names = FALSE)
cat(paste0(attr_line, " \n"), sep = "", file = out, append = TRUE)
message("wrote ", out, " (", nrow(res), " rows) in ", round(proc.time()[["elapsed"]] - t_start), " s")

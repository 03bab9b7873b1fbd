# Leiden section of the quality report: modularity of ExoLabel's Leiden
# against igraph's Leiden (target: >= igraph's - 0.005 on every graph), NMI
# beside it, and what CPM gives. report.R sources this file; alone it renders
# the section from any results.csv written by run.R:
#
#   Rscript benchmarks/quality/leiden_report.R results.csv LEIDEN.md

leiden_section <- function(res) {
    out <- character()
    add <- function(...) out <<- c(out, paste0(...))
    if (!"modularity" %in% names(res)) return(out)
    key <- c("nodes", "family", "view", "mixing")
    pick <- function(method, variant, what) {
        d <- res[res$method == method & (is.null(variant) | res$variant %in% variant), ]
        if (!nrow(d)) return(NULL)
        a <- stats::aggregate(d[[what]], d[key], mean)
        names(a)[names(a) == "x"] <- paste(method, variant, what)
        a
    }
    cols <- list(pick("ExoLabel", "leiden modularity resolution=1", "modularity"),
                 pick("igraph leiden", "", "modularity"),
                 pick("igraph louvain", "", "modularity"),
                 pick("ExoLabel", "default", "modularity"),
                 pick("ExoLabel", "leiden modularity resolution=1", "nmi"),
                 pick("igraph leiden", "", "nmi"),
                 pick("ExoLabel", "default", "nmi"),
                 pick("ExoLabel", "leiden modularity resolution=1", "seconds"),
                 pick("ExoLabel", "default", "seconds"))
    cols <- cols[!vapply(cols, is.null, logical(1))]
    if (length(cols) < 2) return(out)
    t <- Reduce(function(a, b) merge(a, b, by = key, all = TRUE), cols)
    t <- t[order(t$nodes, t$family, -xtfrm(t$view), t$mixing), ]
    f <- function(x, d = 3) ifelse(is.na(x), "", formatC(x, format = "f", digits = d))
    ql <- t[["ExoLabel leiden modularity resolution=1 modularity"]]
    qi <- t[["igraph leiden  modularity"]]
    add("## Leiden (`algorithm = \"leiden\"`): modularity against igraph's Leiden")
    add("")
    add("Modularity (resolution 1, of the clustering on the graph as clustered: ",
        "weighted or unweighted view) of ExoLabel's Leiden (objective modularity, ",
        "two rounds, the default), of igraph's `cluster_leiden(objective_function = ",
        "\"modularity\")` (2 iterations, its default), of `cluster_louvain` and of ",
        "ExoLabel's label propagation without merge passes (`refine = 0`: LP columns); NMI against the planted communities; ",
        "ExoLabel seconds are whole calls (reading and sorting included). Means over ",
        "the seeds run. Target: ExoLabel Leiden >= igraph Leiden - 0.005.")
    add("")
    if (!is.null(qi) && !is.null(ql)) {
        ok <- ql >= qi - 0.005
        add("Target met on ", sum(ok, na.rm = TRUE), " of ", sum(!is.na(ok)),
            " graphs; mean difference ExoLabel - igraph ", f(mean(ql - qi, na.rm = TRUE), 4),
            ", smallest ", f(min(ql - qi, na.rm = TRUE), 4), ".")
        add("")
    }
    add("| nodes | family | view | mixing | Q ExoLabel Leiden | Q igraph Leiden | Q igraph Louvain | ",
        "Q ExoLabel LP | NMI ExoLabel Leiden | NMI igraph Leiden | NMI ExoLabel LP | ",
        "s Leiden | s LP |")
    add("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    g <- function(name) if (is.null(t[[name]])) rep(NA, nrow(t)) else t[[name]]
    for (i in seq_len(nrow(t)))
        add("| ", format(t$nodes[i], scientific = TRUE), " | ", t$family[i], " | ", t$view[i],
            " | ", t$mixing[i], " | ", f(ql[i], 4), " | ", f(qi[i], 4), " | ",
            f(g("igraph louvain  modularity")[i], 4), " | ",
            f(g("ExoLabel default modularity")[i], 4), " | ",
            f(g("ExoLabel leiden modularity resolution=1 nmi")[i]), " | ",
            f(g("igraph leiden  nmi")[i]), " | ", f(g("ExoLabel default nmi")[i]), " | ",
            f(g("ExoLabel leiden modularity resolution=1 seconds")[i], 1), " | ",
            f(g("ExoLabel default seconds")[i], 1), " |")
    cpm <- res[res$method == "ExoLabel" & grepl("^leiden CPM", res$variant), ]
    if (nrow(cpm)) {
        a <- stats::aggregate(cbind(k, k_true, nmi, giant) ~ nodes + family + view + mixing + variant,
                              cpm, mean)
        a <- a[order(a$nodes, a$family, -xtfrm(a$view), a$mixing, a$variant), ]
        add("")
        add("CPM (`objective = \"CPM\"`): clusters found (k) against planted (k_true). ",
            "The resolution is a density threshold (a cluster needs more than `resolution` ",
            "edge weight per pair of members), so one value does not suit both views ",
            "or every community size; a sweep chooses it.")
        add("")
        add("| nodes | family | view | mixing | resolution | k | k_true | NMI | giant |")
        add("|---|---|---|---|---|---|---|---|---|")
        for (i in seq_len(nrow(a)))
            add("| ", format(a$nodes[i], scientific = TRUE), " | ", a$family[i], " | ",
                a$view[i], " | ", a$mixing[i], " | ", sub(".*resolution=", "", a$variant[i]),
                " | ", round(a$k[i]), " | ", round(a$k_true[i]), " | ", f(a$nmi[i]), " | ",
                f(a$giant[i]), " |")
    }
    add("")
    out
}

if (sys.nframe() == 0L) {
    args <- commandArgs(trailingOnly = TRUE)
    lines <- readLines(args[1])
    res <- utils::read.csv(text = grep("^#", lines, value = TRUE, invert = TRUE),
                           stringsAsFactors = FALSE)
    writeLines(leiden_section(res), if (length(args) >= 2) args[2] else stdout())
}

# Turn the CSV written by run.R into benchmarks/QUALITY.md (tables, target
# checks) and benchmarks/quality.png (NMI against mixing per method), with
# base R graphics only.
#
#   Rscript benchmarks/quality/report.R [results.csv] [QUALITY.md] [quality.png] [notes.md]
args <- commandArgs(trailingOnly = TRUE)
csv <- if (length(args) >= 1) args[1] else "benchmarks/quality/results.csv"
md <- if (length(args) >= 2) args[2] else "benchmarks/QUALITY.md"
png_file <- if (length(args) >= 3) args[3] else "benchmarks/quality.png"
notes <- if (length(args) >= 4) args[4] else "benchmarks/quality/notes.md"

lines <- readLines(csv)
total <- sub("^# total_seconds=", "", grep("^# total_seconds=", lines, value = TRUE))
# what run.R recorded about the run ("# key=value" after the rows); NA when absent
meta <- function(key) {
    v <- grep(paste0("^# ", key, "="), lines, value = TRUE)
    if (length(v)) trimws(sub(paste0("^# ", key, "="), "", v[1])) else NA_character_
}
res <- utils::read.csv(text = grep("^#", lines, value = TRUE, invert = TRUE),
                       stringsAsFactors = FALSE)
res$label <- ifelse(res$method == "ExoLabel",
                    paste0("ExoLabel ", res$variant), res$method)
grid <- res[res$family != "gnm", ]
gnm <- res[res$family == "gnm", ]

fmt <- function(x, d = 3) ifelse(is.na(x), "", formatC(x, format = "f", digits = d))
agg <- function(d, what) stats::aggregate(d[[what]], d[c("nodes", "family", "view", "label", "mixing")], mean)

out <- character()
add <- function(...) out <<- c(out, paste0(...))

# a markdown table of the cases that miss a target (nothing when none does)
miss_table <- function(tab) {
    if (!nrow(tab)) return(invisible())
    add("")
    add("| ", paste(names(tab), collapse = " | "), " |")
    add("|", strrep(" --- |", ncol(tab)))
    for (i in seq_len(nrow(tab))) add("| ", paste(unlist(tab[i, ]), collapse = " | "), " |")
}
where <- function(d) data.frame(nodes = format(as.numeric(d$nodes), scientific = TRUE),
                                 family = d$family, view = d$view, mixing = d$mixing,
                                 check.names = FALSE, stringsAsFactors = FALSE)

# a CSV from before run.R recorded these: the report's commit and date stand in
commit <- meta("commit")
if (is.na(commit)) {
    commit <- tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?")
    dirty <- tryCatch(length(system("git status --porcelain -- src R", intern = TRUE)) > 0,
                      error = function(e) FALSE)
    if (dirty) commit <- paste(commit, "(with uncommitted changes in src/ or R/)")
}
run_date <- if (is.na(meta("date"))) format(Sys.Date()) else meta("date")
machine <- if (is.na(meta("machine"))) "2 cores, 24 GiB, shared with other jobs" else meta("machine")
r_version <- if (is.na(meta("R"))) paste(R.version$major, R.version$minor, sep = ".") else meta("R")
ig_version <- if (is.na(meta("igraph"))) as.character(utils::packageVersion("igraph")) else meta("igraph")
# the tables call ExoLabel's variants by run.R's names; "default" there is
# label propagation without merge passes, which is no longer the default
relabel <- function(x) {
    x <- gsub("ExoLabel default\\b", "ExoLabel lp, refine=0", x, perl = TRUE)
    gsub("ExoLabel refine=TRUE", "ExoLabel lp, refine=TRUE (default)", x, fixed = TRUE)
}
add("**Graphs** (benchmarks/gen/exogen): mean degree 20 (10 edge lines per node), ",
    "communities of 20 to min(N/20, 1000) nodes. *planted*: Poisson degrees, ",
    "community sizes ~ s^-2. *lfr*: power-law degrees (exponent 2.5, largest ",
    "expected degree 200), sizes ~ s^-1.5. Mixing mu = share of each node's edges ",
    "that leave its community. *weighted*: intra-community weights uniform in ",
    "[0.5, 1], inter in [0.05, 0.6]; *unweighted*: the same edges with weight 1 ",
    "(ExoLabel `ignore_weights = TRUE`, igraph without weights). Sizes: 10^4 ",
    "nodes (mixing 0.1 to 0.75, 3 seeds, means shown), 10^5 nodes (6 mixings, 1 seed), ",
    "10^6 nodes (planted, mixing 0.3, 0.6 and 0.7, ExoLabel only).")
add("")
add("**Methods**: ExoLabel's label propagation (the volume penalty `resolution = 1`; ",
    "`add_self_loops = FALSE`, `attenuation = FALSE`, `iterations = 0`) with its merge ",
    "passes (`lp, refine=TRUE (default)`: the package's default for edge lists) and ",
    "without them (`lp, refine=0`, the default before); the other variants change one ",
    "option of `lp, refine=0` (`resolution=0` is plain label propagation, ",
    "the rule before the penalty) and Leiden (`algorithm = \"leiden\"`, modularity, ",
    "and CPM at resolutions 0.01 and 0.1); `igraph::cluster_label_prop`, `cluster_louvain`, ",
    "`cluster_leiden(objective_function = \"modularity\")` (default 2 iterations) on ",
    "the same graph (duplicate edges summed). NMI and ARI are `ClusterNMI()` / ",
    "`ClusterARI()` against the planted communities, over the nodes that have an ",
    "edge. *giant* = share of nodes in the largest cluster. ExoLabel seconds include ",
    "reading, sorting and writing (the whole call, the build shared by the ",
    "variants counted once per variant); igraph seconds are the clustering only ",
    "(loading the graph into igraph is not counted).")
add("")

if (file.exists(notes)) {
    out <- c(out, readLines(notes), "")
}

# ---- targets ----------------------------------------------------------------
add("## Targets")
add("")
a <- agg(grid, "nmi")
lp <- a[a$label == "igraph label_prop", ]
for (lab in c("ExoLabel default", "ExoLabel refine=TRUE")) {
    exo <- a[a$label == lab, ]
    if (!nrow(exo)) next
    m <- merge(exo, lp, by = c("nodes", "family", "view", "mixing"), suffixes = c(".exo", ".lp"))
    m <- m[m$mixing <= 0.6 + 1e-9, ]
    m$ok_lp <- m$x.exo >= m$x.lp - 0.01
    add("**", lab, "** against igraph label_prop (mean NMI), mixing <= 0.6: ",
        sum(m$ok_lp), " of ", nrow(m), " cases at least igraph's NMI - 0.01.")
    bad <- m[!m$ok_lp, ]
    miss_table(stats::setNames(cbind(where(bad), fmt(bad$x.exo), fmt(bad$x.lp)),
                               c(names(where(bad)), lab, "igraph label_prop")))
    add("")
    w <- exo[exo$view == "weighted" & exo$mixing <= 0.6 + 1e-9, ]
    low <- w$x < 0.95
    add("Weighted graphs, mixing <= 0.6: ", lab, " reaches NMI >= 0.95 in ",
        sum(!low), " of ", nrow(w), " cases",
        if (any(low)) paste0(" (below: ", paste(sprintf("%s n=%g mu=%.1f: %.3f",
            w$family[low], w$nodes[low], w$mixing[low], w$x[low]), collapse = "; "), ")")
        else "", ".")
    add("")
}
if (nrow(gnm)) {
    add("G(n, m) without communities (10^5 nodes, 10^6 random edges, mean degree 20): ")
    add("")
    add("| ExoLabel | clusters | largest cluster share |")
    add("| --- | --- | --- |")
    for (i in seq_len(nrow(gnm)))
        add("| ", gnm$variant[i], " | ", gnm$k[i], " | ", fmt(gnm$giant[i], 5), " |")
    add("")
}

# ---- issue 11, section 1: the defaults against igraph, floods, no loss -------
# (1) mean NMI of the defaults >= max(igraph label_prop, igraph leiden) - 0.01
#     on every graph igraph ran on; (2) on every graph (each seed) with mixing
#     <= 0.75 the largest cluster holds at most 5x the largest planted
#     community; (3) at mixing <= 0.6 the defaults lose at most 0.005 NMI
#     against plain label propagation (`resolution = 0`, the rule before).
sec1 <- function(grid, a) {
    key <- c("nodes", "family", "view", "mixing")
    one <- function(lab, nm) {
        d <- a[a$label == lab, c(key, "x")]
        names(d)[names(d) == "x"] <- nm
        d
    }
    m <- Reduce(function(x, y) merge(x, y, by = key, all.x = TRUE),
                list(one("ExoLabel default", "exo"), one("igraph label_prop", "lp"),
                     one("igraph leiden", "ld"), one("ExoLabel resolution=0", "r0")))
    m <- m[order(m$nodes, m$family, -xtfrm(m$view), m$mixing), ]
    best <- pmax(m$lp, m$ld)
    has <- !is.na(best)
    ok1 <- m$exo >= best - 0.01
    add("## Targets for `lp, refine=0` (computed from this run)")
    add("")
    add("Set for the defaults of the time (label propagation without merge passes).")
    add("")
    add("**NMI of `lp, refine=0` >= max(igraph label_prop, igraph Leiden) - 0.01** ",
        "(means over seeds): met on ", sum(ok1[has]), " of ", sum(has), " graphs",
        if (any(!has)) paste0(" (", sum(!has), " graphs of 10^6 nodes have no igraph run)") else "",
        ".")
    bad <- m[has & !ok1, ]
    miss_table(cbind(where(bad), `lp, refine=0` = fmt(bad$exo), `igraph label_prop` = fmt(bad$lp),
                     `igraph Leiden` = fmt(bad$ld), `short by` = fmt(pmax(bad$lp, bad$ld) - bad$exo)))
    add("")
    if ("giant_true" %in% names(grid)) {
        d <- grid[grid$label == "ExoLabel default" & grid$mixing <= 0.75 + 1e-9, ]
        d$ratio <- d$giant / d$giant_true
        ok2 <- d$ratio <= 5
        w <- which.max(d$ratio)
        add("**Largest cluster <= 5x the largest planted community** (`lp, refine=0`, every ",
            "graph and seed with mixing <= 0.75): met on ", sum(ok2), " of ", nrow(d),
            " graphs; the largest ratio is ", fmt(d$ratio[w], 2), " (", d$family[w], ", ",
            format(as.numeric(d$nodes[w]), scientific = TRUE), " nodes, ", d$view[w],
            ", mixing ", d$mixing[w], ").")
        bad <- d[!ok2, ]
        miss_table(cbind(where(bad), seed = bad$seed, `largest cluster` = fmt(bad$giant, 4),
                         `largest planted` = fmt(bad$giant_true, 4), ratio = fmt(bad$ratio, 1)))
        add("")
    }
    r <- m[!is.na(m$r0) & m$mixing <= 0.6 + 1e-9, ]
    ok3 <- r$exo >= r$r0 - 0.005
    add("**At mixing <= 0.6, no loss of more than 0.005 NMI against plain label ",
        "propagation** (`resolution = 0`, the rule before the volume penalty, same ",
        "code otherwise; means over seeds): met on ", sum(ok3), " of ", nrow(r),
        " graphs; mean change ", fmt(mean(r$exo - r$r0), 4), ", smallest ",
        fmt(min(r$exo - r$r0), 4), ".")
    bad <- r[!ok3, ]
    miss_table(cbind(where(bad), `lp, refine=0` = fmt(bad$exo), `resolution = 0` = fmt(bad$r0)))
    add("")
}
if (any(grid$label == "ExoLabel default")) sec1(grid, a)

timing <- file.path(dirname(notes), "refine_timing.txt")
if (file.exists(timing)) {
    add("Run time of `refine = TRUE` against `refine = 0` (whole `ExoLabel()` calls, ",
        "median of 3, benchmarks/quality/refine_timing.R): ", paste(readLines(timing), collapse = " "))
    add("")
}

# ---- collapse -----------------------------------------------------------------
add("## Giant-cluster collapse")
add("")
add("Share of nodes in the largest cluster (mean over seeds), by mixing; the ",
    "planted communities hold at most ", fmt(max(1000 / 1e5, 500 / 1e4), 2),
    " of the nodes, so a share above 0.5 is a collapse.")
add("")
gi <- agg(grid, "giant")
for (nd in sort(unique(gi$nodes))) for (vw in c("weighted", "unweighted")) {
    s <- gi[gi$nodes == nd & gi$view == vw, ]
    if (!nrow(s)) next
    s$col <- paste(s$family, s$mixing)
    tb <- stats::xtabs(x ~ label + col, s)
    cols <- colnames(tb)
    add("**", format(nd, scientific = TRUE), " nodes, ", vw, "**")
    add("")
    add("| method | ", paste(cols, collapse = " | "), " |")
    add("| --- |", strrep(" --- |", length(cols)))
    for (r in rownames(tb)) add("| ", r, " | ", paste(fmt(tb[r, ], 2), collapse = " | "), " |")
    add("")
}

# ---- full tables --------------------------------------------------------------
add("## NMI, ARI, clusters and seconds")
add("")
add("Means over seeds. k = number of clusters found (truth: k_true). Modularity ",
    "(resolution 1, of the clustering on the view clustered) is computed with igraph, ",
    "so it is empty on the 10^6-node graphs.")
add("")
keyc <- c("nodes", "family", "view", "mixing", "label")
full <- stats::aggregate(grid[c("nmi", "ari", "modularity", "k", "k_true", "giant", "seconds")],
                         grid[keyc], mean, na.action = stats::na.pass)
full <- full[order(full$nodes, full$family, full$view, full$mixing, full$label), ]
for (nd in sort(unique(full$nodes))) for (fam in unique(full$family)) for (vw in c("weighted", "unweighted")) {
    s <- full[full$nodes == nd & full$family == fam & full$view == vw, ]
    if (!nrow(s)) next
    add("### ", format(nd, scientific = TRUE), " nodes, ", fam, ", ", vw)
    add("")
    add("| mixing | method | NMI | ARI | modularity | k | k_true | giant | seconds |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for (i in seq_len(nrow(s)))
        add("| ", s$mixing[i], " | ", s$label[i], " | ", fmt(s$nmi[i]), " | ", fmt(s$ari[i]),
            " | ", fmt(s$modularity[i], 4), " | ", round(s$k[i]), " | ", round(s$k_true[i]),
            " | ", fmt(s$giant[i], 2), " | ", fmt(s$seconds[i], 2), " |")
    add("")
}
add("To reproduce: `make quality BUILD=build RLIB=rlib` (builds exogen and the ",
    "package, runs benchmarks/quality/run.R --scale full, then report.R); ",
    "`QUALITY_SCALE=quick` runs a 1-minute subset. report.R alone re-renders ",
    "this file and the plot from results.csv.")
# Leiden against igraph's Leiden, with the modularity column (leiden_report.R)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)[1])),
                 "leiden_report.R"))
out <- c(out, leiden_section(res))

# ---- the opening: one screen of current figures -------------------------------
hl_labs <- c("ExoLabel refine=TRUE", "ExoLabel default", "ExoLabel leiden modularity resolution=1",
             "igraph label_prop", "igraph leiden", "igraph louvain")
hl_cols <- data.frame(family = c(rep("planted", 3), rep("lfr", 3)),
                      view = c(rep("weighted", 3), rep("unweighted", 3)),
                      mixing = c(0.3, 0.6, 0.75, 0.3, 0.6, 0.75), stringsAsFactors = FALSE)
hl_cell <- function(lab, j) {
    v <- a$x[a$nodes == 1e5 & a$label == lab & a$family == hl_cols$family[j] &
             a$view == hl_cols$view[j] & abs(a$mixing - hl_cols$mixing[j]) < 1e-9]
    if (length(v)) fmt(v[1]) else ""
}
top <- c("# Clustering quality: ExoLabel against planted truth and igraph", "",
         paste0("Accuracy of ExoLabel's clusterings against the communities planted in ",
                "generated graphs, beside igraph's label propagation, Leiden and Louvain on ",
                "the same graphs. Speed is in [RESULTS.md](RESULTS.md), protein families in ",
                "[SSN.md](SSN.md); the experiments that chose the rules are in ",
                "[notes/QUALITY-history.md](notes/QUALITY-history.md)."), "",
         "## Current figures", "",
         paste0("NMI against the planted communities on the 10^5-node graphs (one seed), at ",
                "three mixings (the share of each node's edges that leave its community):"), "",
         paste0("| method | ", paste(sprintf("%s, %s, mixing %s", hl_cols$family, hl_cols$view,
                                            hl_cols$mixing), collapse = " | "), " |"),
         paste0("|", strrep(" --- |", nrow(hl_cols) + 1)))
for (lab in hl_labs[hl_labs %in% a$label])
    top <- c(top, paste0("| ", relabel(lab), " | ",
                         paste(vapply(seq_len(nrow(hl_cols)), function(j) hl_cell(lab, j), ""),
                               collapse = " | "), " |"))
top <- c(top, "",
         paste0("- Measured: commit ", commit, ", ", run_date, "; machine: ", machine,
                "; R ", r_version, ", igraph ", ig_version, "; ", nrow(res), " rows in ",
                "benchmarks/quality/results.csv; run time ", round(as.numeric(total) / 60, 1),
                " min (one run each, single-threaded, so the seconds below are noisy)."),
         paste0("- Reproduce: `make quality` (runs benchmarks/quality/run.R, then report.R; ",
                "`QUALITY_SCALE=quick` for a 1-minute subset); `Rscript benchmarks/quality/report.R` ",
                "alone re-renders this file and benchmarks/quality.png from results.csv."),
         paste0("- Labels: `lp, refine=TRUE (default)` is the package's default for edge ",
                "lists; `lp, refine=0` the same label propagation without merge passes."), "")
# everything generated above goes under "Details", one heading level down
out <- relabel(out)
out <- c(top, "## Details", "", sub("^(#{2,}) ", "#\\1 ", out))
writeLines(out, md)

# ---- plot ---------------------------------------------------------------------
panels <- unique(a[a$nodes <= 1e5, c("nodes", "family", "view")])
panels <- panels[order(panels$nodes, panels$family, -xtfrm(panels$view)), ]
labs <- c("ExoLabel default", "ExoLabel refine=TRUE", "ExoLabel attenuation=TRUE",
          "ExoLabel iterations=30",
          grep("consensus", unique(a$label), value = TRUE),
          "igraph label_prop", "igraph louvain", "igraph leiden")
labs <- labs[labs %in% a$label]
cols <- c("black", "darkorange3", "orange", "purple", "darkgreen", "red", "blue",
          "deepskyblue")[seq_along(labs)]
pchs <- c(19, 8, 17, 15, 18, 1, 2, 0)[seq_along(labs)]
ncol <- 4
nrow <- ceiling(nrow(panels) / ncol)
grDevices::png(png_file, width = 400 * ncol, height = 340 * nrow + 80, res = 100)
graphics::par(mfrow = c(nrow, ncol), mar = c(4, 4, 2.5, 1), oma = c(5, 0, 0, 0))
for (i in seq_len(nrow(panels))) {
    p <- panels[i, ]
    s <- a[a$nodes == p$nodes & a$family == p$family & a$view == p$view, ]
    graphics::plot(NA, xlim = c(0.1, 0.7), ylim = c(0, 1), xlab = "mixing mu", ylab = "NMI",
                   main = sprintf("%s, %s, n = %s", p$family, p$view,
                                  format(p$nodes, scientific = TRUE)))
    graphics::abline(h = c(0.95), col = "grey80", lty = 2)
    for (j in seq_along(labs)) {
        t <- s[s$label == labs[j], ]
        t <- t[order(t$mixing), ]
        if (nrow(t)) graphics::lines(t$mixing, t$x, type = "b", col = cols[j], pch = pchs[j])
    }
}
graphics::par(fig = c(0, 1, 0, 1), oma = c(0, 0, 0, 0), mar = c(0, 0, 0, 0), new = TRUE)
graphics::plot(0, 0, type = "n", bty = "n", xaxt = "n", yaxt = "n")
graphics::legend("bottom", legend = relabel(labs), col = cols, pch = pchs, lty = 1, horiz = FALSE,
                 ncol = 4, bty = "n", cex = 1.1)
grDevices::dev.off()
cat("wrote", md, "and", png_file, "\n")

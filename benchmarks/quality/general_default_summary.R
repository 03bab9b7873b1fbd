# Summary of benchmarks/quality/general_default.csv (issue 25, item 3):
# per case (graph and view) the median NMI over seeds of every method, the
# target max(igraph label_prop, igraph Leiden) - 0.01 (medians), and per
# candidate the cases it misses and its CPU time against the default's.
#   Rscript benchmarks/quality/general_default_summary.R general_default.csv
args <- commandArgs(TRUE)
d <- read.csv(args[1], stringsAsFactors = FALSE)
d$key <- paste(d$case, d$view)
med <- aggregate(cbind(nmi, k) ~ key + method, d, median)
nseed <- aggregate(seed ~ key + method, d, length)
med$seeds <- nseed$seed[match(paste(med$key, med$method), paste(nseed$key, nseed$method))]
keys <- unique(d$key)
# only cases with both igraph methods (a case still running is left out)
both <- vapply(keys, function(k) all(c("igraph label_prop", "igraph leiden (modularity)") %in%
                                      med$method[med$key == k]), logical(1))
if (any(!both)) cat("Left out (igraph rows missing):", paste(keys[!both], collapse = "; "), "\n\n")
keys <- keys[both]
med <- med[med$key %in% keys, ]
best <- sapply(keys, function(k) max(med$nmi[med$key == k & grepl("^igraph", med$method)]))
methods <- unique(med$method[grepl("^ExoLabel", med$method)])
cat("## Median NMI per case (seeds per case in the CSV)\n\n")
short <- function(m) sub("^ExoLabel ", "", m)
cat("| case | igraph LP | igraph Leiden | target |", paste(short(methods), collapse = " | "), "|\n")
cat("|", paste(rep("---", 4 + length(methods)), collapse = " | "), "|\n")
for (k in keys) {
    g <- function(m) { x <- med[med$key == k & med$method == m, ]
        if (!nrow(x)) return("")
        s <- sprintf("%.3f (%g)", x$nmi, x$k)
        if (grepl("^ExoLabel", m) && x$nmi < best[[k]] - 0.01) s <- paste0("**", s, "**")
        s }
    cat("|", k, "|", g("igraph label_prop"), "|", g("igraph leiden (modularity)"), "|",
        sprintf("%.3f", best[[k]] - 0.01), "|", paste(vapply(methods, g, ""), collapse = " | "), "|\n")
}
cat("\n(k = median number of clusters; bold = more than 0.01 below the better igraph method)\n\n")
cat("## Cases missed per candidate, and CPU time\n\n| candidate | cases | missed | worst gap to target + 0.01 | largest loss against the old default | CPU / old default's (median over 10^5 runs) |\n|---|---|---|---|---|---|\n")
old <- med[grepl("default \\(", med$method), ]
big <- d[grepl("n=1e\\+05|n=100000", d$case) & !is.na(d$cpu_s), ]
cpu <- if (nrow(big)) aggregate(cpu_s ~ key + method, big, median) else big
for (m in methods) {
    x <- med[med$method == m, ]
    gap <- x$nmi - best[x$key]
    miss <- x$key[gap < -0.01]
    r <- NA
    c1 <- cpu[cpu$method == m, ]; c0 <- cpu[grepl("default \\(", cpu$method), ]
    if (nrow(c1)) r <- median(c1$cpu_s / c0$cpu_s[match(c1$key, c0$key)], na.rm = TRUE)
    loss <- min(x$nmi - old$nmi[match(x$key, old$key)], na.rm = TRUE)
    cat(sprintf("| %s | %d | %d | %.3f | %.3f | %s |\n", short(m), nrow(x), length(miss), min(gap), loss,
                if (is.na(r)) "" else sprintf("%.2f", r)))
}

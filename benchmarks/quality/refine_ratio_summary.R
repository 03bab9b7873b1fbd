# Summary of refine_ratio.R's rows against igraph's (issue 25, item 3):
#   Rscript refine_ratio_summary.R benchmarks/quality/general_default.csv ROWS.csv...
# Median NMI per case and threshold, the target (the better median of
# igraph's label propagation and Leiden in general_default.csv), and per
# threshold the cases missed by more than 0.01, the worst gap to the
# target and the largest loss against the threshold 0.3.
args <- commandArgs(TRUE)[-1]
g <- read.csv(commandArgs(TRUE)[1])
ig <- aggregate(nmi ~ case + view + method, g[g$method %in% c("igraph label_prop", "igraph leiden (modularity)"), ], median)
tgt <- aggregate(nmi ~ case + view, ig, max); names(tgt)[3] <- "best"
d <- do.call(rbind, lapply(args, read.csv)); d <- d[!grepl("refine=50", d$method), ]
d$method <- sub("refine=5 ratio=", "r", d$method)
a <- aggregate(nmi ~ case + view + method, d, median)
w <- reshape(a, idvar = c("case","view"), timevar = "method", direction = "wide"); names(w) <- sub("nmi.", "", names(w))
w <- merge(tgt, w); num <- sapply(w, is.numeric); w[num] <- round(w[num], 3)
w$case <- sub("planted ", "", w$case)
print(w, row.names = FALSE)
m <- setdiff(names(w), c("case","view","best"))
for (x in m) { ok <- !is.na(w[[x]]); cat(sprintf("%-10s cases %d missed %d worst %.3f; vs r0.3 min %.3f\n", x, sum(ok), sum(w[[x]][ok] < w$best[ok] - 0.01), min(w[[x]][ok] - w$best[ok] + 0.01), min(w[[x]][ok] - w[["r0.3"]][ok]))) }

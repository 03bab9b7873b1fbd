# Rscript benchmarks/quality/resolution_summary.R a.csv [b.csv ...]: mean NMI
# per graph and method from resolution_grid.R's CSV files, whether each
# method reaches max(igraph LP, igraph Leiden) - 0.01 ("MISS" when not), and
# the largest cluster over the largest planted community.
a <- commandArgs(TRUE)
r <- do.call(rbind, lapply(a, read.csv))
r$method[r$method == "igraph LP"] <- "igLP"; r$method[r$method == "igraph leiden"] <- "igLei"
ag <- aggregate(cbind(nmi, giant) ~ nodes + fam + view + mu + method, r, mean)
w <- reshape(ag[, c("nodes","fam","view","mu","method","nmi")], idvar = c("nodes","fam","view","mu"), timevar = "method", direction = "wide")
names(w) <- sub("nmi.", "", names(w), fixed = TRUE)
g <- reshape(ag[, c("nodes","fam","view","mu","method","giant")], idvar = c("nodes","fam","view","mu"), timevar = "method", direction = "wide")
w <- w[order(w$nodes, w$fam, w$view, w$mu), ]
meth <- setdiff(names(w), c("nodes","fam","view","mu","igLP","igLei"))
if (!is.null(w$igLP)) { tgt <- pmax(w$igLP, w$igLei) - 0.01; for (m in meth) w[[paste0("ok:", m)]] <- ifelse(w[[m]] >= tgt, "", "MISS") }
options(width = 250); print(format(w, digits = 3), row.names = FALSE)
cat("\nmax giant / largest planted community:\n")
g <- g[order(g$nodes, g$fam, g$view, g$mu), ]; print(format(g, digits = 3), row.names = FALSE)

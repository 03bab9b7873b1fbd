# Rscript bridges_summary.R OUT.md GRID.csv [GRID2.csv ...]
# Issue 54's tables from grid.R's rows: per set (set/search), every
# candidate's median over seeds of family and superfamily ARI and pair
# precision / recall; the best peer per set and level is the best of ALL
# peer_* rows (MCL at every inflation, igraph Leiden modularity on both
# weights, igraph CPM at every resolution of the sweep on both weights, so
# "CPM at its best resolution" is an oracle choice per set, components,
# OrthoFinder-like MCL); margin = candidate - best peer. Then one line per
# candidate: its worst margin over the sets at each level (superfamily: sets
# that have one; balifam and the simulated sets repeat or lack it).
suppressPackageStartupMessages(library(data.table))
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
g <- rbindlist(lapply(args[-1], fread), fill = TRUE)
g[, key := paste(set, search, sep = "/")]
# balifam's superfamily is its family again, simulated sets have none
g[set == "balifam" | grepl("^n[0-9]", set), `:=`(superfamily_ari = NA, superfamily_prec = NA,
                                                  superfamily_rec = NA)]
m <- g[, .(fam = median(family_ari), fam_p = median(family_prec), fam_r = median(family_rec),
           sf = median(superfamily_ari), sf_p = median(superfamily_prec),
           sf_r = median(superfamily_rec), seeds = .N, fam_min = min(family_ari),
           seconds = median(seconds)), by = .(key, candidate, kind)]
best <- m[kind == "peer", .(best_fam = max(fam), best_fam_by = candidate[which.max(fam)],
                            best_sf = if (all(is.na(sf))) NA_real_ else max(sf, na.rm = TRUE),
                            best_sf_by = if (all(is.na(sf))) NA_character_ else candidate[which.max(sf)]),
          by = key]
m <- merge(m, best, by = "key")
m[, `:=`(d_fam = fam - best_fam, d_sf = sf - best_sf)]
f3 <- function(x) ifelse(is.na(x), "", formatC(x, digits = 3, format = "f"))
sg <- function(x) ifelse(is.na(x), "", sprintf("%+.3f", x))
md <- function(df) c(paste0("| ", paste(names(df), collapse = " | "), " |"),
                     paste0("|", paste(rep("---", ncol(df)), collapse = "|"), "|"),
                     apply(df, 1, function(r) paste0("| ", paste(r, collapse = " | "), " |")))
L <- c("Medians over seeds (ExoLabel and r_* rows: seeds 1..3; peers: seed 1). Best peer: the",
       "best of every peer_* row of the set (CPM: the best resolution of the sweep).", "")
worst <- m[, .(worst_fam = min(d_fam), worst_sf = suppressWarnings(min(d_sf, na.rm = TRUE)),
               sets = .N, met = sum(d_fam >= -0.005 & (is.na(d_sf) | d_sf >= -0.005))), by = candidate]
worst[!is.finite(worst_sf), worst_sf := NA]
keys <- sort(unique(m$key))
wide <- dcast(m, candidate ~ key, value.var = "fam")
wide <- merge(wide, worst, by = "candidate")
setorder(wide, -worst_fam)
tab <- data.frame(candidate = wide$candidate, check.names = FALSE)
for (k in keys) tab[[k]] <- f3(wide[[k]])
tab[["worst fam margin"]] <- sg(wide$worst_fam); tab[["worst sf margin"]] <- sg(wide$worst_sf)
tab[["sets within 0.005"]] <- paste0(wide$met, "/", wide$sets)
L <- c(L, "### Family ARI per set, and the worst margins to the best peer", "", md(tab), "",
       "### Best peer per set", "",
       md(data.frame(set = best$key, family = paste(f3(best$best_fam), best$best_fam_by),
                     superfamily = paste(f3(best$best_sf), best$best_sf_by), check.names = FALSE)), "")
for (k in keys) {
    x <- m[key == k][order(-fam)]
    L <- c(L, paste0("### ", k), "",
           md(data.frame(method = x$candidate, `fam ARI` = f3(x$fam), `fam prec` = f3(x$fam_p),
                         `fam rec` = f3(x$fam_r), `sf ARI` = f3(x$sf), `sf prec` = f3(x$sf_p),
                         `sf rec` = f3(x$sf_r), `fam margin` = sg(x$d_fam), `sf margin` = sg(x$d_sf),
                         seeds = x$seeds, `s` = f3(x$seconds), check.names = FALSE)), "")
}
writeLines(L, out)

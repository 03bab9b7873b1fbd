# Rscript grid_summary.R GRID.csv [OUT.md]
# Summary of grid.R's rows (benchmarks/ssn/grid.csv): per candidate and set
# (set + search), the median family and superfamily ARI over seeds; the
# best peer per set, i.e. the best of MCL (I = 1.4, 2, 4) and igraph
# Leiden (modularity; CPM at resolution 1), separately at each level; and
# each candidate's margin to it (ARI - best peer: the target of issue 25 is
# a margin >= 0 on every set at both levels). Sorted by the worst margin.
suppressPackageStartupMessages(library(data.table))
args <- commandArgs(trailingOnly = TRUE)
g <- fread(args[1])
g[, key := paste(set, search, sep = "/")]
m <- g[, .(fam = median(family_ari), sf = median(superfamily_ari), seeds = .N,
           fam_min = min(family_ari), seconds = median(seconds)), by = .(key, candidate, kind)]
peers <- m[candidate %in% c("peer_mcl_1.4", "peer_mcl_2", "peer_mcl_4", "peer_igraph_leiden",
                            "peer_igraph_cpm_res1")]
best <- peers[, .(best_fam = max(fam), best_fam_by = candidate[which.max(fam)],
                  best_sf = if (all(is.na(sf))) NA_real_ else max(sf, na.rm = TRUE),
                  best_sf_by = if (all(is.na(sf))) NA_character_ else candidate[which.max(sf)],
                  mcl_fam = if (any(grepl("mcl", candidate))) max(fam[grepl("mcl", candidate)]) else NA_real_),
              by = key]
m <- merge(m, best, by = "key")
m[, `:=`(d_fam = fam - best_fam, d_sf = sf - best_sf)]
keys <- sort(unique(m$key))
f3 <- function(x) ifelse(is.na(x), "", formatC(x, digits = 3, format = "f"))
sg <- function(x) ifelse(is.na(x), "", sprintf("%+.3f", x))
wide <- dcast(m, candidate + kind ~ key, value.var = "fam")
worst <- m[, .(worst_fam = min(d_fam), worst_sf = suppressWarnings(min(d_sf, na.rm = TRUE)),
               sets_won = sum(d_fam >= 0 & (is.na(d_sf) | d_sf >= 0)), sets = .N,
               worst_vs_mcl = suppressWarnings(min(fam - mcl_fam, na.rm = TRUE))), by = candidate]
worst[!is.finite(worst_vs_mcl), worst_vs_mcl := NA]
worst[!is.finite(worst_sf), worst_sf := NA]
wide <- merge(wide, worst, by = "candidate")
setorder(wide, -worst_fam)
md <- function(df) c(paste0("| ", paste(names(df), collapse = " | "), " |"),
                     paste0("|", paste(rep("---", ncol(df)), collapse = "|"), "|"),
                     apply(df, 1, function(r) paste0("| ", paste(r, collapse = " | "), " |")))
out <- c("Family ARI (median over seeds 1..5 for ExoLabel rows; peers: seed 1) per set/search;",
         "worst fam / worst sf: the smallest margin to the best peer (MCL any inflation, igraph",
         "Leiden modularity or CPM 1) over the sets, at family and superfamily level (superfamily:",
         "real sets only); won: sets where the margin is >= 0 at both levels; vs MCL: the smallest",
         "margin to MCL's best inflation alone (sets with an MCL row). n10000x10: ten disjoint
renamed copies of the n10000 set and its search (one seed, no MCL: MCL's clusters are those
of n10000 copied).", "")
tab <- data.frame(candidate = wide$candidate, check.names = FALSE)
for (k in keys) tab[[k]] <- f3(wide[[k]])
tab[["worst fam"]] <- sg(wide$worst_fam); tab[["worst sf"]] <- sg(wide$worst_sf)
tab[["won"]] <- paste0(wide$sets_won, "/", wide$sets); tab[["vs MCL"]] <- sg(wide$worst_vs_mcl)
out <- c(out, md(tab), "", "Superfamily ARI (real sets):", "")
sfw <- dcast(m[!is.na(sf)], candidate ~ key, value.var = "sf")
sfw <- sfw[match(wide$candidate, sfw$candidate)][!is.na(candidate)]
tab2 <- data.frame(candidate = sfw$candidate, check.names = FALSE)
for (k in setdiff(names(sfw), "candidate")) tab2[[k]] <- f3(sfw[[k]])
out <- c(out, md(tab2), "", "Best peer per set:", "",
         md(data.frame(set = best$key, `family` = paste(f3(best$best_fam), best$best_fam_by),
                       `superfamily` = paste(f3(best$best_sf), best$best_sf_by), check.names = FALSE)), "")
if (length(args) >= 2) writeLines(out, args[2]) else writeLines(out)

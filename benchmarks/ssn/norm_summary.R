# Rscript norm_summary.R ROWS.csv [CANDIDATES]: the table of the section
# "Weight normalisation and the protein default (issue 25, exploration)" of
# benchmarks/SSN.md. ROWS.csv: rows of norm_grid.R / norm_exo.R (medians
# over their seeds). Targets per set: the best of MCL (I = 1.4, 2, 4) and
# igraph Leiden (modularity, CPM 1), from real.csv (real sets) and grid.csv
# (simulated sets) beside this script. Prints, per candidate, family and
# superfamily ARI on each set and three margins: the smallest
# candidate - target over the sets and levels (min), over family level
# only (fam) and the smallest candidate - MCL's best (mcl).
suppressPackageStartupMessages(library(data.table))
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
args <- commandArgs(trailingOnly = TRUE)
rows <- fread(args[1])
only <- if (length(args) >= 2) strsplit(args[2], ",")[[1]] else NULL
sets <- c("scop40/diamond", "scop40/diamond_ms", "scop40/mmseqs_s7.5", "swissprot_ec/diamond",
          "swissprot_ec/diamond_ms", "swissprot_ec/mmseqs_s7.5", "n10000/diamond", "n10000/mmseqs",
          "n20000/diamond", "n100000/diamond")
short <- c("S40 dmd", "S40 ms", "S40 mm", "SP dmd", "SP ms", "SP mm", "sim10k dmd", "sim10k mm", "sim20k dmd", "sim100k dmd")

real <- fread(file.path(here, "real.csv"))
real[, key := paste(set, search, sep = "/")]
real[, peer := fifelse(grepl("^mcl_", method), "mcl", fifelse(method %in% c("igraph_leiden", "igraph_cpm"), "ig", NA_character_))]
grid <- fread(file.path(here, "grid.csv"))
grid <- grid[!set %in% c("scop40")]
grid[, key := paste(set, search, sep = "/")]
grid[, peer := fifelse(grepl("^peer_mcl_", candidate), "mcl",
                fifelse(candidate %in% c("peer_igraph_leiden", "peer_igraph_cpm_res1"), "ig", NA_character_))]
pk <- rbind(real[!is.na(peer), .(key, peer, family_ari, superfamily_ari)],
            grid[!is.na(peer), .(key, peer, family_ari, superfamily_ari)])
mx <- function(x) if (all(is.na(x))) NA_real_ else max(x, na.rm = TRUE)
tg <- pk[, .(mcl_f = mx(family_ari[peer == "mcl"]), mcl_s = mx(superfamily_ari[peer == "mcl"]),
             best_f = mx(family_ari), best_s = mx(superfamily_ari)), by = key]

rows[, key := paste(set, search, sep = "/")]
med <- rows[, .(f = median(family_ari), s = median(superfamily_ari), n = .N), by = .(candidate, key)]
if (!is.null(only)) med <- med[candidate %in% only]
med <- merge(med, tg, by = "key")
cands <- unique(med$candidate)
out <- rbindlist(lapply(cands, function(cn) {
    m <- med[candidate == cn]
    m <- m[match(sets, key)]
    cells <- ifelse(is.na(m$f), "", ifelse(is.na(m$s), sprintf("%.3f", m$f), sprintf("%.3f / %.3f", m$f, m$s)))
    df <- m$f - m$best_f; ds <- m$s - m$best_s; dm <- c(m$f - m$mcl_f, m$s - m$mcl_s)
    data.table(candidate = cn, t(setNames(cells, short)),
               seeds = max(m$n, na.rm = TRUE), sets = sum(!is.na(m$f)),
               min = min(c(df, ds), na.rm = TRUE), fam = min(df, na.rm = TRUE), mcl = min(dm, na.rm = TRUE))
}))
setorder(out, -sets, -min)
tgt <- tg[match(sets, key)]
trow <- data.table(candidate = "**target** (best of MCL, igraph Leiden)",
                   t(setNames(ifelse(is.na(tgt$best_s), sprintf("%.3f", tgt$best_f),
                                     sprintf("%.3f / %.3f", tgt$best_f, tgt$best_s)), short)),
                   seeds = "", sets = "", min = NA, fam = NA, mcl = NA)
mrow <- data.table(candidate = "MCL's best",
                   t(setNames(ifelse(is.na(tgt$mcl_s), sprintf("%.3f", tgt$mcl_f),
                                     sprintf("%.3f / %.3f", tgt$mcl_f, tgt$mcl_s)), short)),
                   seeds = "", sets = "", min = NA, fam = NA, mcl = NA)
out <- rbind(trow, mrow, out)
fmt <- function(x) ifelse(is.na(x), "", sprintf("%+.4f", x))
out[, `:=`(min = fmt(min), fam = fmt(fam), mcl = fmt(mcl))]
cat("| candidate | ", paste(short, collapse = " | "), " | seeds | sets | min margin | family margin | vs MCL |\n", sep = "")
cat("|", paste(rep("---", length(short) + 6), collapse = "|"), "|\n", sep = "")
for (i in seq_len(nrow(out))) cat("| ", paste(unlist(out[i]), collapse = " | "), " |\n", sep = "")

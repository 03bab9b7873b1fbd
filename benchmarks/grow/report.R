# Rscript benchmarks/grow/report.R DIR: benchmarks/GROW.md from the results
# of benchmarks/grow/run.sh in DIR (updates.csv, nested.csv, machine.txt).
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "benchmarks/grow"
u <- read.csv(file.path(dir, "updates.csv"))
nz <- read.csv(file.path(dir, "nested.csv"), colClasses = c(resolution = "character"))
m <- readLines(file.path(dir, "machine.txt"))
val <- function(k) sub(paste0("^", k, ": "), "", grep(paste0("^", k, ":"), m, value = TRUE))
f3 <- function(x) formatC(x, format = "f", digits = 3)
f2 <- function(x) formatC(x, format = "f", digits = 2)
pct <- function(x) paste0(formatC(100 * x, format = "f", digits = 1), "%")
setname <- c(scop40 = "SCOP40 (11,206 domains, real)", swissprot_ec = "Swiss-Prot enzymes (real)",
             `10000x10` = "10^5 simulated proteins", bench20m = "planted graph, 2 x 10^7 edges")
meth <- function(s, x) ifelse(x == "leiden", "Leiden", ifelse(s == "bench20m", "label propagation",
                                                              "format = \"blast\" (Leiden CPM)"))
out <- c(
  "# Growing a clustering: updates, stable ids, nested levels",
  "",
  sprintf("Machine: %s. Commit `%s`, %s.", val("cpu"), val("commit"), val("date")),
  "Command: `make grow-bench` (`benchmarks/grow/run.sh`, then",
  "`Rscript benchmarks/grow/report.R`); the method is in the script's header.",
  "",
  "Updates: a seeded share of the proteins (nodes) is new; their hits go to a",
  "new file. *full* clusters all hits from scratch; *update* extends the graph",
  "kept from the old hits (`--graph`) with the new file and starts from the old",
  "clusters (`--initial`). Wall times are medians of 3 runs of the command-line",
  "tool on 2 threads; ARI against the truth; *ids kept*: of the old proteins",
  "whose cluster kept the same old members, the share whose id is unchanged.",
  "",
  "| set | method | new | full s | update s | update / full | ARI full | ARI update | ids kept | RSS full / update MB | temp disk update MB | kept graph MB |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|")
for (i in seq_len(nrow(u))) {
  r <- u[i, ]
  out <- c(out, sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s |",
                        setname[[r$set]], meth(r$set, r$method), pct(r$new_share),
                        f2(r$full_s), f2(r$update_s), f2(r$ratio), f3(r$ari_full),
                        f3(r$ari_updated), pct(r$same_id_share), round(r$full_rss_mb),
                        round(r$update_rss_mb), round(r$update_disk_mb), r$kept_graph_mb))
}
out <- c(out, "",
  "Nested levels (`--nested`, Leiden CPM on `--format blast` weights) against",
  "independent runs at the same resolutions, one graph build each; family and",
  "superfamily ARI against the SCOP / EC classification; *nests*: every cluster",
  "of the finer level above the row lies inside one cluster of this level.",
  "",
  "| set | resolution | clusters nested / independent | family ARI nested / independent | superfamily ARI nested / independent | nests |",
  "|---|---|---|---|---|---|")
for (s in unique(nz$set)) for (l in unique(nz$level[nz$set == s])) {
  a <- nz[nz$set == s & nz$level == l & nz$run == "nested", ]
  b <- nz[nz$set == s & nz$level == l & nz$run == "indep", ]
  out <- c(out, sprintf("| %s | %s | %d / %d | %.4f / %.4f | %.4f / %.4f | %s |", setname[[s]],
                        a$resolution, a$clusters, b$clusters, a$family_ari, b$family_ari,
                        a$superfamily_ari, b$superfamily_ari,
                        if (is.na(a$nested_ok)) "finest" else a$nested_ok))
}
writeLines(out, file.path("benchmarks", "GROW.md"))

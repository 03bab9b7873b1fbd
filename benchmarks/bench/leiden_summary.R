# Medians and ratios of a benchmarks/bench/leiden_run.sh raw file, as
# markdown on standard output (pasted into benchmarks/quality/LEIDEN.md and
# benchmarks/RESULTS.md).
#   Rscript leiden_summary.R RAW.tsv
raw <- read.delim(commandArgs(TRUE)[1], header = FALSE, stringsAsFactors = FALSE,
                  col.names = c("size", "rep", "metric", "value"))
med <- function(s, m) {
    v <- suppressWarnings(as.numeric(raw$value[raw$size == s & raw$metric == m]))
    v <- v[!is.na(v)]
    if (!length(v)) NA_real_ else stats::median(v)
}
vals <- function(s, m) {
    v <- raw$value[raw$size == s & raw$metric == m]
    if (!length(v)) "n/a" else paste(v, collapse = ", ")
}
n <- function(s, m) sum(raw$size == s & raw$metric == m)
f <- function(x, d = 1) ifelse(is.na(x), "n/a", formatC(x, format = "f", digits = d))
sh <- function(cmd) paste(tryCatch(system(cmd, intern = TRUE), error = function(e) "?"),
                          collapse = " ")
row <- function(...) cat("| ", paste(c(...), collapse = " | "), " |\n", sep = "")

cat(sprintf("Commit `%s`, %s, %s cores, raw file `%s`.\n\n", sh("git rev-parse --short HEAD"),
            format(Sys.time(), "%Y-%m-%d %H:%M %Z"), sh("nproc"), basename(commandArgs(TRUE)[1])))
cat("20M-edge graph (`exogen --nodes 1e6 --edges 2e7 --min-comm 100 --max-comm 5000 --seed 1`),",
    "medians of", n("20m", "lp_wall"), "repetitions (ExoLabel) and",
    n("20m", "igraph_leiden_total"), "(igraph path); load average (1 min) before the runs:",
    vals("20m", "lp_load1_before"), "(LP),", vals("20m", "leiden_load1_before"), "(Leiden),",
    vals("20m", "igraph_load1_before"), "(igraph).\n\n")
row("run", "wall (s)", "CPU (s)", "cluster stage (s)", "peak RSS above R (MiB)", "clusters",
    "modularity")
row(rep("---", 7))
for (p in c("lp", "leiden"))
    row(if (p == "lp") "ExoLabel label propagation defaults" else "ExoLabel Leiden (modularity)",
        f(med("20m", paste0(p, "_wall"))), f(med("20m", paste0(p, "_cpu"))),
        f(med("20m", paste0(p, "_seconds_cluster"))),
        f(med("20m", paste0(p, "_rss_above_base")) / 2^20, 0),
        f(med("20m", paste0(p, "_clusters")), 0), f(med("20m", paste0(p, "_quality")), 4))
row("fread + igraph cluster_leiden", f(med("20m", "igraph_leiden_total")), "n/a",
    f(med("20m", "igraph_leiden_cluster")), f(med("20m", "igraph_leiden_rss_above_base") / 2^20, 0),
    f(med("20m", "igraph_leiden_clusters"), 0), f(med("20m", "igraph_leiden_quality"), 4))
cat("\n")
cat(sprintf("- Leiden / label propagation: %s x wall, %s x CPU (target <= 3).\n",
            f(med("20m", "leiden_wall") / med("20m", "lp_wall"), 2),
            f(med("20m", "leiden_cpu") / med("20m", "lp_cpu"), 2)))
cat(sprintf("- fread + igraph Leiden / ExoLabel Leiden (wall): %s x (target >= 10); igraph steps: fread %s s, graph %s s, cluster_leiden %s s.\n",
            f(med("20m", "igraph_leiden_total") / med("20m", "leiden_wall"), 2),
            f(med("20m", "igraph_leiden_fread")), f(med("20m", "igraph_leiden_graph")),
            f(med("20m", "igraph_leiden_cluster"))))
if (n("100m", "uncapped_wall")) {
    cat(sprintf("- 100M-edge graph (`exogen --nodes 5e6 --edges 1e8`), Leiden, %d run(s) each: uncapped %s s wall (process %s s), under the %s cgroup cap %s s wall (process %s s): %s x (target <= 2); cap's peak usage %s MiB, failcnt %s, exit status %s; load before: %s (uncapped), %s (capped).\n",
                n("100m", "uncapped_wall"), f(med("100m", "uncapped_wall")),
                f(med("100m", "uncapped_process_wall")), vals("100m", "capped_cgroup_cap"),
                f(med("100m", "capped_wall")), f(med("100m", "capped_process_wall")),
                f(med("100m", "capped_process_wall") / med("100m", "uncapped_process_wall"), 2),
                f(med("100m", "capped_cgroup_max_usage") / 2^20, 0),
                vals("100m", "capped_cgroup_failcnt"), vals("100m", "capped_exit_status"),
                vals("100m", "uncapped_load1_before"), vals("100m", "capped_load1_before")))
}
cat(sprintf("- Load average at the end: %s.\n", vals("all", "load1_end")))

# Medians and ratios of a benchmarks/bench/run.sh raw file, written into the
# results file between the "bench:begin" and "bench:end" markers.
#   Rscript summarize.R RAW.tsv RESULTS.md
args <- commandArgs(TRUE)
raw <- read.delim(args[1], header = FALSE, col.names = c("size", "rep", "metric", "value"),
                  stringsAsFactors = FALSE)
sizes <- unique(raw$size)
med <- function(s, m) {
    v <- raw$value[raw$size == s & raw$metric == m]
    if (!length(v)) NA_real_ else stats::median(as.numeric(v))
}
nrep <- function(s) length(unique(raw$rep[raw$size == s]))
f <- function(x, d = 1) ifelse(is.na(x), "n/a", formatC(x, format = "f", digits = d, big.mark = ","))
mb <- function(x) f(x / 2^20, 0) # MiB
sh <- function(cmd) paste(tryCatch(system(cmd, intern = TRUE), error = function(e) "?"), collapse = " ")

commit <- sh("git rev-parse --short HEAD")
dirty <- nzchar(sh("git status --porcelain -- src R | head -1"))
machine <- c(
    sprintf("- Commit: `%s`%s; run finished %s.", commit,
            if (dirty) " (working tree had uncommitted changes in src/ or R/)" else "",
            format(Sys.time(), "%Y-%m-%d %H:%M %Z")),
    sprintf("- Machine: %s cores (%s), %s GiB RAM, disk: %s; %s.",
            sh("nproc"), sh("lscpu | sed -n 's/^Model name: *//p'"),
            sh("free -g | awk '/Mem:/ {print $2}'"),
            sh("df -h /tmp | awk 'NR==2 {print $1\", \"$2\" total, \"$4\" free\"}'"),
            sh("uname -sr")),
    sprintf("- Load average at the end: %s (shared machine: other engineers' builds, tests and fuzzers ran at the same time, so absolute times are noisy; ratios come from the same repetitions).",
            sh("cut -d' ' -f1-3 /proc/loadavg")),
    sprintf("- Medians of %s repetitions per size; `memory_limit` = package default (256MB), threads = all cores.",
            paste(vapply(sizes, nrep, 1L), collapse = "/")),
    "- Reproduce: `make bench` (`SIZE=large` adds 100m; `REPS=`, `BENCH_DIR=`, `IGRAPH_MAX=`: benchmarks/bench/run.sh).")

row <- function(...) paste0("| ", paste(c(...), collapse = " | "), " |")
t1 <- c(row("size", "nodes", "stored arcs", "parse + runs (s)", "merge -> CSR (s)",
            "label prop. (s)", "output (s)", "total wall (s)", "edges/s",
            "peak RSS above R baseline (MiB)", "peak temp disk, du (MiB)",
            "disk target 12 B/arc + names (MiB)", "runs / merge passes / fan-in"),
        row(rep("---", 13)))
t2 <- c(row("size", "input (MiB)", "cat cold (s)", "cat cached (s)", "fread (s)",
            "GNU sort (s)", "sort wrote (MiB)", "dd same bytes (s)",
            "igraph: fread + graph + LP (s)", "igraph total (s)", "igraph peak RSS (MiB)"),
        row(rep("---", 11)))
t3 <- c(row("size", "ExoLabel / cat cold", "ExoLabel / cat cached", "ExoLabel / fread",
            "GNU sort / ExoLabel (target >= 4)", "dd / ExoLabel",
            "igraph / ExoLabel (target >= 20)", "igraph RSS / ExoLabel RSS"),
        row(rep("---", 8)))
t4 <- c(row("size", "threads", "parse + runs (s)", "merge -> CSR (s)", "label prop. (s)",
            "output (s)", "total wall (s)", "CPU (s)"),
        row(rep("---", 8)))
for (s in sizes) {
    m <- function(k) med(s, k)
    if (!is.na(m("t1_wall"))) {
        for (p in c("t1_", "")) {
            t4 <- c(t4, row(s, if (nzchar(p)) "1" else "all",
                            f(m(paste0(p, "seconds_parse")), 2), f(m(paste0(p, "seconds_csr")), 2),
                            f(m(paste0(p, "seconds_cluster")), 2), f(m(paste0(p, "seconds_output")), 3),
                            f(m(paste0(p, "wall")), 2), f(m(paste0(p, "cpu")), 2)))
        }
        # ratios per repetition (same repetition, then the median)
        rr <- function(k) {
            a <- raw[raw$size == s & raw$metric == paste0("t1_", k), c("rep", "value")]
            b <- raw[raw$size == s & raw$metric == k, c("rep", "value")]
            x <- merge(a, b, by = "rep")
            if (!nrow(x)) NA_real_ else stats::median(as.numeric(x$value.x) / as.numeric(x$value.y))
        }
        t4 <- c(t4, row(s, "1 / all (median of per-repetition ratios)",
                        f(rr("seconds_parse"), 2), f(rr("seconds_csr"), 2),
                        f(rr("seconds_cluster"), 2), f(rr("seconds_output"), 2),
                        f(rr("wall"), 2), f(rr("cpu"), 2)))
    }
    wall <- m("wall")
    t1 <- c(t1, row(s, f(m("nodes"), 0), f(m("arcs"), 0), f(m("seconds_parse"), 2),
                    f(m("seconds_csr"), 2), f(m("seconds_cluster"), 2), f(m("seconds_output"), 2),
                    f(wall, 2), f(m("edges") / wall, 0), mb(m("rss_above_base")),
                    mb(m("peak_disk")), mb(12 * m("arcs") + m("names_bytes")),
                    paste(f(m("sort_runs"), 0), f(m("merge_passes"), 0), f(m("fan_in"), 0),
                          sep = " / ")))
    ig <- paste(f(m("igraph_fread")), f(m("igraph_graph")), f(m("igraph_lp")), sep = " + ")
    t2 <- c(t2, row(s, mb(m("input_bytes")), f(m("read_cold"), 2), f(m("read_cached"), 2),
                    f(m("fread"), 2), f(m("sort"), 2), mb(m("sort_wchar")), f(m("dd_write"), 2),
                    ig, f(m("igraph_total"), 2), mb(m("igraph_rss_above_base"))))
    t3 <- c(t3, row(s, f(wall / m("read_cold"), 2), f(wall / m("read_cached"), 2),
                    f(wall / m("fread"), 2), f(m("sort") / wall, 2), f(m("dd_write") / wall, 2),
                    f(m("igraph_total") / wall, 2),
                    f(m("igraph_rss_above_base") / m("rss_above_base"), 1)))
}
block <- c("<!-- bench:begin (generated by benchmarks/bench/summarize.R; do not edit by hand) -->",
           "", machine, "",
           "ExoLabel end to end, called from R (`ExoLabel(file, outfile = ...)`):", "", t1, "",
           "Baselines measured in the same repetitions:", "", t2, "",
           "Ratios (medians of each; > 1 in the sort and igraph columns means ExoLabel is faster):",
           "", t3, "",
           "Stages with threads = 1 and with all cores, from the same repetitions (the 1-thread call right after the other):",
           "", t4, "", "<!-- bench:end -->")
# the rows of the report's opening table ("Current figures"): one per size,
# with the commit, machine and command, between the bench-headline markers
hl <- c("<!-- bench-headline:begin (generated by benchmarks/bench/summarize.R) -->",
        row("size", "total wall (s)", "GNU sort / ExoLabel", "igraph / ExoLabel (target >= 20)",
            "peak RSS above R (MiB; target 300 MB)", "peak temp disk, du (MiB) / allowed",
            "commit, machine, date", "command"),
        row(rep("---", 8)))
for (s in sizes) {
    m <- function(k) med(s, k)
    hl <- c(hl, row(s, f(m("wall"), 2), f(m("sort") / m("wall"), 2),
                    f(m("igraph_total") / m("wall"), 2), mb(m("rss_above_base")),
                    paste(mb(m("peak_disk")), "/", mb(12 * m("arcs") + m("names_bytes"))),
                    sprintf("`%s`%s, %s cores (%s), %s", commit, if (dirty) " (uncommitted changes)" else "",
                            sh("nproc"), sh("lscpu | sed -n 's/^Model name: *//p'"),
                            format(Sys.time(), "%Y-%m-%d")),
                    "`make bench`"))
}
hl <- c(hl, "<!-- bench-headline:end -->")
out <- args[2]
lines <- if (file.exists(out)) readLines(out) else c("# Benchmark results", "")
# replace the part between "<!-- TAG:begin" and "<!-- TAG:end" (append it when absent)
put <- function(lines, tag, blk) {
    b <- grep(paste0("^<!-- ", tag, ":begin"), lines); e <- grep(paste0("^<!-- ", tag, ":end"), lines)
    if (length(b) && length(e)) c(lines[seq_len(b - 1)], blk, lines[-seq_len(e)]) else c(lines, "", blk)
}
lines <- put(lines, "bench", block)
if (length(grep("^<!-- bench-headline:begin", lines))) lines <- put(lines, "bench-headline", hl)
writeLines(lines, out)
cat(block, sep = "\n")

# Table of EstimateExoLabel(file, ...) against the measured peaks written by
# run.sh. Nodes: estimated from the file against the truth file's count.
# Measured RAM: the tool's peak resident set (getrusage); measured disk: the
# core's peak_temp_disk (sort runs + CSR) or, for Leiden when more, the CSR
# (8 bytes per offset and per arc) plus Leiden's own files at their largest
# (leiden_temp_disk), plus the names file; and the largest size of the
# temporary directory seen while the run lasted (du every 20 ms: it sees
# the space hole punching has released).
suppressPackageStartupMessages(library(ExoLabel))
work <- commandArgs(TRUE)[1]
rows <- list()
ratio <- function(e, m) sprintf("%.2f", e / m)
mib <- function(x) sprintf("%.1f", x / 2^20)
for (f in list.files(work, pattern = "^st_.*\\.txt$", full.names = TRUE)) {
    p <- strsplit(sub("\\.txt$", "", basename(f)), "_")[[1]]
    tag <- p[2]; algo <- p[3]; mem <- p[4]
    truth <- read.delim(file.path(work, paste0("t_", tag, ".tsv")), header = FALSE,
                        colClasses = "character")[[1]]
    names_bytes <- sum(nchar(truth, type = "bytes") + 1)
    kv <- read.delim(f, header = FALSE, col.names = c("k", "v"))
    kv <- kv[kv$k %in% c("nodes", "arcs", "peak_temp_disk", "peak_rss", "du_peak",
                         "leiden_temp_disk"), ]
    v <- setNames(as.numeric(kv$v), kv$k)
    t0 <- proc.time()[["elapsed"]]
    est <- EstimateExoLabel(file.path(work, paste0("g_", tag, ".tsv")), memory_limit = mem,
                            threads = 2, algorithm = algo)
    secs <- proc.time()[["elapsed"]] - t0
    d <- attr(est, "details")
    disk <- v[["peak_temp_disk"]]
    if (algo == "leiden")
        disk <- max(disk, 8 * (v[["nodes"]] + 1 + v[["arcs"]]) + v[["leiden_temp_disk"]])
    disk <- disk + names_bytes
    rows[[f]] <- data.frame(
        graph = tag, algorithm = algo, memory_limit = mem,
        nodes = format(v[["nodes"]], big.mark = ",", scientific = FALSE),
        nodes_est = format(round(d$input[["num_vertices"]]), big.mark = ",", scientific = FALSE),
        nodes_ratio = ratio(d$input[["num_vertices"]], v[["nodes"]]),
        RAM_est_MiB = mib(d$peak_ram), RAM_meas_MiB = mib(v[["peak_rss"]]),
        RAM_ratio = ratio(d$peak_ram, v[["peak_rss"]]),
        disk_est_MiB = mib(d$peak_temp_disk), disk_meas_MiB = mib(disk),
        disk_ratio = ratio(d$peak_temp_disk, disk),
        disk_du_MiB = mib(v[["du_peak"]]), du_ratio = ratio(d$peak_temp_disk, v[["du_peak"]]),
        est_s = sprintf("%.1f", secs))
}
tab <- do.call(rbind, rows)
tab <- tab[order(tab$graph, tab$algorithm, tab$memory_limit), ]
cat(paste0("| ", paste(names(tab), collapse = " | "), " |\n"))
cat(paste0("|", paste(rep(" --- ", ncol(tab)), collapse = "|"), "|\n"))
cat(apply(tab, 1, function(r) paste0("| ", paste(r, collapse = " | "), " |\n")), sep = "")
# the lines under the table in ESTIMATES.md's opening
sh <- function(cmd) tryCatch(paste(system(cmd, intern = TRUE), collapse = " "), error = function(e) "?")
cat(sprintf("\n- Measured: %s, commit `%s`%s; %s cores (%s), R %s.%s.\n", format(Sys.Date()),
            sh("git rev-parse --short HEAD"),
            if (nzchar(sh("git status --porcelain -- src R | head -1"))) " (with uncommitted changes in src/ or R/)" else "",
            sh("nproc"), sh("lscpu | sed -n 's/^Model name: *//p'"), R.version$major, R.version$minor))

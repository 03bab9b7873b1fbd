# Table of EstimateExoLabel() against the measured peaks written by run.sh.
# Measured RAM: the tool's peak resident set (getrusage); measured disk: the
# core's peak_temp_disk (runs + CSR) plus the names file (from the truth file).
suppressPackageStartupMessages(library(ExoLabel))
work <- commandArgs(TRUE)[1]
rows <- list()
for (f in list.files(work, pattern = "^st_.*\\.txt$", full.names = TRUE)) {
    p <- strsplit(sub("\\.txt$", "", basename(f)), "_")[[1]]
    n <- as.numeric(p[2])
    mem <- p[3]
    names_bytes <- sum(nchar(read.delim(file.path(work, paste0("t_", p[2], ".tsv")),
                                        header = FALSE, colClasses = "character")[[1]],
                             type = "bytes") + 1)
    kv <- read.delim(f, header = FALSE, col.names = c("k", "v"))
    kv <- kv[kv$k %in% c("nodes", "arcs", "peak_temp_disk", "peak_rss", "sort_runs"), ]
    v <- setNames(as.numeric(kv$v), kv$k)
    est <- EstimateExoLabel(n, v[["arcs"]] / 2, memory_limit = mem,
                            name_bytes = names_bytes / n - 1, threads = 2)
    disk <- v[["peak_temp_disk"]] + names_bytes
    rows[[f]] <- data.frame(
        nodes = format(n, big.mark = ",", scientific = FALSE),
        edges = format(v[["arcs"]] / 2, big.mark = ",", scientific = FALSE),
        memory_limit = mem, runs = v[["sort_runs"]],
        RAM_est_MiB = round(est$peak_ram / 2^20, 1),
        RAM_meas_MiB = round(v[["peak_rss"]] / 2^20, 1),
        RAM_err = sprintf("%+.1f%%", 100 * (est$peak_ram / v[["peak_rss"]] - 1)),
        disk_est_MiB = round(est$peak_temp_disk / 2^20, 1),
        disk_meas_MiB = round(disk / 2^20, 1),
        disk_err = sprintf("%+.1f%%", 100 * (est$peak_temp_disk / disk - 1)))
}
tab <- do.call(rbind, rows)
cat(paste0("| ", paste(names(tab), collapse = " | "), " |\n"))
cat(paste0("|", paste(rep(" --- ", ncol(tab)), collapse = "|"), "|\n"))
cat(apply(tab, 1, function(r) paste0("| ", paste(r, collapse = " | "), " |\n")), sep = "")
# the lines under the table in ESTIMATES.md's opening
sh <- function(cmd) tryCatch(paste(system(cmd, intern = TRUE), collapse = " "), error = function(e) "?")
cat(sprintf("\n- Measured: %s, commit `%s`%s; %s cores (%s), R %s.%s\n", format(Sys.Date()),
            sh("git rev-parse --short HEAD"),
            if (nzchar(sh("git status --porcelain -- src R | head -1"))) " (with uncommitted changes in src/ or R/)" else "",
            sh("nproc"), sh("lscpu | sed -n 's/^Model name: *//p'"), R.version$major, R.version$minor))

# Rscript default_time.R [M8]: the format = "blast" default (selfnorm)
# against weight_transform = "neglog10" on one search output, three
# alternating pairs in one R session, threads = 1; prints the runs, the
# median pair ratio and the medians (benchmarks/SSN.md, issue 25).
suppressPackageStartupMessages(library(ExoLabel))
args <- commandArgs(trailingOnly = TRUE)
m8 <- if (length(args)) args[1] else "/tmp/b-protein/ssn-work/n100000/diamond.m8"
res <- NULL
for (i in 1:3) for (tf in c("selfnorm", "neglog10")) {
    set.seed(1); gc()
    t0 <- proc.time()
    r <- ExoLabel(m8, format = "blast", weight_transform = tf, threads = 1, return_table = TRUE)
    t <- proc.time() - t0
    res <- rbind(res, data.frame(pair = i, transform = tf, elapsed = t[["elapsed"]],
                                 cpu = t[["user.self"]] + t[["sys.self"]] + t[["user.child"]] + t[["sys.child"]],
                                 load = as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1]][1])))
}
print(res)
w <- reshape(res[, c("pair", "transform", "elapsed")], idvar = "pair", timevar = "transform", direction = "wide")
cat(sprintf("median ratio selfnorm/neglog10 elapsed: %.3f\n", median(w$elapsed.selfnorm / w$elapsed.neglog10)))
cat(sprintf("medians: selfnorm %.2f s, neglog10 %.2f s\n", median(w$elapsed.selfnorm), median(w$elapsed.neglog10)))

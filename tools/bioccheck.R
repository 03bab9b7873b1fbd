# Run BiocCheck on a built tarball and exit non-zero on any error or warning.
# Three checks are switched off because they cannot work on this machine:
#  - no-check-deprecated, no-check-CRAN: they download Bioconductor's and
#    CRAN's package lists, and the build machines have no network;
#  - no-check-version-num: Debian ships BiocCheck 1.34 (Bioconductor 3.16
#    release), which rejects an odd middle version number, while a new
#    submission must be 0.99.z by Bioconductor's rules (it is checked on
#    the devel branch, where 0.99.0 is valid).
#  - no-check-bioc-help: support-site registration needs the network.
args <- commandArgs(trailingOnly = TRUE)
r <- BiocCheck::BiocCheck(args[1], "no-check-bioc-help" = TRUE,
                          "no-check-deprecated" = TRUE, "no-check-CRAN" = TRUE,
                          "no-check-version-num" = TRUE)
n_err <- r$getNum("error")
n_warn <- r$getNum("warning")
cat(sprintf("BiocCheck: %d errors, %d warnings\n", n_err, n_warn))
if (n_err + n_warn > 0) quit(status = 1)

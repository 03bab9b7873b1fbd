# The region rule of format = "blast" (src/core/exo_regions.h) written
# independently in base R, for tests that compute the expected graph: the
# unordered pairs "a b" (a < b) whose hits the rule removes. `h`: search
# hits as read.delim reads a 12-column file (V1, V2 the proteins, V7-V10
# the coordinates, V12 the bit score).
region_dropped_pairs <- function(h, ov = 1 / 3) {
    h <- h[h$V1 != h$V2, ]
    iv <- rbind(data.frame(p = h$V1, o = h$V2, st = pmin(h$V7, h$V8), en = pmax(h$V7, h$V8),
                           w = h$V12),
                data.frame(p = h$V2, o = h$V1, st = pmin(h$V9, h$V10), en = pmax(h$V9, h$V10),
                           w = h$V12))
    out <- character()
    for (x in split(iv, iv$p)) {
        x <- x[order(x$st, -x$en), ]
        far <- c(-Inf, cummax(x$en)[-nrow(x)])
        reg <- cumsum(x$st > far - (x$en - x$st + 1) * ov)
        if (max(reg) < 2) next
        sums <- tapply(x$w, reg, sum)
        best <- as.integer(names(sums)[which.max(sums)])
        drop <- setdiff(unique(x$o), x$o[reg == best])
        if (length(drop)) out <- c(out, paste(pmin(x$p[1], drop), pmax(x$p[1], drop)))
    }
    unique(out)
}

# The hits without the pairs the rule removes.
region_kept_hits <- function(h) {
    key <- paste(pmin(h$V1, h$V2), pmax(h$V1, h$V2))
    h[!key %in% region_dropped_pairs(h), ]
}

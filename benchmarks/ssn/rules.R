# rel54: weak-hit rules, streaming. Per node (from its own adjacency list,
# after the region rule, weights = selfnorm nbits): degree, the two smallest
# weights (min1 <= min2), the median, the 10% and 25% quantiles. Then one
# pass over the pairs using only the two endpoints' values.
#   "gap":     drop (a,b) when w < alpha x min_other(a) AND w < alpha x
#              min_other(b), min_other(v) = the smallest weight of v's OTHER
#              edges (min2 if w is v's min1, else min1); a node with no
#              other edge has none: the pair is kept. So the pair must be
#              the weakest edge of both endpoints, by a factor 1/alpha.
#   "gapone":  as gap, but one endpoint is enough (either side).
#   "q25"/"q10": w < alpha x min over endpoints of that quantile (all edges)
#   "med":     w < alpha x min(med a, med b) (the alpha rule), optionally
#              only when both degrees >= k, optionally only when w is the
#              weakest edge of both (weakest = TRUE)
#   "medmax":  w < alpha x max(med a, med b)
#   "medboth": w < alpha x med(a) AND w < alpha x med(b) == medmax
# k: both endpoints have degree >= k (the pair itself counted).
# h: both endpoints' other edges are tight, min_other(v) >= h x med(v).
# A protein's only pair is never dropped (all rules).
node_stats <- function(ee) {
    nd <- rbind(ee[, .(p = a, w = nbits)], ee[, .(p = b, w = nbits)])
    nd[, .(deg = .N, min1 = min(w), min2 = if (.N > 1) sort(w, partial = 2)[2] else NA_real_,
           med = median(w), q25 = unname(quantile(w, 0.25)), q10 = unname(quantile(w, 0.10))), by = p]
}
weak_rule <- function(type, alpha, k = 0, weakest = FALSE, h = 0) function(ee) {
    st <- node_stats(ee)
    ia <- match(ee$a, st$p); ib <- match(ee$b, st$p)
    w <- ee$nbits
    da <- st$deg[ia]; db <- st$deg[ib]
    oth <- function(i) ifelse(w <= st$min1[i], st$min2[i], st$min1[i])   # NA when deg 1
    drop <- switch(type,
        gap = w < alpha * oth(ia) & w < alpha * oth(ib),
        gapone = w < alpha * oth(ia) | w < alpha * oth(ib),
        q25 = w < alpha * pmin(st$q25[ia], st$q25[ib]),
        q10 = w < alpha * pmin(st$q10[ia], st$q10[ib]),
        med = w < alpha * pmin(st$med[ia], st$med[ib]),
        medmax = w < alpha * pmax(st$med[ia], st$med[ib]),
        medboth = w < alpha * st$med[ia] & w < alpha * st$med[ib],
        stop("unknown rule ", type))
    drop[is.na(drop)] <- FALSE
    drop <- drop & da >= 2 & db >= 2
    if (k > 0) drop <- drop & da >= k & db >= k
    # h > 0: both endpoints' other edges are tight: min_other(v) >= h x med(v)
    if (h > 0) drop <- drop & oth(ia) >= h * st$med[ia] & oth(ib) >= h * st$med[ib]
    if (weakest) drop <- drop & w <= st$min1[ia] & w <= st$min1[ib]
    drop
}

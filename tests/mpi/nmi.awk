# nmi.awk: normalised mutual information 2 I(X;Y) / (H(X) + H(Y)) between two
# "name<TAB>cluster" files, over the names present in both (the definition
# igraph::compare(method = "nmi") uses).
#   awk -f nmi.awk truth.tsv clusters.tsv
BEGIN { FS = "\t" }
FNR == NR { a[$1] = $2; next }
($1 in a) {
  n++; x = a[$1]; y = $2
  cx[x]++; cy[y]++; cxy[x SUBSEP y]++
}
END {
  if (n == 0) { print "nmi.awk: no common names" > "/dev/stderr"; exit 1 }
  hx = 0; hy = 0; i = 0
  for (k in cx) { p = cx[k] / n; hx -= p * log(p) }
  for (k in cy) { p = cy[k] / n; hy -= p * log(p) }
  for (k in cxy) {
    split(k, xy, SUBSEP)
    p = cxy[k] / n
    i += p * log(p / ((cx[xy[1]] / n) * (cy[xy[2]] / n)))
  }
  if (hx + hy == 0) { printf "%.6f\n", 1; exit 0 }
  printf "%.6f\n", 2 * i / (hx + hy)
}

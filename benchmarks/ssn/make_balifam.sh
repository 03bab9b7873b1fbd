#!/usr/bin/env bash
# benchmarks/ssn/make_balifam.sh BALIFAM_GIT [OUTDIR]: the third real set of
# `make ssn-bench` (benchmarks/ssn-data/balifam, README there) from a clone
# (or bare clone) of the public repository rcedgar/balifam (CC0), commit
# f2a46ac. Reads balifam100/in/*: one unaligned FASTA file per Pfam family
# (PFxxxxx.100). Writes OUTDIR/balifam.fa.gz (each sequence once, in the
# order of the files and of the sequences in them) and
# OUTDIR/balifam_labels.tsv.gz (protein<TAB>family with a header line; a
# sequence found in several families' files, the BAliBASE reference
# sequences, gets their accessions sorted and joined by ';'). Deterministic:
# the same commit gives the same bytes (gzip -n).
set -euo pipefail
src=$1
out=${2:-$(cd "$(dirname "$0")/../ssn-data" && pwd)/balifam}
rev=f2a46ac
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git -C "$src" cat-file -e "$rev^{commit}"
for f in $(git -C "$src" ls-tree --name-only "$rev" balifam100/in/ | sort); do
  fam=$(basename "$f" .100)
  git -C "$src" show "$rev:$f" | awk -v fam="$fam" '
    /^>/ { id = substr($1, 2); print id "\t" fam > "/dev/stderr"; print ">" id; next }
    { print }' 2>> "$tmp/labels" >> "$tmp/all.fa"
done
# each name once: the first copy wins (a BAliBASE reference sequence found in
# several families' files is the same protein, in 282 of 283 cases trimmed a
# little differently from file to file)
awk '/^>/ { keep = !($1 in seen); seen[$1] = 1 } keep' "$tmp/all.fa" > "$tmp/balifam.fa"
awk -F'\t' 'BEGIN { OFS = "\t"; print "protein", "family" }
  { if (!($1 in f)) { order[++n] = $1; f[$1] = $2 } else if (index(";" f[$1] ";", ";" $2 ";") == 0) f[$1] = f[$1] ";" $2 }
  END { for (i = 1; i <= n; i++) { k = split(f[order[i]], a, ";")
          for (x = 2; x <= k; x++) { t = a[x]; for (y = x - 1; y >= 1 && a[y] > t; y--) a[y + 1] = a[y]; a[y + 1] = t }
          s = a[1]; for (x = 2; x <= k; x++) s = s ";" a[x]; print order[i], s } }' "$tmp/labels" > "$tmp/labels.tsv"
gzip -9n < "$tmp/balifam.fa" > "$out/balifam.fa.gz"
gzip -9n < "$tmp/labels.tsv" > "$out/balifam_labels.tsv.gz"
echo "make_balifam.sh: $(grep -c '^>' "$tmp/balifam.fa") sequences, $(($(wc -l < "$tmp/labels.tsv") - 1)) labelled, $(cut -f2 "$tmp/labels.tsv" | grep -c ';') in several families -> $out" >&2

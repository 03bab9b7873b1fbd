#!/usr/bin/env bash
# benchmarks/ssn/test-ssngen.sh [BUILD]: checks of the family simulator:
# the same seed gives the same bytes, another seed other bytes; the FASTA
# and the truth table list the same N proteins; chimeras are 3% and their
# truth is the longer domain's family; lengths respect the model's bounds.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-${BUILD:-build}}/ssngen-test
mkdir -p "$B"
cc -std=c11 -O2 -Wall -Wextra -Werror -o "$B/ssngen" benchmarks/ssn/ssngen.c -lm
"$B/ssngen" -n 2000 --seed 7 --fasta "$B/a.fa" --truth "$B/a.tsv" 2> /dev/null
"$B/ssngen" -n 2000 --seed 7 --fasta "$B/b.fa" --truth "$B/b.tsv" 2> /dev/null
"$B/ssngen" -n 2000 --seed 8 --fasta "$B/c.fa" --truth "$B/c.tsv" 2> /dev/null
cmp "$B/a.fa" "$B/b.fa" && cmp "$B/a.tsv" "$B/b.tsv"
! cmp -s "$B/a.fa" "$B/c.fa"
test "$(grep -c '^>' "$B/a.fa")" -eq 2000
test "$(tail -n +2 "$B/a.tsv" | wc -l)" -eq 2000
diff <(grep '^>' "$B/a.fa" | cut -c2-) <(tail -n +2 "$B/a.tsv" | cut -f1)
# sequence lengths from the FASTA equal the truth's len column
diff <(awk '/^>/ { if (n) print l; n = 1; l = 0; next } { l += length($0) } END { print l }' "$B/a.fa") \
     <(tail -n +2 "$B/a.tsv" | cut -f5)
awk -F'\t' 'NR > 1 {
  if ($3 == 1) { ch++; if ($4 == "NA" || $4 == $2 || $6 + 0 < $7 + 0) bad = "chimera " $1 }
  else { if ($4 != "NA") bad = "single " $1; if ($5 < 40 || $5 > 1200) bad = "length " $1 }
  if ($6 + 0 < 40) bad = "domain " $1
} END { if (bad != "") { print "bad row: " bad; exit 1 }
        if (ch != 60) { print "chimeras: " ch " (want 60)"; exit 1 } }' "$B/a.tsv"
# only amino-acid letters
! grep -v '^>' "$B/a.fa" | grep -q '[^ARNDCQEGHILKMFPSTWYV]'
echo "test-ssngen: ok"

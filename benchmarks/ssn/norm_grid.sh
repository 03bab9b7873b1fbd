#!/bin/bash
# bash norm_grid.sh OUT.csv [SEEDS] [CANDIDATES]: norm_grid.R over the nine
# cached searches of the issue-25 exploration (paths as on the machine of
# benchmarks/SSN.md; override with the variables below). No search is run.
# ONLY: a regex; only the runs DIR:SEARCH that match it. ENGINE, THREADS:
# passed to norm_grid.R.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1; seeds=${2:-1}; cands=${3:-}
SSN=${SSN:-/tmp/b-ssn/ssn-work}; PROT=${PROT:-/tmp/b-protset/ssn-work}; SIM2=${SIM2:-/tmp/b-protein/ssn-work}
runs="$SSN/scop40:diamond $SSN/scop40:diamond_ms $SSN/scop40:mmseqs_s7.5
$PROT/swissprot_ec:diamond $PROT/swissprot_ec:diamond_ms $PROT/swissprot_ec:mmseqs_s7.5
$SSN/n10000:diamond $SIM2/n10000:mmseqs $SSN/n20000:diamond ${EXTRA:-}"
for r in $runs; do
    [[ "$r" =~ ${ONLY:-.} ]] || continue
    Rscript "$here/norm_grid.R" "${r%%:*}" "${r##*:}" "$out" "$seeds" $cands
done

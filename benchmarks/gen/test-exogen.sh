#!/usr/bin/env bash
# Tests for exogen, the benchmark graph generator.
# Builds build/exogen (relative to the repository root), checks properties of
# its output and ends with "N passed, N failed"; exits non-zero on any failure.
# Usage: bash benchmarks/gen/test-exogen.sh
set -u
set -o pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
CC=${CC:-cc}
BIN=build/exogen
TMP=$(mktemp -d "${TMPDIR:-/tmp}/exogen-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok   - $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; }
# check NAME CMD...: passes when CMD succeeds
check() {
    local name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
finish() {
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
    exit $?
}

# ---- build ---------------------------------------------------------------
mkdir -p build
if $CC -std=c11 -O2 -Wall -Wextra -Werror -o "$BIN" benchmarks/gen/exogen.c -lz -lm \
    2>"$TMP/cc.log"; then
    ok "build with -Wall -Wextra -Werror"
else
    cat "$TMP/cc.log"
    bad "build with -Wall -Wextra -Werror"
    finish
fi

N=20000
M=200000
gen() { "$BIN" --quiet "$@" 2>>"$TMP/stderr.log"; }

# ---- determinism ---------------------------------------------------------
gen --nodes $N --edges $M --seed 7 --out "$TMP/a.tsv" --truth "$TMP/a.truth"
gen --nodes $N --edges $M --seed 7 --out "$TMP/b.tsv" --truth "$TMP/b.truth"
gen --nodes $N --edges $M --seed 8 --out "$TMP/c.tsv" --truth "$TMP/c.truth"
check "same seed gives identical edge bytes" cmp -s "$TMP/a.tsv" "$TMP/b.tsv"
check "same seed gives identical truth bytes" cmp -s "$TMP/a.truth" "$TMP/b.truth"
check "different seed gives different edges" \
    bash -c "! cmp -s '$TMP/a.tsv' '$TMP/c.tsv'"
gen --nodes $N --edges $M --seed 7 >"$TMP/stdout.tsv"
check "--out - (stdout) equals --out FILE" cmp -s "$TMP/a.tsv" "$TMP/stdout.tsv"

# ---- counts and names ----------------------------------------------------
lines=$(wc -l <"$TMP/a.tsv")
check "line count equals --edges ($lines == $M)" [ "$lines" -eq $M ]
tlines=$(wc -l <"$TMP/a.truth")
tuniq=$(cut -f1 "$TMP/a.truth" | sort -u | wc -l)
check "truth has --nodes lines ($tlines == $N)" [ "$tlines" -eq $N ]
check "every node appears once in the truth file ($tuniq unique)" [ "$tuniq" -eq $N ]
check "truth lines are name<TAB>community with communities 1..K all used" \
    awk -F'\t' 'NF != 2 || $2 !~ /^[1-9][0-9]*$/ { bad = 1 }
        { used[$2] = 1; if ($2 + 0 > k) k = $2 + 0 }
        END { for (i = 1; i <= k; i++) if (!(i in used)) bad = 1; exit bad }' \
    "$TMP/a.truth"
check "names are 10..20 bytes" \
    awk -F'\t' 'length($1) < 10 || length($1) > 20 { bad = 1 } END { exit bad }' \
    "$TMP/a.truth"
check "edge endpoints are nodes of the truth file" \
    awk -F'\t' 'NR == FNR { t[$1] = 1; next }
        !($1 in t) || !($2 in t) { bad = 1 } END { exit bad }' \
    "$TMP/a.truth" "$TMP/a.tsv"
check "weighted lines have 3 fields, no self-loops" \
    awk -F'\t' 'NF != 3 || $1 == $2 { bad = 1 } END { exit bad }' "$TMP/a.tsv"
check "weights have at most 4 decimals and lie in [0.05,1]" \
    awk -F'\t' '$3 !~ /^(1|0\.[0-9]?[0-9]?[0-9]?[0-9])$/ || $3 < 0.05 || $3 > 1 { bad = 1 }
        END { exit bad }' "$TMP/a.tsv"
check "output is not sorted by node" \
    bash -c "! sort -c '$TMP/a.tsv' 2>/dev/null"

# ---- mixing --------------------------------------------------------------
# share of edges whose endpoints are in different communities
inter_share() { # truth edges
    awk -F'\t' 'NR == FNR { c[$1] = $2; next }
        { n++; if (c[$1] != c[$2]) x++ } END { printf "%.5f\n", x / n }' "$1" "$2"
}
within() { # value target tolerance
    awk -v v="$1" -v t="$2" -v e="$3" 'BEGIN { d = v - t; if (d < 0) d = -d; exit !(d <= e) }'
}
for mu in 0.1 0.3 0.6; do
    gen --nodes $N --edges $M --mixing $mu --seed 3 --out "$TMP/m.tsv" --truth "$TMP/m.truth"
    s=$(inter_share "$TMP/m.truth" "$TMP/m.tsv")
    check "mixing $mu: inter-community share $s within 0.02" within "$s" "$mu" 0.02
done
gen --nodes $N --edges $M --mixing 0.4 --degree-exponent 2.5 --max-degree 300 \
    --min-comm 50 --max-comm 1000 --seed 4 --out "$TMP/p.tsv" --truth "$TMP/p.truth"
s=$(inter_share "$TMP/p.truth" "$TMP/p.tsv")
check "power-law degrees, mixing 0.4: inter share $s within 0.02" within "$s" 0.4 0.02

# per-node mixing: the median node's share of outside edges is near MU too
s=$(awk -F'\t' 'NR == FNR { c[$1] = $2; next }
    { d[$1]++; d[$2]++; if (c[$1] != c[$2]) { x[$1]++; x[$2]++ } }
    END { for (v in d) if (d[v] >= 20) printf "%.6f\n", x[v] / d[v] }' \
    "$TMP/p.truth" "$TMP/p.tsv" | sort -g | awk '{ r[NR] = $1 } END { print r[int(NR / 2) + 1] }')
check "power-law degrees: median per-node outside share $s within 0.05 of 0.4" \
    within "$s" 0.4 0.05

# ---- degrees ---------------------------------------------------------------
read -r dmean dmax < <(awk -F'\t' '{ d[$1]++; d[$2]++ }
    END { for (v in d) { n++; s += d[v]; if (d[v] > m) m = d[v] } print s / n, m }' "$TMP/p.tsv")
check "power-law degrees: max degree $dmax >= 5x mean $dmean" \
    awk -v a="$dmax" -v b="$dmean" 'BEGIN { exit !(a >= 5 * b) }'
read -r dmean dmax < <(awk -F'\t' '{ d[$1]++; d[$2]++ }
    END { for (v in d) { n++; s += d[v]; if (d[v] > m) m = d[v] } print s / n, m }' "$TMP/a.tsv")
check "uniform degrees: mean $dmean near 2M/N=20, max $dmax < 3x mean" \
    awk -v a="$dmax" -v b="$dmean" 'BEGIN { exit !(b > 19 && b < 21 && a < 3 * b) }'

# ---- duplicates ------------------------------------------------------------
gen --nodes $N --edges $M --mixing 0.3 --min-comm 300 --max-comm 2000 --seed 5 \
    --out "$TMP/d.tsv"
s=$(awk -F'\t' '{ k = ($1 < $2) ? $1 "\t" $2 : $2 "\t" $1; if (k in e) d++; e[k] = 1 }
    END { printf "%.4f\n", d / NR }' "$TMP/d.tsv")
check "communities >> degree: duplicate share $s below 0.02" \
    awk -v s="$s" 'BEGIN { exit !(s < 0.02) }'

# ---- weights ---------------------------------------------------------------
read -r wi wo < <(awk -F'\t' 'NR == FNR { c[$1] = $2; next }
    { if (c[$1] == c[$2]) { si += $3; ni++ } else { so += $3; no++ } }
    END { printf "%.4f %.4f\n", si / ni, so / no }' "$TMP/a.truth" "$TMP/a.tsv")
check "mean intra weight $wi > mean inter weight $wo" \
    awk -v a="$wi" -v b="$wo" 'BEGIN { exit !(a > b) }'

# ---- unweighted ------------------------------------------------------------
gen --nodes $N --edges $M --seed 7 --unweighted --out "$TMP/u.tsv"
check "--unweighted lines have 2 fields" \
    awk -F'\t' 'NF != 2 { bad = 1 } END { exit bad }' "$TMP/u.tsv"
check "--unweighted has the same edges as weighted" \
    cmp -s "$TMP/u.tsv" <(cut -f1,2 "$TMP/a.tsv")

# ---- gzip ------------------------------------------------------------------
gen --nodes $N --edges $M --seed 7 --gzip --out "$TMP/a.tsv.gz"
check "--gzip decompresses to the plain output" \
    cmp -s "$TMP/a.tsv" <(gzip -dc "$TMP/a.tsv.gz")
gen --nodes $N --edges $M --seed 7 --gzip --gzip-level 9 >"$TMP/a9.gz"
check "--gzip --gzip-level 9 to stdout decompresses to the plain output" \
    cmp -s "$TMP/a.tsv" <(gzip -dc "$TMP/a9.gz")

# ---- shuffle ---------------------------------------------------------------
normalize() { awk -F'\t' -v OFS='\t' '{ if ($1 > $2) { t = $1; $1 = $2; $2 = t } print }' "$1" | LC_ALL=C sort; }
gen --nodes $N --edges $M --seed 7 --shuffle --out "$TMP/s.tsv"
check "--shuffle changes the line order" bash -c "! cmp -s '$TMP/a.tsv' '$TMP/s.tsv'"
check "--shuffle writes the same edges" cmp -s <(normalize "$TMP/a.tsv") <(normalize "$TMP/s.tsv")

# ---- options and errors ----------------------------------------------------
"$BIN" --help >"$TMP/help.txt"
missing=""
for opt in --nodes --edges --mixing --min-comm --max-comm --comm-exponent \
    --degree-exponent --max-degree --weighted --unweighted --seed --out --truth \
    --gzip --gzip-level --shuffle --quiet --help --version; do
    grep -q -- "$opt" "$TMP/help.txt" || missing="$missing $opt"
done
check "--help documents every option${missing:+ (missing:$missing)}" [ -z "$missing" ]
check "unknown option is rejected" bash -c "! '$BIN' --bogus >/dev/null 2>&1"
check "--mixing outside 0..1 is rejected" bash -c "! '$BIN' --mixing 1.5 >/dev/null 2>&1"
check "--nodes=N form and 2e3 notation work" \
    bash -c "[ \"\$('$BIN' --quiet --nodes=2e3 --edges=1e3 | wc -l)\" -eq 1000 ]"
check "--edges 0 writes an empty file" \
    bash -c "[ \"\$('$BIN' --quiet --nodes 100 --edges 0 | wc -c)\" -eq 0 ]"

finish

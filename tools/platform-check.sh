#!/usr/bin/env bash
# platform-check.sh MODE BUILD: the cross-platform checks behind
# `make win-test` (MODE=win) and `make portable-test` (MODE=portable).
#
# Both compare the clusters of a candidate build of the command-line tool
# with those of the normal Linux build ($BUILD/exolabel), byte for byte, on
# the bundled example (plain and gzip) and on a generated graph of 10^6 edges
# (benchmarks/gen/exogen.c, fixed seed) at three memory limits: 256MB (one
# sorted run, merged from memory), 16MB (18 runs, 2 merge passes) and 4MB
# (155 runs, 8 merge passes: fan-in 2, a multi-pass merge). The sort
# statistics printed with --stats are checked too, so the runs and passes
# really happened. Every run uses its own temp directory, which must be empty
# afterwards.
#   win       $BUILD/win/exo_tests.exe (the C tests, minicheck runner) and
#             $BUILD/win/exolabel.exe under Wine (WINEPREFIX in $BUILD, made
#             on first use; its creation time is printed), plus a run whose
#             input, output and temp paths have spaces and non-ASCII letters.
#   portable  $BUILD/portable/exolabel, built with -DEXO_PORTABLE (the C tests
#             of that build are run by the make target itself).
# Prints "N passed, N failed" and exits non-zero on any failure.
# WIN_CTEST=0 leaves out the C tests under Wine (to rerun only the CLI part).
set -uo pipefail
MODE=$1
BUILD=$(cd "$2" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$BUILD/platform-check-$MODE
rm -rf "$W"
mkdir -p "$W"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }

case $MODE in
win)
  export WINEPREFIX=$BUILD/wineprefix WINEDEBUG=-all WINEARCH=win64
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    t0=$(date +%s%N)
    wineboot -i >/dev/null 2>&1 || true
    wineserver -w 2>/dev/null || true
    echo "platform-check: created the Wine prefix $WINEPREFIX in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  fi
  run() { wine "$BUILD/win/exolabel.exe" "$@"; }
  if [ "${WIN_CTEST:-1}" != 0 ]; then
  t0=$(date +%s%N)
  (cd "$BUILD/win" && wine ./exo_tests.exe) > "$W/ctest.log" 2>&1
  rc=$?
  grep -E '^[0-9]+%: Checks' "$W/ctest.log" || tail -5 "$W/ctest.log"
  grep -E ':F:|:E:' "$W/ctest.log" | head -20
  echo "platform-check: C tests under Wine took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  if [ $rc -eq 0 ] && grep -qE '^100%: Checks: [1-9]' "$W/ctest.log"; then ok "C tests under Wine"; else bad "C tests under Wine (exit $rc)"; fi
  fi
  ;;
portable)
  run() { "$BUILD/portable/exolabel" "$@"; }
  ;;
*) echo "usage: $0 win|portable BUILD" >&2; exit 2 ;;
esac

# one comparison: NAME INPUT MEMORY [extra options]; sets the stats file
compare() {
  local name=$1 input=$2 mem=$3
  shift 3
  mkdir -p "$W/tmp-$name"
  (cd "$W" && "$BUILD/exolabel" --seed 11 --threads 2 --memory-limit "$mem" --tempdir "$W" "$@" \
    --out "linux-$name.tsv" "$input" 2>/dev/null)
  (cd "$W" && run --seed 11 --threads 2 --memory-limit "$mem" --tempdir "tmp-$name" --stats "$@" \
    --out "cand-$name.tsv" "$input" 2> "stats-$name.txt")
  local rc=$?
  if [ $rc -eq 0 ] && cmp -s "$W/linux-$name.tsv" "$W/cand-$name.tsv"; then
    ok "$name: identical clusters ($(wc -l < "$W/cand-$name.tsv") lines, memory $mem, sort_runs $(stat_of "$name" sort_runs), merge_passes $(stat_of "$name" merge_passes))"
  else
    bad "$name: exit $rc or clusters differ from the Linux build"
  fi
  if [ -z "$(ls -A "$W/tmp-$name")" ]; then ok "$name: temp directory left empty"; else bad "$name: files left in temp"; fi
}
# (the Windows build's stderr is in text mode: CR LF line ends)
stat_of() { tr -d '\r' < "$W/stats-$1.txt" | grep -E "^$2	" | cut -f2; }

EX=$ROOT/inst/extdata/example_edges.tsv
compare example "$EX" 256MB
compare example-gz "$EX.gz" 1MB
compare example-directed "$EX" 1MB --directed --attenuation 1 --refine 3

cc -std=c11 -O2 -o "$W/exogen" "$ROOT/benchmarks/gen/exogen.c" -lz -lm
"$W/exogen" --nodes 100000 --edges 1000000 --seed 7 --quiet --out "$W/g1m.tsv" 2>/dev/null
compare g1m-256MB "$W/g1m.tsv" 256MB
compare g1m-16MB "$W/g1m.tsv" 16MB
compare g1m-4MB "$W/g1m.tsv" 4MB
[ "$(stat_of g1m-256MB sort_runs)" = 1 ] && ok "256MB: one run" || bad "256MB: expected one run"
[ "$(stat_of g1m-16MB sort_runs)" -gt 1 ] 2>/dev/null && ok "16MB: several sorted runs" || bad "16MB: expected several runs"
[ "$(stat_of g1m-4MB merge_passes)" -gt 2 ] 2>/dev/null && ok "4MB: multi-pass merge" || bad "4MB: expected a multi-pass merge"

if [ "$MODE" = win ]; then
  # spaces and non-ASCII letters in the input, output and temp paths
  U="$W/dir ü é"
  mkdir -p "$U/tmp ß"
  cp "$EX" "$U/edges ü.tsv"
  "$BUILD/exolabel" --seed 5 --out "$W/linux-utf8.tsv" "$EX" 2>/dev/null
  (cd "$W" && run --seed 5 --tempdir "dir ü é/tmp ß" --out "dir ü é/out é.tsv" "dir ü é/edges ü.tsv")
  if cmp -s "$W/linux-utf8.tsv" "$U/out é.tsv" && [ -z "$(ls -A "$U/tmp ß")" ]; then
    ok "UTF-8 paths with spaces"
  else
    bad "UTF-8 paths with spaces"
  fi
  # standard output is binary (no CR before LF)
  (cd "$W" && run --seed 5 "dir ü é/edges ü.tsv" > "$W/stdout.tsv")
  cmp -s "$W/linux-utf8.tsv" "$W/stdout.tsv" && ok "standard output byte-identical" || bad "standard output differs"
fi

echo "platform-check $MODE: $pass passed, $fail failed"
[ $fail -eq 0 ]

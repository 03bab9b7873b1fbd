#!/usr/bin/env bash
# tests/mpi/run.sh: end-to-end tests of exolabel-mpi (make mpi-test).
#   BUILD=/abs/build bash tests/mpi/run.sh
# Needs $BUILD/exolabel-mpi, $BUILD/exolabel (make mpi cli) and mpirun.
# Checks, on a planted graph written by benchmarks/gen/exogen.c and split into
# four files (one gzip-compressed):
#  1. P = 1, 2, 4 give the single-machine run's vertex set, edge and arc
#     counts, clusters numbered 1..K, and an NMI against the planted truth
#     within 0.01 of the single-machine run's (tests/mpi/nmi.awk);
#  2. the same seed and P twice give identical bytes (P = 2 and 4);
#  3. directed mode at P = 2: the single-machine vertex set and arc count;
#  4. a malformed line read by rank 1 ends the job with a message naming the
#     file and line, a non-zero exit, no output and no temporary files;
#  5. a full disk on rank 1 (a 1 MiB tmpfs as its --tempdir; skipped with
#     the reason where mounting is not allowed) stops every rank, exit code 4;
#  9. a noisy graph (mixing 0.6, unweighted) at P = 1, 2, 4: with the
#     default --resolution 1 no label floods it (NMI > 0.7), with
#     --resolution 0 one does (NMI < 0.5);
#  7. search-tool input: a 12-column BLAST/DIAMOND-like file (e-values,
#     reversed duplicates, self hits) with --format blast (P = 1, 2, 4),
#     --min-weight, --columns/--self-hits/--combine and --threads give the
#     CLI's vertex set and arc count and its NMI within 0.01; exolabel's
#     options this mode cannot honour are refused by name (exit 2), a
#     negative --resolution too;
#  8. one plain file with a header at P = 1, 2, 4 (cut into byte ranges at
#     P > 1): the CLI's vertex set, edge and arc counts; a malformed line in
#     the middle, and one next to a range boundary, are named with their
#     absolute line numbers;
#  6. a rank killed with SIGKILL mid-run (the other rank blocked reading a
#     FIFO) ends the job with a non-zero exit within 30 s; the surviving
#     rank removes its temporary directory.
# Every mpirun is bounded by `timeout`. Prints "mpi-test: N passed, M failed".
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
MPI=$BUILD/exolabel-mpi
CLI=$BUILD/exolabel
NMI="awk -f $HERE/nmi.awk"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

for tool in mpirun "$MPI" "$CLI"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "mpi-test: cannot run: '$tool' not found (make deps mpi cli)"
    exit 1
  fi
done
MPIRUN=(mpirun --oversubscribe --bind-to none)
# CI runs as root; Open MPI refuses that unless told
if [ "$(id -u)" = 0 ]; then MPIRUN+=(--allow-run-as-root); fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/exolabel-mpi-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/tmp"
cc -std=c11 -O2 -o "$WORK/exogen" "$ROOT/benchmarks/gen/exogen.c" -lz -lm || exit 1

# ---- planted graph: 20000 nodes, 200000 weighted edges, mixing 0.3 ---------
"$WORK/exogen" --nodes 20000 --edges 200000 --mixing 0.3 --seed 7 --quiet \
  --out "$WORK/g.tsv" --truth "$WORK/truth.tsv"
(cd "$WORK" && split -n l/4 -d --additional-suffix=.tsv g.tsv part && gzip part03.tsv)
PARTS=("$WORK/part00.tsv" "$WORK/part01.tsv" "$WORK/part02.tsv" "$WORK/part03.tsv.gz")

stat_of() { awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$2"; }
names_of() { cut -f1 "$1" | LC_ALL=C sort; }
# clusters are 1..K with every number used
dense() { awk -F'\t' '{ c[$2] = 1; if ($2 > m) m = $2 } END { n = 0; for (k in c) n++; exit !(n == m && n > 0) }' "$1"; }

# --refine 0 on every exolabel run here: exolabel-mpi has no merge passes,
# exolabel runs 5 by default (the R function's refine = TRUE).
"$CLI" --seed 5 --threads 1 --refine 0 --stats -o "$WORK/cli.tsv" "${PARTS[@]}" 2> "$WORK/cli.err"
cli_nodes=$(stat_of nodes "$WORK/cli.err")
cli_arcs=$(stat_of arcs "$WORK/cli.err")
cli_nmi=$($NMI "$WORK/truth.tsv" "$WORK/cli.tsv")
names_of "$WORK/cli.tsv" > "$WORK/cli.names"
echo "single machine: $cli_nodes nodes, $cli_arcs arcs, NMI $cli_nmi"

run_mpi() { # P out err [options...] files...
  local P=$1 out=$2 err=$3
  shift 3
  timeout 120 "${MPIRUN[@]}" -np "$P" "$MPI" --tempdir "$WORK/tmp" -o "$out" "$@" 2> "$err"
}

for P in 1 2 4; do
  out=$WORK/mpi$P.tsv
  if ! run_mpi "$P" "$out" "$WORK/mpi$P.err" -v --seed 5 "${PARTS[@]}"; then
    bad "P=$P: exit status (stderr: $(head -c 400 "$WORK/mpi$P.err"))"
    continue
  fi
  nmi=$($NMI "$WORK/truth.tsv" "$out")
  echo "P=$P: $(stat_of nodes "$WORK/mpi$P.err") nodes, $(stat_of arcs "$WORK/mpi$P.err") arcs," \
       "$(stat_of clusters "$WORK/mpi$P.err") clusters, $(stat_of supersteps "$WORK/mpi$P.err") supersteps, NMI $nmi"
  check "P=$P: same vertex set as the single-machine run" cmp -s <(names_of "$out") "$WORK/cli.names"
  check "P=$P: same node count" test "$(stat_of nodes "$WORK/mpi$P.err")" = "$cli_nodes"
  check "P=$P: edge count = input lines" test "$(stat_of edges "$WORK/mpi$P.err")" = 200000
  check "P=$P: same arc count" test "$(stat_of arcs "$WORK/mpi$P.err")" = "$cli_arcs"
  check "P=$P: clusters numbered 1..K" dense "$out"
  check "P=$P: NMI $nmi within 0.01 of $cli_nmi" \
    awk -v a="$nmi" -v b="$cli_nmi" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01) }'
  check "P=$P: temporary directory left empty" test -z "$(ls -A "$WORK/tmp")"
done

# ---- a noisy graph: the volume penalty (--resolution) over ranks -------------
# 20000 nodes, unweighted, mixing 0.6, mean degree 15: plain label
# propagation (--resolution 0) lets one label flood it (NMI 0); the default
# resolution 1 keeps the communities apart at every P (the label volumes are
# summed over the ranks): NMI above 0.7 (the CLI's is about 0.84; P = 2 and 4
# gave 0.78-0.84 over seeds 5-7, P = 1 0.85).
"$WORK/exogen" --nodes 20000 --edges 150000 --mixing 0.6 --seed 9 --unweighted --quiet \
  --out "$WORK/noisy.tsv" --truth "$WORK/noisy-truth.tsv" 2> /dev/null
"$CLI" --seed 5 --threads 1 --refine 0 -o "$WORK/cli-noisy.tsv" "$WORK/noisy.tsv"
noisy_nmi=$($NMI "$WORK/noisy-truth.tsv" "$WORK/cli-noisy.tsv")
for P in 1 2 4; do
  for res in 1 0; do
    opt=(); [ "$res" = 1 ] || opt=(--resolution 0)
    if ! run_mpi "$P" "$WORK/noisy$P-$res.tsv" "$WORK/noisy$P.err" --seed 5 "${opt[@]}" "$WORK/noisy.tsv"; then
      bad "noisy P=$P resolution $res: exit status ($(head -c 400 "$WORK/noisy$P.err"))"
      continue 2
    fi
  done
  n1=$($NMI "$WORK/noisy-truth.tsv" "$WORK/noisy$P-1.tsv")
  n0=$($NMI "$WORK/noisy-truth.tsv" "$WORK/noisy$P-0.tsv")
  echo "noisy P=$P: NMI $n1 (CLI $noisy_nmi), --resolution 0: $n0"
  check "noisy P=$P: NMI $n1 above 0.7 (no flood)" awk -v a="$n1" 'BEGIN { exit !(a > 0.7) }'
  check "noisy P=$P: --resolution 0 floods (NMI $n0 below 0.5)" awk -v a="$n0" 'BEGIN { exit !(a < 0.5) }'
done
# the default is resolution 1
run_mpi 2 "$WORK/noisy-r1.tsv" "$WORK/noisy-r1.err" --seed 5 --resolution 1 "$WORK/noisy.tsv"
check "noisy P=2: the default is --resolution 1" cmp -s "$WORK/noisy-r1.tsv" "$WORK/noisy2-1.tsv"

# ---- the same seed and P twice: identical bytes -----------------------------
for P in 2 4; do
  run_mpi "$P" "$WORK/again$P.tsv" "$WORK/again$P.err" --seed 5 "${PARTS[@]}"
  check "P=$P: same seed, same bytes" cmp -s "$WORK/mpi$P.tsv" "$WORK/again$P.tsv"
done

# ---- directed mode at P = 2 -------------------------------------------------
"$CLI" --seed 3 --threads 1 --refine 0 --directed --stats -o "$WORK/cli-d.tsv" "${PARTS[@]}" 2> "$WORK/cli-d.err"
if run_mpi 2 "$WORK/mpi-d.tsv" "$WORK/mpi-d.err" -v --directed --seed 3 "${PARTS[@]}"; then
  check "directed P=2: same vertex set" cmp -s <(names_of "$WORK/mpi-d.tsv") <(names_of "$WORK/cli-d.tsv")
  check "directed P=2: same arc count" test "$(stat_of arcs "$WORK/mpi-d.err")" = "$(stat_of arcs "$WORK/cli-d.err")"
  echo "directed: NMI single machine $($NMI "$WORK/truth.tsv" "$WORK/cli-d.tsv"), P=2 $($NMI "$WORK/truth.tsv" "$WORK/mpi-d.tsv")"
else
  bad "directed P=2: exit status ($(head -c 400 "$WORK/mpi-d.err"))"
fi

# ---- one file cut into byte ranges (fewer files than ranks) ----------------
# The whole graph in one plain file, with a 3-line header: P = 2 and 4 read
# it by byte ranges (every rank a range; lines straddling a boundary go to
# the rank they start in), P = 1 whole; each must see every line once.
{ printf '# header 1\n# header 2\nq\ts\tw\n'; cat "$WORK/g.tsv"; } > "$WORK/one.tsv"
"$CLI" --seed 5 --threads 1 --refine 0 --header 3 --stats -o "$WORK/cli-one.tsv" "$WORK/one.tsv" 2> "$WORK/cli-one.err"
for P in 1 2 4; do
  if ! run_mpi "$P" "$WORK/one$P.tsv" "$WORK/one$P.err" -v --seed 5 --header 3 --threads 2 "$WORK/one.tsv"; then
    bad "one file P=$P: exit status ($(head -c 400 "$WORK/one$P.err"))"
    continue
  fi
  check "one file P=$P: same vertex set as the CLI" cmp -s <(names_of "$WORK/one$P.tsv") <(names_of "$WORK/cli-one.tsv")
  check "one file P=$P: edge count = data lines" test "$(stat_of edges "$WORK/one$P.err")" = 200000
  check "one file P=$P: same arc count as the CLI" test "$(stat_of arcs "$WORK/one$P.err")" = "$(stat_of arcs "$WORK/cli-one.err")"
  if [ "$P" -gt 1 ]; then # every rank read a share
    check "one file P=$P: every rank owns arcs" \
      awk -F'\t' -v P="$P" '$1 == "rank" && $2 ~ /^[0-9]+$/ { n++; if ($4 + 0 < 1) bad = 1 } END { exit !(n == P && !bad) }' "$WORK/one$P.err"
  fi
done
# a malformed line in the middle of a file cut across 4 ranks: the message
# names its absolute line (123460 = 3 header lines + 123457), the rank whose
# range holds it reports it, the others stop
awk 'NR == 123460 { print "x\ty\tbad-weight"; next } { print }' "$WORK/one.tsv" > "$WORK/onebad.tsv"
run_mpi 4 "$WORK/onebad-out.tsv" "$WORK/onebad.err" --header 3 "$WORK/onebad.tsv"
rc=$?
echo "malformed line in a cut file: exit $rc; $(grep -m1 'error' "$WORK/onebad.err")"
check "cut file: exit 3 (input)" test "$rc" -eq 3
check "cut file: the message names onebad.tsv line 123460" grep -q "rank 2: error: .*onebad.tsv:123460: weight 'bad-weight'" "$WORK/onebad.err"
check "cut file: no output, no temporary files" test ! -e "$WORK/onebad-out.tsv" -a -z "$(ls -A "$WORK/tmp")"
# next to a range boundary: rank 3's range starts at the first line start at
# or after off = 3/4 of the bytes; the line before it (which straddles off
# unless byte off-1 is an LF) is rank 2's. Each case turns one line into a
# one-field line of the same length (its tabs become '_'), so the ranges
# stay where they were.
off=$(( $(stat -c %s "$WORK/one.tsv") * 3 / 4 ))
lf_before=$(head -c "$off" "$WORK/one.tsv" | wc -l)
if [ "$(head -c "$off" "$WORK/one.tsv" | tail -c 1 | od -An -tx1 | tr -d ' ')" = 0a ]; then
  first=$((lf_before + 1))
else
  first=$((lf_before + 2))
fi
for case in "3 $first" "2 $((first - 1))"; do
  set -- $case
  awk -v L="$2" 'NR == L { gsub(/\t/, "_") } { print }' "$WORK/one.tsv" > "$WORK/edge.tsv"
  run_mpi 4 "$WORK/edge-out.tsv" "$WORK/edge.err" --header 3 "$WORK/edge.tsv"
  echo "one-field line $2 next to the boundary at byte $off: $(grep -m1 'error' "$WORK/edge.err")"
  check "cut file: line $2 next to a range boundary named by rank $1" \
    grep -q "rank $1: error: .*edge.tsv:$2: " "$WORK/edge.err"
done

# ---- search-tool input (--format blast and its options) against the CLI -----
# A 12-column DIAMOND/BLAST-like file made from the planted graph: e-value
# 10^(-40 w), every 10th hit also reported the other way round with another
# e-value (combine max keeps the larger weight), every 50th query with a self
# hit (dropped), in two files.
awk -F'\t' -v OFS='\t' '{
  e = 10 ^ (-40 * $3)
  printf "%s\t%s\t%.1f\t120\t4\t0\t1\t120\t1\t120\t%.3e\t%.1f\n", $1, $2, 50 + 50 * $3, e, 400 * $3
  if (NR % 10 == 0) printf "%s\t%s\t%.1f\t120\t4\t0\t1\t120\t1\t120\t%.3e\t%.1f\n", $2, $1, 60, e * 1e-3, 410 * $3
  if (NR % 50 == 0) printf "%s\t%s\t100.0\t120\t0\t0\t1\t120\t1\t120\t0\t500.0\n", $1, $1
}' "$WORK/g.tsv" > "$WORK/hits.m8"
(cd "$WORK" && split -n l/2 -d --additional-suffix=.m8 hits.m8 hits && rm hits.m8)
HITS=("$WORK/hits00.m8" "$WORK/hits01.m8")
input_case() { # name P... -- options...
  local name=$1; shift
  local ps=()
  while [ "$1" != "--" ]; do ps+=("$1"); shift; done
  shift
  # the single-machine twin: one thread and no merge passes unless the case
  # sets them (an option given twice is refused)
  local own=()
  case " $* " in *" --threads "*) ;; *) own+=(--threads 1) ;; esac
  case " $* " in *" --refine "*) ;; *) own+=(--refine 0) ;; esac
  "$CLI" --seed 5 "${own[@]}" --stats -o "$WORK/cli-$name.tsv" "$@" "${HITS[@]}" 2> "$WORK/cli-$name.err"
  local c_arcs c_nmi
  c_arcs=$(stat_of arcs "$WORK/cli-$name.err")
  c_nmi=$($NMI "$WORK/truth.tsv" "$WORK/cli-$name.tsv")
  for P in "${ps[@]}"; do
    local out=$WORK/mpi-$name-$P.tsv
    if ! run_mpi "$P" "$out" "$WORK/mpi-$name-$P.err" -v --seed 5 "$@" "${HITS[@]}"; then
      bad "$name P=$P: exit status ($(head -c 400 "$WORK/mpi-$name-$P.err"))"
      continue
    fi
    local nmi
    nmi=$($NMI "$WORK/truth.tsv" "$out")
    echo "$name P=$P: $(stat_of arcs "$WORK/mpi-$name-$P.err") arcs (CLI $c_arcs), NMI $nmi (CLI $c_nmi)"
    check "$name P=$P: same vertex set as the CLI" cmp -s <(names_of "$out") <(names_of "$WORK/cli-$name.tsv")
    check "$name P=$P: same arc count as the CLI" test "$(stat_of arcs "$WORK/mpi-$name-$P.err")" = "$c_arcs"
    check "$name P=$P: NMI $nmi within 0.01 of the CLI's $c_nmi" \
      awk -v a="$nmi" -v b="$c_nmi" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01) }'
  done
}
# exolabel-mpi's --format blast is label propagation keeping every hit: the
# CLI's run with --algorithm lp --weight-transform neglog10 --bridges keep is
# its single-machine twin (exolabel's own --format blast default is Leiden
# CPM on bit scores over self scores after the bridge rules, which do not
# run over ranks)
input_case blast 1 2 4 -- --format blast --algorithm lp --weight-transform neglog10 --bridges keep
input_case blast-minw 2 -- --format blast --min-weight 10 --attenuation 0 --refine 0 --algorithm lp --weight-transform neglog10 --bridges keep
input_case columns 2 -- --columns 2,1,12 --self-hits keep --combine sum --threads 2
# the options change the graph: the arc counts differ between the cases
check "input options change the graph (blast vs --min-weight 10 vs columns)" \
  test "$(stat_of arcs "$WORK/cli-blast.err")" != "$(stat_of arcs "$WORK/cli-blast-minw.err")" -a \
       "$(stat_of arcs "$WORK/cli-blast.err")" != "$(stat_of arcs "$WORK/cli-columns.err")"
# --threads only changes how a rank parses: the same bytes
run_mpi 2 "$WORK/thr1.tsv" "$WORK/thr1.err" --seed 5 --format blast --threads 1 "${HITS[@]}"
run_mpi 2 "$WORK/thr2.tsv" "$WORK/thr2.err" --seed 5 --format blast --threads 2 "${HITS[@]}"
check "--threads 1 and 2 give the same bytes at P=2" cmp -s "$WORK/thr1.tsv" "$WORK/thr2.tsv"
check "--format blast: P=2 output equals the P=2 run of the case above" cmp -s "$WORK/thr1.tsv" "$WORK/mpi-blast-2.tsv"

# ---- options exolabel has that this mode refuses, by name -----------------------
refused() { # expected-text options...
  local want=$1; shift
  run_mpi 2 "$WORK/refused.tsv" "$WORK/refused.err" "$@" "${HITS[0]}"
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$WORK/refused.err" && [ ! -e "$WORK/refused.tsv" ]; then
    ok "refused with exit 2: $*"
  else
    bad "refused: $* (exit $rc, stderr: $(head -c 300 "$WORK/refused.err"))"
  fi
}
refused "--attenuation is not available in MPI mode" --attenuation 0.5
refused "--resolution must be >= 0" --resolution -1
refused "--refine is not available in MPI mode" --refine 2
refused "--threads given twice" --threads 1 --threads 2
refused "--algorithm leiden is not available in MPI mode" --algorithm leiden
refused "--objective is not available in MPI mode" --objective cpm
refused "--add-self-loops is not available in MPI mode" --add-self-loops 0.5
refused "standard input ('-') is not available in MPI mode" -
refused "--weight-transform neglog10 needs a weight column" --columns 1,2 --weight-transform neglog10
refused "--format must be one of 'edges', 'blast' (any case), not 'm8'" --format m8
refused "--weight-transform selfnorm is not available in MPI mode" --format blast --weight-transform selfnorm
refused "--bridges cut is not available in MPI mode" --format blast --bridges cut
refused "--initial is not available in MPI mode" --initial "${HITS[0]}"
check "refusals: no temporary files" test -z "$(ls -A "$WORK/tmp")"

# ---- a malformed line on rank 1 -----------------------------------------------
printf 'a\tb\t1\nb\tc\t1\n' > "$WORK/good.tsv"
printf 'c\td\t1\nd\te\t1\ne\tf\tnot-a-number\n' > "$WORK/bad.tsv"
start=$(date +%s)
run_mpi 2 "$WORK/bad-out.tsv" "$WORK/bad.err" "$WORK/good.tsv" "$WORK/bad.tsv"
rc=$?
secs=$(( $(date +%s) - start ))
echo "malformed line: exit $rc after ${secs}s; stderr: $(tr '\n' ' ' < "$WORK/bad.err" | head -c 300)"
check "malformed line: non-zero exit" test "$rc" -ne 0 -a "$rc" -ne 124
check "malformed line: message names bad.tsv line 3" grep -q "bad.tsv:3:" "$WORK/bad.err"
check "malformed line: no output file" test ! -e "$WORK/bad-out.tsv" -a ! -e "$WORK/bad-out.tsv.mpi-tmp"
check "malformed line: no temporary files" test -z "$(ls -A "$WORK/tmp")"

# ---- a full disk on rank 1 ------------------------------------------------------
# Two programs in one job (MPMD): rank 1's --tempdir is a 1 MiB tmpfs, too
# small for its edge spool. Needs mount (root); skipped with the reason
# otherwise.
small=$WORK/small-tmpfs
mkdir -p "$small"
if mount -t tmpfs -o size=1m tmpfs "$small" 2> "$WORK/mount.err"; then
  start=$(date +%s)
  timeout 120 "${MPIRUN[@]}" -np 1 "$MPI" --tempdir "$WORK/tmp" -o "$WORK/full-out.tsv" "${PARTS[@]}" : \
    -np 1 "$MPI" --tempdir "$small" -o "$WORK/full-out.tsv" "${PARTS[@]}" 2> "$WORK/full.err"
  rc=$?
  secs=$(( $(date +%s) - start ))
  echo "full disk: exit $rc after ${secs}s; stderr: $(grep exolabel-mpi "$WORK/full.err" | tr '\n' ' ' | head -c 300)"
  check "full disk: exit code 4 (I/O)" test "$rc" -eq 4
  check "full disk: rank 1 reports the full disk" grep -qi "rank 1: error: .*no space left" "$WORK/full.err"
  check "full disk: rank 0 stops too" grep -q "rank 0: stopped because rank 1 failed (EXO_ENOSPC)" "$WORK/full.err"
  check "full disk: no output, no temporary files" \
    test ! -e "$WORK/full-out.tsv" -a -z "$(ls -A "$small")" -a -z "$(ls -A "$WORK/tmp")"
  umount "$small"
else
  echo "full disk: SKIPPED, cannot mount a tmpfs here: $(head -c 200 "$WORK/mount.err")"
fi

# ---- a rank killed mid-run ------------------------------------------------------
# Rank 1 reads a FIFO nobody writes, so the job is certainly still running
# when rank 0 (or 1) is killed; mpirun must end it, not hang.
mkfifo "$WORK/never.fifo"
exec 7<> "$WORK/never.fifo"   # keeps the FIFO open so that the rank blocks in read
start=$(date +%s)
timeout 60 "${MPIRUN[@]}" -np 2 "$MPI" --tempdir "$WORK/tmp" -o "$WORK/kill-out.tsv" \
  "$WORK/good.tsv" "$WORK/never.fifo" > /dev/null 2> "$WORK/kill.err" &
job=$!
victim=""
for _ in $(seq 1 100); do   # the two ranks are children of this mpirun
  sleep 0.1
  mp=$(pgrep -P "$job" -x mpirun || true)
  [ -n "$mp" ] || mp=$job
  kids=$(pgrep -P "$mp" -x exolabel-mpi || true)
  if [ "$(echo "$kids" | grep -c .)" -ge 2 ]; then victim=$(echo "$kids" | head -n 1); break; fi
done
if [ -z "$victim" ]; then
  bad "killed rank: could not find the ranks' processes"
  kill "$job" 2> /dev/null
  wait "$job"
else
  sleep 1
  kill -9 "$victim"
  wait "$job"
  rc=$?
  secs=$(( $(date +%s) - start ))
  echo "killed rank: exit $rc, job ended ${secs}s after start (1s before the kill)"
  check "killed rank: non-zero exit, not the timeout" test "$rc" -ne 0 -a "$rc" -ne 124
  check "killed rank: ended within 30 s" test "$secs" -le 30
  left=$(ls -A "$WORK/tmp" | wc -l)
  echo "killed rank: $left temporary directory(ies) left (the SIGKILLed rank's cannot be removed)"
  check "killed rank: at most the killed rank's directory left" test "$left" -le 1
fi
exec 7>&-

echo "mpi-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# benchmarks/ssn/search.sh DIR TOOL: all-against-all protein search of
# DIR/proteins.fa with TOOL (diamond or mmseqs), writing the tool's raw
# 12-column tabular output to DIR/TOOL.m8 and its wall time, CPU time and
# peak memory (GNU time) to DIR/TOOL.search.time. Skipped when DIR/TOOL.done
# exists (so an interrupted `make ssn-bench` resumes).
#
# Settings (the same for every size; THREADS=2 by default):
#   DIAMOND 2.1: diamond makedb; diamond blastp --outfmt 6 --evalue 1e-5
#     --max-target-seqs 100 in DIAMOND's default ("fast") sensitivity mode.
#     --sensitive took more than 10 minutes for 10^4 proteins on this shared
#     machine, so it was out of reach for 10^5; default mode finds most
#     hits above about 40% identity and part of the more remote ones.
#   MMseqs2 14: mmseqs easy-search with its defaults (sensitivity 5.7,
#     e-value 1e-3, at most 300 prefilter hits per query), default output
#     (the same 12 columns as BLAST+ -outfmt 6).
#   Real sets (run.sh sets EVALUE=1e-3 MAXT=1000 for them):
#   diamond_ms: DIAMOND in --more-sensitive mode; mmseqs_s7.5: mmseqs
#   easy-search -s 7.5 (its most sensitive setting), both with
#   -e EVALUE and at most MAXT targets per query (--max-seqs for MMseqs2).
#   EVALUE and MAXT (defaults 1e-5 and 100) apply to diamond too; mmseqs
#   keeps its own defaults.
#   LENCOLS=1 (diamond and diamond_ms only): two more columns, qlen and
#   slen (the lengths of query and subject), after the 12 standard ones;
#   default 0 (12 columns, the existing sets' bytes unchanged).
# Searches run under `nice -n 5` (the machine is shared).
set -euo pipefail
dir=$1 tool=$2
THREADS=${THREADS:-2}
EVALUE=${EVALUE:-1e-5}
MAXT=${MAXT:-100}
[ -e "$dir/$tool.done" ] && exit 0
fa=$dir/proteins.fa
T="/usr/bin/time -f %e\t%U\t%S\t%M"
case "$tool" in
  diamond|diamond_ms)
    mode=(); [ "$tool" = diamond_ms ] && mode=(--more-sensitive)
    fmt=(6); [ "${LENCOLS:-0}" = 1 ] && fmt=(6 qseqid sseqid pident length mismatch gapopen qstart qend sstart send evalue bitscore qlen slen)
    [ -s "$dir/diamond_db.dmnd" ] ||
      $T -o "$dir/diamond.makedb.time" diamond makedb --in "$fa" -d "$dir/diamond_db" --threads "$THREADS" --quiet
    $T -o "$dir/$tool.search.time" nice -n 5 diamond blastp -q "$fa" -d "$dir/diamond_db" \
      -o "$dir/$tool.m8" --outfmt "${fmt[@]}" --evalue "$EVALUE" --max-target-seqs "$MAXT" "${mode[@]}" \
      --threads "$THREADS" --tmpdir "$dir" --quiet
    ;;
  mmseqs_s7.5)
    rm -rf "$dir/mmseqs_tmp"
    $T -o "$dir/$tool.search.time" nice -n 5 mmseqs easy-search "$fa" "$fa" "$dir/$tool.m8" \
      "$dir/mmseqs_tmp" -s 7.5 -e "$EVALUE" --max-seqs "$MAXT" --threads "$THREADS" -v 1
    rm -rf "$dir/mmseqs_tmp"
    ;;
  mmseqs)
    rm -rf "$dir/mmseqs_tmp"
    $T -o "$dir/mmseqs.search.time" nice -n 5 mmseqs easy-search "$fa" "$fa" "$dir/mmseqs.m8" \
      "$dir/mmseqs_tmp" --threads "$THREADS" -v 1
    rm -rf "$dir/mmseqs_tmp"
    ;;
  *) echo "search.sh: unknown tool $tool" >&2; exit 2 ;;
esac
touch "$dir/$tool.done"

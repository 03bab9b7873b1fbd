#!/usr/bin/env bash
# cluster_exolabel_cli.sh EXOLABEL SEARCH_OUTPUT SETTING OUT.tsv THREADS
# The same clusterings as cluster_exolabel.R from the command-line tool
# (no R process: its peak memory is ExoLabel's own). Prints elapsed s.
set -euo pipefail
exe=$1 in=$2 setting=$3 out=$4 threads=$5
case "$setting" in
  default) opts=() ;;
  attenuation) opts=(--attenuation 1) ;;
  refine) opts=(--refine 5) ;;
  bitscore) opts=(--columns 1,2,12 --weight-transform none) ;;
  att_refine) opts=(--attenuation 1 --refine 5) ;;
  bitscore_att_refine) opts=(--columns 1,2,12 --weight-transform none --attenuation 1 --refine 5) ;;
  bitscore_32MB) opts=(--columns 1,2,12 --weight-transform none --memory-limit 32MB) ;;
  *) echo "cluster_exolabel_cli.sh: unknown setting $setting" >&2; exit 2 ;;
esac
t0=$(date +%s.%N)
"$exe" --format blast --seed 1 --threads "$threads" "${opts[@]}" --out "$out" "$in"
awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", b - a }'

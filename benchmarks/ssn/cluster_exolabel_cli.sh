#!/usr/bin/env bash
# cluster_exolabel_cli.sh EXOLABEL SEARCH_OUTPUT SETTING OUT.tsv THREADS
# The same clusterings as cluster_exolabel.R from the command-line tool
# (no R process: its peak memory is ExoLabel's own). Prints elapsed s.
# SEED (environment, default 1) is the clustering seed. A setting without
# --algorithm is label propagation (--format blast alone now runs Leiden CPM
# at --resolution auto: the setting auto).
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
  res0) opts=(--resolution 0) ;;
  bitscore_res0) opts=(--columns 1,2,12 --weight-transform none --resolution 0) ;;
  bitscore_res0_32MB) opts=(--columns 1,2,12 --weight-transform none --resolution 0 --memory-limit 32MB) ;;
  bitscore_refine) opts=(--columns 1,2,12 --weight-transform none --refine 5) ;;
  bitscore_refine_32MB) opts=(--columns 1,2,12 --weight-transform none --refine 5 --memory-limit 32MB) ;;
  cpm) opts=(--algorithm leiden --objective cpm --resolution 1) ;;
  auto) opts=(--algorithm leiden --objective cpm --resolution auto) ;;
  cpm_32MB) opts=(--algorithm leiden --objective cpm --resolution 1 --memory-limit 32MB) ;;
  leiden) opts=(--algorithm leiden) ;;
  bitscore_leiden) opts=(--columns 1,2,12 --weight-transform none --algorithm leiden) ;;
  *) echo "cluster_exolabel_cli.sh: unknown setting $setting" >&2; exit 2 ;;
esac
t0=$(date +%s.%N)
case " ${opts[*]-} " in *" --algorithm "*) ;; *) opts=(--algorithm lp "${opts[@]}") ;; esac
"$exe" --format blast --seed "${SEED:-1}" --threads "$threads" "${opts[@]}" --out "$out" "$in"
awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", b - a }'

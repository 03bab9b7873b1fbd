#!/usr/bin/env bash
# tools/run-suites.sh JOBS BINARY SUITES_INC [FIRST ...]
# Run a Check test binary once per suite (CK_RUN_SUITE), JOBS processes at a
# time: the suites named FIRST (the longest, so that the jobs end together),
# then every other suite listed in SUITES_INC (EXO_SUITE(name_suite) lines).
# Each suite's output is printed whole when it ends, then its time in
# seconds ("suite NAME: N s"). Every suite runs; the
# script fails (status 123) when any of them failed. The environment
# (CK_FORK, ASAN_OPTIONS, TSAN_OPTIONS, ...) passes through. `make sanitize`
# and `make tsan` use it so that an instrumented run takes both cores.
set -uo pipefail
jobs=$1
bin=$2
inc=$3
shift 3
all=$(sed -n 's/^EXO_SUITE(\(.*\)_suite)$/\1/p' "$inc")
order=()
for s in "$@"; do
  if printf '%s\n' $all | grep -qx "$s"; then order+=("$s"); fi
done
for s in $all; do
  case " ${order[*]} " in *" $s "*) ;; *) order+=("$s") ;; esac
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/exo-suites.XXXXXX")
trap 'rm -rf "$dir"' EXIT
printf '%s\n' "${order[@]}" | xargs -P "$jobs" -I{} sh -c '
  t0=$(date +%s)
  CK_RUN_SUITE="$1" "$2" > "$3/$1.log" 2>&1
  s=$?
  cat "$3/$1.log"
  echo "suite $1: $(( $(date +%s) - t0 )) s"
  if [ "$s" -ne 0 ]; then echo "suite $1: FAILED (status $s)"; exit 1; fi' sh {} "$bin" "$dir"

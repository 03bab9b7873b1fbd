# benchmarks/bench/cgroup_lib.sh: sourced by cgroup_run.sh and scale_run.sh.
#
# cg_wait PID DIR: wait for PID while sampling the allocated bytes under DIR
# (du) every second; sets cg_peak (largest sample), cg_status (PID's exit
# status) and cg_t1 (end time).
cg_wait() {
  local pid=$1 dir=$2 d
  cg_peak=0
  while kill -0 "$pid" 2> /dev/null; do
    d=$(du -sB1 "$dir" 2> /dev/null | cut -f1 || true)
    if [ -n "$d" ] && [ "$d" -gt "$cg_peak" ]; then cg_peak=$d; fi
    sleep 1
  done
  cg_status=0
  wait "$pid" || cg_status=$?
  cg_t1=$(date +%s.%N)
}

# cg_report CG CAP: the cgroup's cap, peak usage and failcnt, the sampled
# peak disk and the exit status, as "key<TAB>value" lines.
cg_report() {
  printf 'cgroup_cap\t%s\n' "$2"
  printf 'cgroup_max_usage\t%s\n' "$(cat "$1/memory.max_usage_in_bytes")"
  printf 'cgroup_failcnt\t%s\n' "$(cat "$1/memory.failcnt")"
  printf 'peak_disk_du\t%s\n' "$cg_peak"
  printf 'exit_status\t%s\n' "$cg_status"
}

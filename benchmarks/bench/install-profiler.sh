#!/usr/bin/env bash
# benchmarks/bench/install-profiler.sh: the profiler used for the Profile
# section of benchmarks/RESULTS.md (perf from Debian's linux-perf); called
# by `make profile`. Does nothing when perf is already there.
set -euo pipefail
if ! dpkg-query -W -f='${Status}' linux-perf 2> /dev/null | grep -q "install ok installed"; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends linux-perf > /dev/null
fi
perf --version

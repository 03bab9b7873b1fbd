#!/usr/bin/env bash
# Install what `make ssn-bench` needs beyond tools/install-deps.sh: the
# protein search tools and MCL, from Debian's packages (bookworm:
# diamond-aligner 2.1.3, mmseqs2 14-7e284, mcl 22-282), plus GNU time for
# peak-memory measurement. Does nothing when all is already there.
set -euo pipefail
DEB_PKGS=(diamond-aligner mmseqs2 mcl time gawk)
missing=()
for p in "${DEB_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-bench-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  # apt's lock may be held by another install on a shared machine: retry.
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    if $SUDO apt-get update -qq && \
       DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
      break
    fi
    [ "$attempt" = 10 ] && { echo "install-bench-deps: apt-get failed" >&2; exit 1; }
    echo "install-bench-deps: apt busy or failed, retrying in 30 s" >&2
    sleep 30
  done
fi
for cmd in diamond mmseqs mcl mcxload mcxdump /usr/bin/time; do
  command -v "$cmd" >/dev/null || { echo "install-bench-deps: $cmd not found after install" >&2; exit 1; }
done

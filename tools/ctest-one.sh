#!/usr/bin/env bash
# Build and run one Check suite in isolation, with the shared core files.
#   tools/ctest-one.sh [--asan] SUITE extra-core-sources...
# compiles tests/c/test_SUITE.c (which defines Suite *SUITE_suite(void)) with
# src/core/exo_{status,ctx,io,rng}.c plus the sources named, in build/one-SUITE/.
set -euo pipefail
cd "$(dirname "$0")/.."
san=""
if [ "${1:-}" = "--asan" ]; then san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"; shift; fi
suite=$1; shift
out=${BUILD:-build}/one-$suite
mkdir -p "$out"
echo "EXO_SUITE(${suite}_suite)" > "$out/suites.inc"
gcc -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread $san \
  -Isrc/core -Itests/c -I"$out" \
  src/core/exo_status.c src/core/exo_ctx.c src/core/exo_io.c src/core/exo_rng.c "$@" \
  tests/c/test_"$suite".c tests/c/runner.c tests/c/testutil.c \
  $(pkg-config --cflags --libs check) -lz -lm -o "$out/exo_tests"
cd "$out" && CK_FORK=${CK_FORK:-no} ./exo_tests

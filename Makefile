# ExoLabel developer Makefile.
#   make demo      install the runtime dependencies and the package (vignette included), cluster the bundled example
#   make install   install the runtime dependencies (make deps-runtime), then the package: R CMD build + R CMD INSTALL
#   make test      install every dependency (make deps), run the C unit tests (Check), tests/ref (make ref-test), the R tests (testthat)
#                  and make install-test
#   make install-test  the package installed into a fresh library that sees only the runtime R packages
#   make ctest     only the C unit tests
#   make cli       the standalone command-line tool $(BUILD)/exolabel
#   make mpi       the MPI program $(BUILD)/exolabel-mpi; make mpi-test its tests
#   make ref-test  every stage's output byte for byte against tests/ref/expected.md5
#   make options-test  the R function, the CLI and exolabel-mpi resolve the same options alike
#   make check     R CMD build + R CMD check --as-cran + BiocCheck
#   make sanitize  C unit tests under AddressSanitizer + UBSan
#   make micro     I/O micro-benchmarks and the parse benchmark (benchmarks/micro/README.md)
#   make valgrind  C unit tests under valgrind memcheck
#   make cppcheck  static analysis
#   make fuzz      libFuzzer harnesses (FUZZ_TIME seconds each); make fuzz-replay: the corpus once
#   make win-test  Windows cross-build (MinGW-w64): C tests and the CLI run under Wine
#   make portable-test  a build without Linux extensions (-DEXO_PORTABLE, what macOS takes)
#   make ssn-bench protein families from DIAMOND/MMseqs2 searches, ExoLabel against MCL (benchmarks/SSN.md)
SHELL := /bin/bash
R ?= R
RSCRIPT ?= Rscript
CC ?= gcc
# BUILD and RLIB can be set per person (make test BUILD=/tmp/b RLIB=/tmp/lib)
# so that several builds of one tree never share object files or libraries.
BUILD ?= build
RLIB ?=
R_LIBS_ENV := $(if $(RLIB),R_LIBS=$(RLIB):$$R_LIBS,)
# Parallel jobs: the C suites (make ctest) and each compile of the package by
# R CMD build / INSTALL / check (R_JOBS_ENV: R's make reads MAKEFLAGS).
EXO_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
R_JOBS_ENV := MAKEFLAGS=-j$(EXO_JOBS)
CORE_SRC := $(wildcard src/core/*.c)
CORE_HDR := $(wildcard src/core/*.h)
TEST_SRC := $(wildcard tests/c/test_*.c)
CFLAGS_CORE := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread
LDLIBS_CORE := -lz -lm -pthread


.PHONY: check
.PHONY: options-test
.PHONY: all deps deps-runtime install-test demo test ctest rtest cli mpi mpi-test mpi-bench micro sanitize tsan valgrind valgrind-ci cppcheck fuzz fuzz-replay install roxygen clean ref-test quality bench leiden-bench profile ssn-bench grow-bench win-test portable-test

all: ctest

# ---- dependencies -------------------------------------------------------
# `make deps-runtime`: what installing the package, building its vignette and
# `make cli` need (R, Rcpp, cli, zlib, knitr, rmarkdown, pandoc); `make deps`:
# that and the developers' toolchain (tools/install-deps.sh lists both sets).
deps:
	@bash tools/install-deps.sh all

deps-runtime:
	@bash tools/install-deps.sh runtime

# ---- C core -------------------------------------------------------------
$(BUILD)/core/%.o: src/core/%.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_CORE) -c $< -o $@

$(BUILD)/libexocore.a: $(patsubst src/core/%.c,$(BUILD)/core/%.o,$(CORE_SRC))
	@rm -f $@
	ar rcs $@ $^

# The runner calls every `Suite *NAME_suite(void)` defined in tests/c/test_*.c.
$(BUILD)/suites.inc: $(TEST_SRC)
	@mkdir -p $(BUILD)
	@grep -ho '^Suite \*[a-z0-9_]*_suite(void)' $(TEST_SRC) | sed 's/^Suite \*\([a-z0-9_]*\)(void)/EXO_SUITE(\1)/' > $@.tmp
	@mv $@.tmp $@

$(BUILD)/exo_tests: $(TEST_SRC) tests/c/runner.c tests/c/testutil.c tests/c/testutil.h $(BUILD)/suites.inc $(BUILD)/libexocore.a
	$(CC) $(CFLAGS_CORE) -Isrc/core -Itests/c -I$(BUILD) $(TEST_SRC) tests/c/runner.c tests/c/testutil.c \
	  $(BUILD)/libexocore.a $$(pkg-config --cflags --libs check) $(LDLIBS_CORE) -o $@

# One process per suite, CTEST_JOBS at a time (tools/run-suites.sh), the
# longest first.
CTEST_JOBS ?= $(EXO_JOBS)
ctest: $(BUILD)/exo_tests
	cd $(BUILD) && CK_FORK=yes bash $(CURDIR)/tools/run-suites.sh $(CTEST_JOBS) ./exo_tests \
	  $(abspath $(BUILD))/suites.inc sort leiden parse lp names pipeline

# ---- micro-benchmarks (benchmarks/micro/run.sh; several minutes, GiB of scratch) ----
micro:
	BUILD=$(BUILD) bash benchmarks/micro/run.sh

# ---- sanitizers ----------------------------------------------------------
# Both sanitizer builds define EXO_TEST_SANITIZED: the heaviest tests then
# take their TU_SAN(normal, sanitized) sizes (tests/c/testutil.h): smaller
# inputs, cut positions by a stride, fewer repetitions, but still threads > 1,
# several runs and merge passes, and every kind of boundary, so what the
# sanitizers find is still reached while the instrumented run (5-20x slower)
# fits CI. `make ctest` runs every test at its full size.
#
# `make sanitize`: every Check suite built with ASan + UBSan (gcc); any report
# fails the run (UBSan does not recover, ASan aborts, leaks are errors).
SAN_FLAGS := -std=c11 -D_GNU_SOURCE -DEXO_TEST_SANITIZED -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -Wall -Wextra -Wno-unused-parameter -pthread
# Both run one process per suite, SAN_JOBS at a time (tools/run-suites.sh;
# CI's background platform job runs nice'd beside them).
SAN_JOBS ?= 2
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
sanitize: $(BUILD)/suites.inc
	@mkdir -p $(BUILD)/san
	$(CC) $(SAN_FLAGS) -Isrc/core -Itests/c -I$(BUILD) $(CORE_SRC) $(TEST_SRC) tests/c/runner.c tests/c/testutil.c \
	  $$(pkg-config --cflags --libs check) $(LDLIBS_CORE) -o $(BUILD)/san/exo_tests_san
	cd $(BUILD)/san && CK_FORK=no $(SAN_ENV) bash $(CURDIR)/tools/run-suites.sh $(SAN_JOBS) ./exo_tests_san \
	  $(abspath $(BUILD))/suites.inc leiden parse sort lp pipeline names refine dist

# `make tsan`: the suites whose tests start threads (the names table's
# concurrent readers, parse workers, the run thread of the sort, the key
# ranges of its merges, the output's blocks, the pipeline using them, label
# propagation's lanes, refine's and Leiden's readers, the par pool itself,
# the bitmap's atomic set from two threads)
# built with ThreadSanitizer; any report fails the run (halt_on_error). The
# suites without threads are left to `make sanitize`.
TSAN_SUITES := names parse sort pipeline output lp refine leiden par containers
tsan:
	@mkdir -p $(BUILD)/tsan
	printf 'EXO_SUITE(%s_suite)\n' $(TSAN_SUITES) > $(BUILD)/tsan/suites.inc
	$(CC) -std=c11 -D_GNU_SOURCE -DEXO_TEST_SANITIZED -DEXO_TEST_TSAN -O1 -g -fsanitize=thread -Wall -Wextra -Wno-unused-parameter -pthread \
	  -Isrc/core -Itests/c -I$(BUILD)/tsan $(CORE_SRC) $(patsubst %,tests/c/test_%.c,$(TSAN_SUITES)) \
	  tests/c/runner.c tests/c/testutil.c $$(pkg-config --cflags --libs check) $(LDLIBS_CORE) \
	  -o $(BUILD)/tsan/exo_tests_tsan
	cd $(BUILD)/tsan && CK_FORK=no TSAN_OPTIONS=halt_on_error=1 bash $(CURDIR)/tools/run-suites.sh \
	  $(SAN_JOBS) ./exo_tests_tsan suites.inc leiden sort parse lp names pipeline

# `make valgrind`: the normal Check binary under memcheck, in one process
# (CK_FORK=no); fails on any memory error or definite leak. It takes tens of
# minutes for every suite; SUITE=name runs one (CK_RUN_SUITE).
VALGRIND_FLAGS := --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
  --show-leak-kinds=definite --track-origins=yes --quiet
SUITE ?=
valgrind: $(BUILD)/exo_tests
	cd $(BUILD) && CK_FORK=no $(if $(SUITE),CK_RUN_SUITE=$(SUITE),) valgrind $(VALGRIND_FLAGS) ./exo_tests

# `make valgrind-ci`: the memcheck run CI can afford (about a minute): the
# whole-pipeline and refine suites, and the command-line tool end to end on the
# bundled example (plain + gzip input, 2 threads, a 1MB memory limit forcing
# several runs, undirected and directed, attenuation, refine). Any memory
# error or definite leak fails it.
VG_EXAMPLE := inst/extdata/example_edges.tsv
valgrind-ci: $(BUILD)/exo_tests $(BUILD)/exolabel
	cd $(BUILD) && CK_FORK=no CK_RUN_SUITE=pipeline valgrind $(VALGRIND_FLAGS) ./exo_tests
	cd $(BUILD) && CK_FORK=no CK_RUN_SUITE=refine valgrind $(VALGRIND_FLAGS) ./exo_tests
	valgrind $(VALGRIND_FLAGS) $(BUILD)/exolabel --seed 1 --threads 2 --memory-limit 1MB \
	  --out $(BUILD)/vg-undirected.tsv $(VG_EXAMPLE) $(VG_EXAMPLE).gz
	valgrind $(VALGRIND_FLAGS) $(BUILD)/exolabel --seed 2 --directed --attenuation 1 --refine 3 \
	  --out $(BUILD)/vg-directed.tsv $(VG_EXAMPLE)
	test "$$(wc -l < $(BUILD)/vg-undirected.tsv)" -eq 200 && test "$$(wc -l < $(BUILD)/vg-directed.tsv)" -eq 200
	@echo "valgrind-ci: no memory errors, no definite leaks"

# `make cppcheck`: static analysis of the core, the glue and the harnesses;
# each remaining finding is justified in tools/cppcheck-suppressions.txt.
cppcheck:
	cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,performance,portability \
	  --inline-suppr --suppressions-list=tools/cppcheck-suppressions.txt -D__GNUC__ \
	  -Isrc/core src/core fuzz
	cppcheck --quiet --error-exitcode=1 --language=c++ --std=c++11 --enable=warning,performance,portability \
	  --inline-suppr --suppressions-list=tools/cppcheck-suppressions.txt \
	  -Isrc/core src/exolabel_glue.cpp

# ---- fuzzing (clang-14 + libFuzzer, see fuzz/README.md) --------------------
# `make fuzz`: run every harness for FUZZ_TIME seconds (nice'd), starting from
# the committed corpus; new inputs go to $(BUILD)/fuzz/corpus-*, crashes to
# $(BUILD)/fuzz/artifacts/. `make fuzz-replay`: run the committed corpus once.
FUZZ_CC ?= clang-14
FUZZ_TIME ?= 60
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=all -fno-omit-frame-pointer -pthread -Isrc/core -Ifuzz
FUZZERS := parse pipeline
$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(CORE_SRC) $(LDLIBS_CORE) -o $@

fuzz: $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZERS))
	@mkdir -p $(BUILD)/fuzz/artifacts
	set -e; for f in $(FUZZERS); do \
	  mkdir -p $(BUILD)/fuzz/corpus-$$f; \
	  nice -n 19 $(BUILD)/fuzz/fuzz_$$f -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/artifacts/$$f- \
	    $(BUILD)/fuzz/corpus-$$f fuzz/corpus/$$f; \
	done

fuzz-replay: $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZERS))
	set -e; for f in $(FUZZERS); do \
	  echo "fuzz-replay: $$f ($$(ls fuzz/corpus/$$f | wc -l) inputs)"; \
	  $(BUILD)/fuzz/fuzz_$$f -runs=0 -timeout=20 -artifact_prefix=$(BUILD)/fuzz/replay-$$f- fuzz/corpus/$$f 2>&1 | tail -n 3; \
	  test $${PIPESTATUS[0]} -eq 0; \
	done

# ---- command-line tool -----------------------------------------------------
# `make cli`: $(BUILD)/exolabel from cli/exolabel.c and the same core library.
# cli/exo_opts.c holds the exit codes the CLI and the MPI driver share; their
# options come from the core's table (src/core/exo_options.h).
CLI_SRC := cli/exolabel.c cli/exo_opts.c cli/exo_opts.h
$(BUILD)/exolabel: $(CLI_SRC) $(BUILD)/libexocore.a $(CORE_HDR)
	$(CC) $(CFLAGS_CORE) -Isrc/core cli/exolabel.c cli/exo_opts.c $(BUILD)/libexocore.a $(LDLIBS_CORE) -o $@

cli: $(BUILD)/exolabel

# ---- other platforms (src/core/exo_platform.h) ------------------------------
# `make win-test`: the core, the CLI and the C test runner cross-compiled for
# 64-bit Windows with MinGW-w64 (static: zlib and winpthreads inside the .exe),
# then run under Wine: the C tests (tests/c/minicheck stands in for Check,
# which Debian ships for the build machine only) and the CLI compared byte for
# byte with the Linux build (tools/platform-check.sh). WINEPREFIX lives in
# $(BUILD)/wineprefix; the first run creates it.
# `make portable-test`: the same core built with -DEXO_PORTABLE and without
# _GNU_SOURCE (no fallocate, sync_file_range, posix_fadvise, preadv2, mremap,
# MADV_HUGEPAGE: the code a macOS build takes), every C suite with Check, and
# the same CLI comparisons. Check's timeouts are stretched 4x: this runs
# nice'd at the end of CI, and under heavy load the io tests (4 s default)
# once timed out here (load average 35) while the whole io suite takes
# 0.7 s of CPU.
MINGW_CC ?= x86_64-w64-mingw32-gcc
WIN_CFLAGS := -std=c11 -D__USE_MINGW_ANSI_STDIO=1 -O2 -g -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread
WIN_LDLIBS := -static -lz -pthread
$(BUILD)/win/core/%.o: src/core/%.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(MINGW_CC) $(WIN_CFLAGS) -c $< -o $@

$(BUILD)/win/libexocore.a: $(patsubst src/core/%.c,$(BUILD)/win/core/%.o,$(CORE_SRC))
	@rm -f $@
	x86_64-w64-mingw32-ar rcs $@ $^

$(BUILD)/win/exolabel.exe: $(CLI_SRC) $(BUILD)/win/libexocore.a $(CORE_HDR)
	$(MINGW_CC) $(WIN_CFLAGS) -Isrc/core cli/exolabel.c cli/exo_opts.c $(BUILD)/win/libexocore.a $(WIN_LDLIBS) -o $@

$(BUILD)/win/exo_tests.exe: $(TEST_SRC) tests/c/runner.c tests/c/testutil.c tests/c/testutil.h \
  tests/c/minicheck/check.h tests/c/minicheck/minicheck.c $(BUILD)/suites.inc $(BUILD)/win/libexocore.a
	$(MINGW_CC) $(WIN_CFLAGS) -DEXO_TEST_SANITIZED -DEXO_TEST_WINE -Itests/c/minicheck -Isrc/core -Itests/c -I$(BUILD) $(TEST_SRC) tests/c/runner.c \
	  tests/c/testutil.c tests/c/minicheck/minicheck.c $(BUILD)/win/libexocore.a $(WIN_LDLIBS) -o $@

# The test runner takes the sanitizer steps' reduced sizes (TU_SAN,
# tests/c/testutil.h): under Wine every file operation goes through its file
# server, and the full sizes kept one core busy for about 23 minutes of CI.
# Left out under Wine (they pass there, but Wine's file server makes them too
# slow for CI; both run in every Linux build):
#   parallel_every_boundary  ~6,000 parses, each with its threads and files: 385 s
#   background_runs          12,000 run files and 14 merge passes: > 10 min
WIN_SKIP := parallel_every_boundary,background_runs
win-test: $(BUILD)/win/exo_tests.exe $(BUILD)/win/exolabel.exe $(BUILD)/exolabel
	MINICHECK_SKIP=$(WIN_SKIP) MINICHECK_TIMES=1 nice -n 10 bash tools/platform-check.sh win $(BUILD)

PORTABLE_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -DEXO_PORTABLE -O2 -g -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread
$(BUILD)/portable/core/%.o: src/core/%.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(PORTABLE_CFLAGS) -c $< -o $@

$(BUILD)/portable/libexocore.a: $(patsubst src/core/%.c,$(BUILD)/portable/core/%.o,$(CORE_SRC))
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/portable/exolabel: $(CLI_SRC) $(BUILD)/portable/libexocore.a $(CORE_HDR)
	$(CC) $(PORTABLE_CFLAGS) -Isrc/core cli/exolabel.c cli/exo_opts.c $(BUILD)/portable/libexocore.a $(LDLIBS_CORE) -o $@

# The portable build's tests take the reduced sizes of the sanitizer builds
# (TU_SAN, tests/c/testutil.h): what differs there is the platform layer's
# fallbacks, which the smaller inputs reach as the full ones do.
$(BUILD)/portable/exo_tests: $(TEST_SRC) tests/c/runner.c tests/c/testutil.c tests/c/testutil.h $(BUILD)/suites.inc $(BUILD)/portable/libexocore.a
	$(CC) $(PORTABLE_CFLAGS) -D_GNU_SOURCE -DEXO_TEST_SANITIZED -Isrc/core -Itests/c -I$(BUILD) $(TEST_SRC) tests/c/runner.c tests/c/testutil.c \
	  $(BUILD)/portable/libexocore.a $$(pkg-config --cflags --libs check) $(LDLIBS_CORE) -o $@

LINUX_ONLY_SYMS := fallocate|sync_file_range|posix_fadvise|preadv2|mremap|madvise|O_DIRECT
portable-test: $(BUILD)/portable/exo_tests $(BUILD)/portable/exolabel $(BUILD)/exolabel
	@if nm -u $(BUILD)/portable/libexocore.a | grep -E '$(LINUX_ONLY_SYMS)'; then \
	  echo "portable-test: the portable core calls Linux-only functions (above)"; exit 1; fi
	cd $(BUILD)/portable && CK_FORK=yes CK_TIMEOUT_MULTIPLIER=4 nice -n 10 ./exo_tests
	nice -n 10 bash tools/platform-check.sh portable $(BUILD)
# ---- MPI mode (src/core/exo_dist.h, mpi/exolabel_mpi.c) -----------------------
# `make mpi`: $(BUILD)/exolabel-mpi, the core library linked with mpicc.
# `make mpi-test`: tests/mpi/run.sh (P = 1, 2, 4 against the CLI, seeds, a
# killed rank, a malformed line); about a minute.
# `make mpi-bench`: benchmarks/mpi/run.sh (per-rank and per-superstep figures
# for P = 1, 2, 4; MPI_BENCH_EDGES edges, default 20M).
MPICC ?= mpicc
$(BUILD)/exolabel-mpi: mpi/exolabel_mpi.c cli/exo_opts.c cli/exo_opts.h $(BUILD)/libexocore.a $(CORE_HDR)
	$(MPICC) $(CFLAGS_CORE) -Isrc/core -Icli mpi/exolabel_mpi.c cli/exo_opts.c $(BUILD)/libexocore.a $(LDLIBS_CORE) -o $@

mpi: $(BUILD)/exolabel-mpi

mpi-test: deps
	$(MAKE) mpi cli BUILD=$(BUILD)
	BUILD=$(abspath $(BUILD)) bash tests/mpi/run.sh
	BUILD=$(abspath $(BUILD)) bash tests/ref/run.sh

# `make ref-test`: tests/ref/run.sh, every stage's output (label propagation,
# Leiden, refine, the MPI mode at P = 1) on seeded generated graphs compared
# byte for byte (md5) with tests/ref/expected.md5; about 10 s. `make test`
# and `make mpi-test` run it too (so CI does).
ref-test:
	$(MAKE) cli BUILD=$(BUILD)
	-$(MAKE) mpi BUILD=$(BUILD)
	BUILD=$(abspath $(BUILD)) bash tests/ref/run.sh

MPI_BENCH_EDGES ?= 20000000
mpi-bench: deps
	$(MAKE) mpi cli BUILD=$(BUILD)
	BUILD=$(abspath $(BUILD)) EDGES=$(MPI_BENCH_EDGES) bash benchmarks/mpi/run.sh

# ---- R package -------------------------------------------------------------
# Regenerate RcppExports, man/ and NAMESPACE from the sources.
roxygen:
	$(RSCRIPT) -e 'Rcpp::compileAttributes(".")'
	$(RSCRIPT) -e 'roxygen2::roxygenise(".", load_code = roxygen2::load_source)'

# Install from a copy of the tree, so the source tree gets no object files:
# R CMD build (which builds the vignette) and R CMD INSTALL of its tarball,
# so that vignette("ExoLabel") works after make install / make demo.
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
PKG_TARBALL := $(BUILD)/pkgsrc/ExoLabel_$(VERSION).tar.gz
install: deps-runtime
	@mkdir -p $(BUILD)/pkgsrc $(if $(RLIB),$(RLIB),)
	rsync -a --delete --exclude '.git' --exclude 'build' --exclude '*.o' --exclude '*.so' \
	  --exclude 'benchmarks' --exclude 'tests/c' --exclude 'fuzz' ./ $(BUILD)/pkgsrc/ExoLabel/
	rm -f $(BUILD)/pkgsrc/ExoLabel_*.tar.gz
	cd $(BUILD)/pkgsrc && $(R_LIBS_ENV) $(R_JOBS_ENV) $(R) CMD build --no-manual ExoLabel
	$(R_LIBS_ENV) $(R_JOBS_ENV) $(R) CMD INSTALL --no-multiarch $(if $(RLIB),-l $(RLIB),) $(PKG_TARBALL)

# `make install-test`: the tarball of the last make install (made first when
# there is none) installed into a fresh library, with only the runtime R
# packages of tools/install-deps.sh visible; there it loads, clusters both
# bundled examples and has its vignette and help (tools/install-test.sh;
# one compile, under a minute).
install-test:
	@test -f $(PKG_TARBALL) || $(MAKE) install BUILD=$(BUILD) RLIB=$(RLIB)
	$(R_JOBS_ENV) bash tools/install-test.sh $(PKG_TARBALL)

demo: install
	$(R_LIBS_ENV) $(RSCRIPT) -e 'library(ExoLabel); cat("vignette:", vignette(package = "ExoLabel")$$results[, "Item"], "(read it with vignette(\"ExoLabel\"))\n"); f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel"); set.seed(1); res <- ExoLabel(f, return_table = TRUE, verbose = TRUE); print(res$$graph_stats); cat("clusters:", length(unique(res$$results$$Cluster)), "\n"); print(head(res$$results, 10)); print(table(cluster_size = table(res$$results$$Cluster)))'

# The R tests also check the command-line tool and exolabel-mpi against the
# R function (tests/testthat/test-options-parity.R), so both are built first.
rtest: deps install cli mpi
	$(R_LIBS_ENV) EXOLABEL_CLI=$(abspath $(BUILD))/exolabel \
	  EXOLABEL_MPI=$(abspath $(BUILD))/exolabel-mpi \
	  $(RSCRIPT) tools/run-r-tests.R

# `make options-test`: the R function, exolabel and exolabel-mpi (mpirun -n 1)
# given the same options give the core the same (EXOLABEL_DUMP_OPTIONS) and the
# same error messages (tests/testthat/test-options-parity.R).
options-test: deps install cli mpi
	$(R_LIBS_ENV) EXOLABEL_CLI=$(abspath $(BUILD))/exolabel EXOLABEL_MPI=$(abspath $(BUILD))/exolabel-mpi \
	  $(RSCRIPT) -e 'library(testthat); library(ExoLabel); r <- as.data.frame(test_file("tests/testthat/test-options-parity.R")); if (any(r$$failed > 0 | r$$error)) quit(status = 1)'

# C unit tests (Check), the reference outputs (tests/ref, make ref-test), the
# R tests (testthat), then the install into a fresh library with the runtime
# dependencies only (CI runs this first).
test: deps
	$(MAKE) ctest BUILD=$(BUILD)
	$(MAKE) ref-test BUILD=$(BUILD)
	$(MAKE) rtest BUILD=$(BUILD) RLIB=$(RLIB)
	$(MAKE) install-test BUILD=$(BUILD) RLIB=$(RLIB)

# Accuracy benchmark against planted truth and igraph: regenerates
# benchmarks/QUALITY.md, benchmarks/quality.png and benchmarks/quality/results.csv
# (about 20-30 minutes; QUALITY_SCALE=quick for a 1-minute subset).
QUALITY_SCALE ?= full
quality: deps install
	@mkdir -p $(BUILD)/quality-work
	$(CC) -std=c11 -O2 -Wall -Wextra -o $(BUILD)/exogen benchmarks/gen/exogen.c -lz -lm
	$(R_LIBS_ENV) $(RSCRIPT) benchmarks/quality/run.R --exogen $(BUILD)/exogen \
	  --work $(BUILD)/quality-work --scale $(QUALITY_SCALE) --out benchmarks/quality/results.csv
	$(R_LIBS_ENV) $(RSCRIPT) benchmarks/quality/refine_timing.R $(BUILD)/exogen \
	  $(BUILD)/quality-work 1e5 > benchmarks/quality/refine_timing.txt
	$(R_LIBS_ENV) $(RSCRIPT) benchmarks/quality/report.R benchmarks/quality/results.csv \
	  benchmarks/QUALITY.md benchmarks/quality.png benchmarks/quality/notes.md

# `make check`: R CMD build, R CMD check --as-cran and BiocCheck on a copy of
# the tree in $(BUILD)/check; fails on any ERROR or WARNING (NOTEs are listed
# and explained in the README). CHECK_ARGS go to R CMD check: CI gives
# --no-tests, since its `make test` has just run the same tests/testthat
# files on a package built from the same tree.
CHECK_ARGS ?=
check: deps
	rm -rf $(BUILD)/check && mkdir -p $(BUILD)/check/src
	rsync -a --exclude '.git' --exclude 'build' --exclude '*.o' --exclude '*.so' \
	  ./ $(BUILD)/check/src/ExoLabel/
	cd $(BUILD)/check && $(R_LIBS_ENV) $(R_JOBS_ENV) $(R) CMD build src/ExoLabel
	cd $(BUILD)/check && $(R_LIBS_ENV) $(R_JOBS_ENV) _R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_SYSTEM_CLOCK_=false \
	  $(R) CMD check --as-cran --no-manual $(CHECK_ARGS) ExoLabel_*.tar.gz
	@! grep -E '^Status:.*(ERROR|WARNING)' $(BUILD)/check/ExoLabel.Rcheck/00check.log
	cd $(BUILD)/check && $(R_LIBS_ENV) $(R_JOBS_ENV) $(RSCRIPT) $(CURDIR)/tools/bioccheck.R ExoLabel_*.tar.gz

# ---- benchmarks -----------------------------------------------------------
# make bench [SIZE=large] [REPS=3] [BENCH_DIR=/tmp/exolabel-bench]: generated
# graphs of 1M and 20M edges (100M with SIZE=large) end to end against raw
# baselines; medians go into benchmarks/RESULTS.md (see benchmarks/bench/run.sh).
SIZE ?= small
bench: deps install
	BUILD=$(BUILD) RLIB=$(RLIB) SIZE=$(SIZE) bash benchmarks/bench/run.sh

# make leiden-bench [LEIDEN_BENCH=20m|all] [REPS=3]: the Leiden figures of
# benchmarks/quality/LEIDEN.md (Leiden against the label-propagation defaults
# and against fread + igraph's cluster_leiden on the 20M-edge graph; with
# all, the 100M-edge graph under a 1 GiB cgroup v1 cap, as root); see
# benchmarks/bench/leiden_run.sh. Not part of CI.
LEIDEN_BENCH ?= 20m
leiden-bench: deps install
	BUILD=$(BUILD) RLIB=$(RLIB) bash benchmarks/bench/leiden_run.sh $(LEIDEN_BENCH)

# make profile [PROFILE_FILE=...] [THREADS=2]: corebench (the C pipeline
# without R) on the 20M-edge bench graph under `perf record -g`, then the
# top functions per thread (perf report); needs perf
# (benchmarks/bench/install-profiler.sh) and the graph from `make bench`.
PROFILE_FILE ?= /tmp/exolabel-bench/g20m.tsv
THREADS ?= 2
profile: $(BUILD)/libexocore.a
	bash benchmarks/bench/install-profiler.sh
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -g -Isrc/core benchmarks/bench/corebench.c $(BUILD)/libexocore.a \
	  $(LDLIBS_CORE) -o $(BUILD)/corebench
	perf record -g -o $(BUILD)/perf.data $(BUILD)/corebench $(PROFILE_FILE) 256 $(THREADS) 1
	perf report -i $(BUILD)/perf.data --no-children --sort comm,symbol --stdio 2> /dev/null | head -60

# make ssn-bench [SETS="scop40 scop40_fusions swissprot_ec balifam 10000 100000"] [REPS=3]: real
# (SCOP40 domains, from shared/data beside the repository, alone and with
# 1,500 two-domain fusions as bridges (make_fusions.R); Swiss-Prot
# enzymes, from benchmarks/ssn-data) and simulated protein families
# searched all against all with DIAMOND and MMseqs2 (installed by
# tools/install-bench-deps.sh), clustered by ExoLabel, MCL and igraph;
# writes benchmarks/SSN.md and benchmarks/ssn/*.csv (benchmarks/ssn/run.sh;
# the 10^5 searches take hours on a loaded 2-core machine).
ssn-bench: deps install cli
	BUILD=$(BUILD) RLIB=$(RLIB) bash benchmarks/ssn/run.sh
	BUILD=$(BUILD) RLIB=$(RLIB) bash benchmarks/grow/run.sh

# growing a clustering (issue 57): updates, stable ids, nested levels
# (benchmarks/GROW.md; also the last step of ssn-bench)
grow-bench: deps install cli
	BUILD=$(BUILD) RLIB=$(RLIB) bash benchmarks/grow/run.sh

clean:
	rm -rf $(BUILD) src/*.o src/*.so src/core/*.o

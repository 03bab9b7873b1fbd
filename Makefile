# ExoLabel developer Makefile.
#   make demo      install dependencies, build and install the package, cluster the bundled example
#   make test      install dependencies, run the C unit tests (Check) and the R tests (testthat)
#   make ctest     only the C unit tests
#   make cli       the standalone command-line tool build/exolabel
#   make sanitize  C unit tests under AddressSanitizer + UBSan
SHELL := /bin/bash
R ?= R
RSCRIPT ?= Rscript
CC ?= gcc
# BUILD and RLIB can be set per person (make test BUILD=/tmp/b RLIB=/tmp/lib)
# so that several builds of one tree never share object files or libraries.
BUILD ?= build
RLIB ?=
R_LIBS_ENV := $(if $(RLIB),R_LIBS=$(RLIB):$$R_LIBS,)
CORE_SRC := $(wildcard src/core/*.c)
CORE_HDR := $(wildcard src/core/*.h)
TEST_SRC := $(wildcard tests/c/test_*.c)
CFLAGS_CORE := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread
LDLIBS_CORE := -lz -lm -pthread

.PHONY: all deps demo test ctest rtest cli sanitize install roxygen clean

all: ctest

# ---- dependencies -------------------------------------------------------
deps:
	@bash tools/install-deps.sh

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

ctest: $(BUILD)/exo_tests
	cd $(BUILD) && CK_FORK=yes ./exo_tests

# ---- sanitizers ----------------------------------------------------------
SAN_FLAGS := -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -pthread
sanitize: $(BUILD)/suites.inc
	@mkdir -p $(BUILD)/san
	$(CC) $(SAN_FLAGS) -Isrc/core -Itests/c -I$(BUILD) $(CORE_SRC) $(TEST_SRC) tests/c/runner.c tests/c/testutil.c \
	  $$(pkg-config --cflags --libs check) $(LDLIBS_CORE) -o $(BUILD)/san/exo_tests_san
	cd $(BUILD)/san && CK_FORK=no ASAN_OPTIONS=detect_leaks=1 ./exo_tests_san

# ---- R package -------------------------------------------------------------
# Regenerate RcppExports, man/ and NAMESPACE from the sources.
roxygen:
	$(RSCRIPT) -e 'Rcpp::compileAttributes(".")'
	$(RSCRIPT) -e 'roxygen2::roxygenise(".", load_code = roxygen2::load_source)'

# Install from a copy of the tree, so the source tree gets no object files.
install: deps
	@mkdir -p $(BUILD)/pkgsrc $(if $(RLIB),$(RLIB),)
	rsync -a --delete --exclude '.git' --exclude 'build' --exclude '*.o' --exclude '*.so' \
	  --exclude 'benchmarks' --exclude 'tests/c' --exclude 'fuzz' ./ $(BUILD)/pkgsrc/ExoLabel/
	$(R) CMD INSTALL --no-multiarch $(if $(RLIB),-l $(RLIB),) $(BUILD)/pkgsrc/ExoLabel

demo: install
	$(R_LIBS_ENV) $(RSCRIPT) -e 'library(ExoLabel); f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel"); set.seed(1); res <- ExoLabel(f, return_table = TRUE, verbose = TRUE); print(res$$graph_stats); cat("clusters:", length(unique(res$$results$$Cluster)), "\n"); print(head(res$$results, 10)); print(table(cluster_size = table(res$$results$$Cluster)))'

rtest: install
	$(R_LIBS_ENV) $(RSCRIPT) tools/run-r-tests.R

# Everything CI runs: C unit tests (Check) then the R tests (testthat).
test: deps
	$(MAKE) ctest BUILD=$(BUILD)
	$(MAKE) rtest BUILD=$(BUILD) RLIB=$(RLIB)

clean:
	rm -rf $(BUILD) src/*.o src/*.so src/core/*.o

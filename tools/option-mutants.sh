#!/usr/bin/env bash
# tools/option-mutants.sh: the mutation table of the options (issue 56).
#
# Each mutant removes one option's effect: the line of src/core/exo_options.c
# that hands the option's value to the core's structs (exo_options_fill_*),
# or the line of a module that applies it, is replaced by the option's
# default, so every driver runs as if the option had not been given. For
# each mutant the script applies it to a private clone of the working tree's
# HEAD, builds, and runs the tests in tiers, stopping at the first that
# fails:
#   1. tests/ref (make ref-test: the CLI's outputs byte for byte);
#   2. the testthat files named in the mutant's row, against the mutated
#      package (R CMD INSTALL of the clone, incremental after the first).
# A mutant no test catches is a hole; the script exits non-zero when there
# is one. The C suite `options` (which compares the filled structs, not
# results) is deliberately not a tier: the point is a test of the effect.
#
#   bash tools/option-mutants.sh [NAME ...]     every mutant, or those named
#
# Output: one line per mutant "name | caught by | file:test"; the whole
# table in $OUTDIR/mutants.md (default: the clone's parent, printed at the
# end). It takes about a minute per mutant on 2 cores.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${MUTANT_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/exolabel-mutants.XXXXXX")}
OUTDIR=${OUTDIR:-$WORK}
CLONE=$WORK/src
BUILD=$WORK/build
RLIB=$WORK/lib
mkdir -p "$BUILD" "$RLIB"

# name | file | sed expression (one line) | testthat files (space separated)
MUTANTS=(
  "mode|src/core/exo_options.c|s/(int)o->num\[EXO_OPT_MODE\] == 1;/0;/|test-semantics.R test-clustering.R"
  "add_self_loops|src/core/exo_options.c|s/p->self_loop_cutoff = o->num\[EXO_OPT_ADD_SELF_LOOPS\];/p->self_loop_cutoff = 0;/|test-semantics.R test-compat.R"
  "attenuation|src/core/exo_options.c|s/p->attenuation = o->num\[EXO_OPT_ATTENUATION\];/p->attenuation = 0;/|test-attenuation-effect.R"
  "attenuation_lp|src/core/exo_lp.c|s/st.att = params->attenuation;/st.att = 0;/|test-attenuation-effect.R"
  "ignore_weights|src/core/exo_options.c|s/p->ignore_weights = o->num\[EXO_OPT_IGNORE_WEIGHTS\] != 0;/p->ignore_weights = 0;/|test-options.R test-inputs.R"
  "iterations_lp|src/core/exo_options.c|s/p->max_visits = (uint32_t)o->whole\[EXO_OPT_ITERATIONS\];/p->max_visits = 0;/|test-semantics.R test-clustering.R"
  "iterations_leiden|src/core/exo_options.c|s/l->iterations = o->whole\[EXO_OPT_ITERATIONS\] ?/l->iterations = 0 ?/|test-leiden.R"
  "resolution_refine|src/core/exo_options.c|s/r->resolution = o->num\[EXO_OPT_RESOLUTION\];/r->resolution = 1;/|test-clustering.R"
  "refine|src/core/exo_options.c|s/r->passes = (uint32_t)o->whole\[EXO_OPT_REFINE\];/r->passes = 0;/|test-clustering.R test-quality.R"
  "objective|src/core/exo_options.c|s/(int)o->num\[EXO_OPT_OBJECTIVE\] == EXO_OPT_CPM ?/0 ?/|test-leiden.R"
  "resolution_lp|src/core/exo_options.c|s/p->resolution = o->num\[EXO_OPT_RESOLUTION\];/p->resolution = 1;/|test-clustering.R test-semantics.R"
  "resolution_leiden|src/core/exo_options.c|s/l->resolution = o->num\[EXO_OPT_RESOLUTION\];/l->resolution = 1;/|test-leiden.R"
  "seed_lp|src/core/exo_options.c|s/p->seed = o->whole\[EXO_OPT_SEED\];/p->seed = 1;/|test-clustering.R test-semantics.R"
  "seed_leiden|src/core/exo_options.c|s/l->seed = o->whole\[EXO_OPT_SEED\];/l->seed = 1;/|test-leiden.R"
  "sep|src/core/exo_options.c|s/p->sep = (char)(int)o->num\[EXO_OPT_SEP\];/p->sep = '\\\\t';/|test-inputs.R test-compat.R"
  "header|src/core/exo_options.c|s/p->header_lines = o->whole\[EXO_OPT_HEADER\];/p->header_lines = 0;/|test-inputs.R test-compat.R"
  "columns|src/core/exo_options.c|s/p->col_w = o->rcols\[2\];/p->col_w = 3;/|test-search-output.R"
  "weight_transform|src/core/exo_options.c|s/p->transform = (exo_weight_transform)o->transform;/p->transform = EXO_WT_NONE;/|test-search-output.R test-selfnorm.R"
  "min_weight|src/core/exo_options.c|s/b->min_weight = (float)o->num\[EXO_OPT_MIN_WEIGHT\];/b->min_weight = 0;/|test-search-output.R"
  "self_hits|src/core/exo_options.c|s/b->drop_self_loops = o->drop_self;/b->drop_self_loops = 0;/|test-search-output.R"
  "combine|src/core/exo_options.c|s/b->combine = (exo_combine)o->combine;/b->combine = 0;/|test-search-output.R"
  "order|src/core/exo_options.c|s/b->order_by_name = (int)o->num\[EXO_OPT_ORDER\] == EXO_OPT_BY_NAME;/b->order_by_name = 0;/|test-sequences.R test-results-api.R"
  "bridges|src/core/exo_options.c|s/b->regions = b->weak_hits = o->bridges > 0;/b->regions = b->weak_hits = 0;/|test-regions.R test-weak-bridge.R"
  "initial|src/core/exo_options.h|s/return p \&\& \*p ? p : NULL;/return NULL;/|test-initial.R"
  "initial_stable_ids|src/core/exo_pipeline.c|s/  if (!g->stable_old) {/  if (1) {/|test-initial.R"
  "initial_iterations|src/core/exo_options.c|s/: from_initial                ? 1u/: 0 ? 1u/|test-initial.R"
  "resolution_auto_scale|src/core/exo_options.c|s/auto_factor \* o->auto_scale;/auto_factor;/|test-example-diamond.R"
  "keep_graph|src/core/exo_options.c|s/? o->paths\[EXO_OPT_KEEP_GRAPH\] : NULL;/? NULL : NULL;/|test-keep-graph.R"
  "graph|src/core/exo_options.c|s/b->graph = o->paths\[EXO_OPT_GRAPH\] \&\& /b->graph = 0 \&\& /|test-keep-graph.R"
  "nested_cut|src/core/exo_nested.c|s/mode == EXO_NESTED_SPLIT \&\& !s \&\& k-- > 0;)/0 \&\& !s \&\& k-- > 0;)/|test-nested.R"
)

rm -rf "$CLONE"
git clone -q --no-hardlinks "$ROOT" "$CLONE" || exit 1
( cd "$ROOT" && git rev-parse --short HEAD ) > "$WORK/commit"
echo "option-mutants: clone of $(cat "$WORK/commit") in $CLONE"

want=("$@")
selected() {
  [ ${#want[@]} -eq 0 ] && return 0
  local w
  for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done
  return 1
}

table=$OUTDIR/mutants.md
{
  echo "| option (mutant) | file | caught by | test |"
  echo "|---|---|---|---|"
} > "$table"
holes=0
for row in "${MUTANTS[@]}"; do
  IFS='|' read -r name file expr rfiles <<< "$row"
  selected "$name" || continue
  ( cd "$CLONE" && git checkout -q -- . )
  sed -i "$expr" "$CLONE/$file"
  if ( cd "$CLONE" && git diff --quiet -- "$file" ); then
    echo "$name | NOT APPLIED (the line was not found: update the mutant)"
    echo "| $name | $file | not applied | |" >> "$table"
    holes=$((holes + 1))
    continue
  fi
  if ! make -C "$CLONE" cli BUILD="$BUILD" > "$WORK/$name.build.log" 2>&1; then
    echo "$name | does not build (see $WORK/$name.build.log)"
    echo "| $name | $file | does not build | |" >> "$table"
    continue
  fi
  caught=""
  test_name=""
  if ! BUILD="$BUILD" bash "$CLONE/tests/ref/run.sh" > "$WORK/$name.ref.log" 2>&1; then
    caught="tests/ref"
    test_name="$(grep -c '^FAIL' "$WORK/$name.ref.log") case(s) differ, first $(grep -m1 '^FAIL' "$WORK/$name.ref.log" | cut -d' ' -f2 | tr -d :)"
  fi
  if [ -z "$caught" ]; then
    if ! R CMD INSTALL --no-docs --no-test-load --no-byte-compile -l "$RLIB" "$CLONE" \
        > "$WORK/$name.install.log" 2>&1; then
      echo "$name | the package does not install (see $WORK/$name.install.log)"
      echo "| $name | $file | does not install | |" >> "$table"
      continue
    fi
    for f in $rfiles; do
      if ! ( cd "$CLONE/tests/testthat" && R_LIBS="$RLIB" EXOLABEL_CLI="$BUILD/exolabel" \
             Rscript -e 'suppressPackageStartupMessages({library(testthat); library(ExoLabel)})
               r <- as.data.frame(testthat::test_file(commandArgs(TRUE)[1], package = "ExoLabel",
                     load_package = "installed", reporter = "silent", stop_on_failure = FALSE))
               bad <- r$failed > 0 | r$error
               if (any(bad)) { cat("FAILED:", r$test[bad][1], "\n"); quit(status = 1) }' "$f" \
             > "$WORK/$name.$f.log" 2>&1 ); then
        caught="testthat $f"
        test_name=$(grep -m1 '^FAILED:' "$WORK/$name.$f.log" | sed 's/^FAILED: //')
        break
      fi
    done
  fi
  if [ -z "$caught" ]; then
    holes=$((holes + 1))
    echo "$name | NOT CAUGHT"
    echo "| $name | $file | **not caught** | |" >> "$table"
  else
    echo "$name | $caught | $test_name"
    echo "| $name | $file | $caught | $test_name |" >> "$table"
  fi
done
echo "option-mutants: table in $table; $holes mutant(s) not caught"
[ "$holes" -eq 0 ]

# Options defined once (issue 26): every driver (the R function, the CLI and
# exolabel-mpi) parses its options through the core's table
# (src/core/exo_options.h). With EXOLABEL_DUMP_OPTIONS=FILE each writes the
# options the core receives (resolved, canonical) to FILE and stops; these
# tests give the same option set to every driver and compare the dumps, and
# compare the error messages of a bad value of each type. exolabel-mpi runs
# under mpirun when EXOLABEL_MPI names it (make rtest and make options-test
# build it and set it); otherwise R and the CLI are compared and the test is
# reported as skipped, naming what it left out.

mpi_path <- function() {
    p <- Sys.getenv("EXOLABEL_MPI")
    if (!nzchar(p) || !file.exists(p) || !nzchar(Sys.which("mpirun"))) return(NULL)
    p
}

# After the R and CLI comparisons of a test: a visible skip when
# exolabel-mpi was not compared.
skip_without_mpi <- function(mpi) {
    if (is.null(mpi))
        skip("exolabel-mpi not compared: EXOLABEL_MPI does not name it, or no mpirun")
}

# The dump of one driver: R (args a list), "cli" or "mpi" (args a character
# vector). For errors: list(error = message).
dump_r <- function(args, seed) {
    f <- tempfile("dump")
    on.exit(unlink(f))
    withr::local_envvar(EXOLABEL_DUMP_OPTIONS = f)
    set.seed(seed)
    msg <- tryCatch({
        suppressWarnings(do.call(ExoLabel, args))
        "no error"
    }, error = conditionMessage)
    if (!file.exists(f)) return(list(error = msg))
    expect_match(msg, "stopped after writing the options", fixed = TRUE)
    readLines(f)
}

dump_prog <- function(prog, args, mpi = FALSE) {
    f <- tempfile("dump")
    err <- tempfile("err")
    on.exit(unlink(c(f, err)))
    cmd <- if (mpi) "mpirun" else prog
    argv <- if (mpi) c("-n", "1", "--oversubscribe", "--allow-run-as-root", prog, args) else args
    status <- withr::with_envvar(c(EXOLABEL_DUMP_OPTIONS = f),
                                 system2(cmd, shQuote(argv), stdout = FALSE, stderr = err))
    if (status != 0 || !file.exists(f))
        return(list(error = readLines(err), status = status))
    readLines(f)
}

# The seed ExoLabel() draws after set.seed(seed) (R/ExoLabel.R)
r_seed <- function(seed) {
    set.seed(seed)
    format(floor(stats::runif(1) * 2^53), scientific = FALSE)
}

# One option set: the R arguments and the same options on the command line.
cases <- function(f, d) {
    list(
        defaults = list(r = list(f, tempfiledir = d), cli = character(), mpi = TRUE),
        sizes_and_case = list(
            r = list(f, tempfiledir = d, memory_limit = "512MiB", algorithm = "LEIDEN",
                     objective = "Cpm", resolution = 0.25, iterations = 7L, mode = "dir",
                     header = TRUE, sep = ","),
            cli = c("--memory-limit", "512MiB", "--algorithm", "LEIDEN", "--objective", "Cpm",
                    "--resolution", "0.25", "--iterations", "7", "--mode", "dir",
                    "--header", "TRUE", "--sep", "comma"),
            mpi = FALSE),
        size_bytes = list(
            r = list(f, tempfiledir = d, memory_limit = 3 * 2^20 + 5, ignore_weights = TRUE,
                     add_self_loops = 0.5, attenuation = 0.25, refine = TRUE),
            cli = c("--memory-limit", "3145733", "--ignore-weights", "--add-self-loops", "0.5",
                    "--attenuation", "0.25", "--refine", "true"),
            mpi = FALSE),
        blast_lp = list(
            r = list(f, tempfiledir = d, format = "Blast", algorithm = "lp", min_weight = 2.5,
                     self_hits = "KEEP", combine = "Sum", memory_limit = "1.5G",
                     iterations = 40000, threads = 1, weight_transform = "negLog",
                     bridges = "keep"),
            cli = c("--format", "Blast", "--algorithm", "lp", "--bridges", "keep", "--min-weight", "2.5",
                    "--self-hits", "KEEP", "--combine", "Sum", "--memory-limit", "1.5G",
                    "--iterations", "40000", "--threads", "1", "--weight-transform", "negLog"),
            mpi = TRUE),
        blast_selfnorm = list(
            r = list(f, tempfiledir = d, format = "blast"),
            cli = c("--format", "blast"),
            mpi = FALSE),
        auto_scaled = list(
            r = list(f, tempfiledir = d, format = "blast", algorithm = "leiden",
                     objective = "CPM", resolution = "Auto/8"),
            cli = c("--format", "blast", "--algorithm", "leiden", "--objective", "cpm",
                    "--resolution", "Auto/8"),
            mpi = FALSE),
        blast_default = list(
            r = list(f, tempfiledir = d, format = "blast", columns = c(2, 1, 12),
                     weight_transform = "None"),
            cli = c("--format", "blast", "--columns", "2,1,12", "--weight-transform", "None"),
            mpi = FALSE),
        components = list(
            r = list(f, tempfiledir = d, algorithm = "Comp", threads = 2),
            cli = c("--algorithm", "Comp", "--threads", "2"),
            mpi = FALSE),
        columns_two = list(
            r = list(f, tempfiledir = d, columns = c(1, 2), resolution = 0, mode = "directed"),
            cli = c("--columns", "1,2", "--resolution", "0", "-d"),
            mpi = TRUE)
    )
}

test_that("every driver gives the core the same options (EXOLABEL_DUMP_OPTIONS)", {
    skip_on_os("windows")
    cli <- cli_path()
    mpi <- mpi_path()
    d <- normalizePath(tempdir())
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    cores <- ExoLabel:::.exolabel_cores()
    cs <- cases(f, d)
    for (k in seq_along(cs)) {
        cs_k <- cs[[k]]
        seed <- 100 + k
        r <- dump_r(cs_k$r, seed)
        expect_true(is.character(r) && length(r) > 20, info = names(cs)[k])
        args <- c(cs_k$cli, "--tempdir", d, "--seed", r_seed(seed))
        c1 <- dump_prog(cli, c(args, f))
        expect_identical(c1, r, info = paste("CLI vs R:", names(cs)[k]))
        if (!is.null(mpi) && cs_k$mpi) {
            # exolabel-mpi's own default is one thread per rank: given here
            margs <- c(args, if (!"--threads" %in% args) c("--threads", cores), "-o",
                       file.path(d, "never-written.tsv"))
            m <- dump_prog(mpi, c(margs, f), mpi = TRUE)
            # and label propagation with no merge passes over ranks: its
            # algorithm and refine are set as if given (lp, 0); R leaves the
            # ones its user did not give to the core's rules
            own <- list(algorithm = "lp", refine = FALSE)
            own <- own[setdiff(names(own), names(cs_k$r))]
            r_m <- if (length(own)) dump_r(c(cs_k$r, own), seed) else r
            expect_identical(m, r_m, info = paste("exolabel-mpi vs R:", names(cs)[k]))
        }
    }
    skip_without_mpi(mpi)
})

test_that("a bad value of each type gets the same message from every driver", {
    skip_on_os("windows")
    cli <- cli_path()
    mpi <- mpi_path()
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    bad <- list(
        size = list("memory_limit", "12XB", "12XB"),
        size_min = list("memory_limit", "512KiB", "512KiB"),
        choice = list("algorithm", "louvain", "louvain"),
        choice_input = list("combine", "mean", "mean"),
        whole = list("threads", 1.5, "1.5"),
        whole_min = list("threads", 0, "0"),
        number = list("min_weight", 4e38, "4e+38"))
    for (b in bad) {
        name <- b[[1]]
        rmsg <- tryCatch({
            do.call(ExoLabel, c(list(f), stats::setNames(list(b[[2]]), name)))
            "no error"
        }, error = conditionMessage)
        # the R spelling ('memory_limit', "x") as the command line's (--memory-limit, 'x')
        flag <- paste0("--", gsub("_", "-", name))
        want <- gsub("\"", "'", sub(paste0("'", name, "'"), flag, rmsg, fixed = TRUE))
        expect_match(want, paste0("^", flag, " must be"), info = rmsg)
        cl <- dump_prog(cli, c(flag, b[[3]], f))
        expect_equal(cl$status, 2L)
        expect_identical(cl$error[1], paste0("exolabel: ", want))
        if (!is.null(mpi)) {
            m <- dump_prog(mpi, c(flag, b[[3]], "-o", tempfile(), f), mpi = TRUE)
            # mpirun's own notice may come before or after the program's line
            expect_identical(grep("^exolabel-mpi: ", m$error, value = TRUE)[1],
                             paste0("exolabel-mpi: ", want), info = name)
        }
    }
    skip_without_mpi(mpi)
})

test_that("the R function's defaults and the --help text come from the core's table", {
    tab <- ExoLabel:::.exolabel_option_table()
    fm <- formals(ExoLabel)
    r_name <- c(tempdir = "tempfiledir")
    for (i in seq_along(tab$name)) {
        nm <- tab$name[i]
        arg <- if (nm %in% names(r_name)) r_name[[nm]] else nm
        if (nm %in% c("seed", "tempdir")) next # R draws seeds; tempfiledir = tempdir()
        expect_true(arg %in% names(fm), info = nm)
        def <- eval(fm[[arg]])
        if (tab$default[i] == "") { # the format's choice
            expect_null(def, info = nm)
        } else if (nm == "threads") {
            expect_null(def) # NULL: every core, the core's "auto"
        } else {
            if (length(def) > 1L) { # match.arg-style choices: the core's, in its order
                expect_identical(tolower(def), tolower(tab$choices[[i]]), info = nm)
                def <- def[1L]
            }
            expect_identical(ExoLabel:::.exolabel_option(nm, def),
                             ExoLabel:::.exolabel_option(nm, tab$default[i]), info = nm)
        }
    }
    # EstimateExoLabel offers the core's methods too
    expect_identical(eval(formals(EstimateExoLabel)$algorithm),
                     tab$choices[[match("algorithm", tab$name)]])
    skip_on_os("windows")
    help <- rawToChar(run_cli("--help")$out)
    for (i in seq_along(tab$name)) {
        flag <- paste0("--", gsub("_", "-", tab$name[i]))
        expect_match(help, flag, fixed = TRUE)
        if (nzchar(tab$default[i]) && tab$name[i] != "tempdir")
            expect_match(gsub("\\s+", " ", help), paste0("(default ", tab$default[i], ")"),
                         fixed = TRUE, info = tab$name[i])
    }
    mpi <- mpi_path()
    skip_without_mpi(mpi)
    out <- tempfile()
    on.exit(unlink(out))
    system2("mpirun", c("-n", "1", "--oversubscribe", "--allow-run-as-root", mpi, "--help"),
            stdout = out, stderr = FALSE)
    mhelp <- paste(readLines(out), collapse = "\n")
    refused <- c("add_self_loops", "attenuation", "refine", "algorithm", "objective", "bridges",
                 "initial", "keep_graph", "graph")
    for (nm in setdiff(tab$name, refused))
        expect_match(mhelp, paste0("--", gsub("_", "-", nm), " "), fixed = TRUE, info = nm)
})

test_that("the format's input defaults are the core's alone (exo_options_resolve)", {
    core <- ExoLabel:::.exolabel_input_options
    # search output: bit scores over self scores, self hits dropped, the best hit of a pair
    expect_identical(core(list(format = "blast")),
                     list(columns = c(1L, 2L, 12L), weight_transform = "selfnorm",
                          self_hits = "drop", combine = "max", bridges = "cut"))
    # the e-value transform reads column 11
    expect_identical(core(list(format = "blast", weight_transform = "neglog10"))$columns,
                     c(1L, 2L, 11L))
    expect_identical(core(list(format = "edges")),
                     list(columns = 1:3, weight_transform = "none",
                          self_hits = "keep", combine = "sum", bridges = "keep"))
    expect_identical(core(list(format = "edges", columns = c(2L, 1L)))$columns, c(2L, 1L, 0L))
    expect_error(core(list(format = "blast", columns = c(1L, 2L))), "needs a weight column")
    # what ExoLabel() reports it read is what the core resolved
    f <- tempfile(fileext = ".tsv")
    on.exit(unlink(f))
    writeLines(c("a\tb\t90\t10\t0\t0\t1\t10\t1\t10\t1e-20\t50",
                 "a\ta\t100\t10\t0\t0\t1\t10\t1\t10\t1e-30\t60",
                 "b\tb\t100\t10\t0\t0\t1\t10\t1\t10\t1e-30\t55"), f)
    for (wt in list(NULL, "neglog10")) {
        r <- ExoLabel(f, format = "blast", weight_transform = wt, verbose = FALSE)
        want <- core(list(format = "blast", weight_transform = wt))
        got <- attr(r, "stats")$input
        expect_identical(got$columns, want$columns)
        expect_identical(got$weight_transform, want$weight_transform)
        expect_identical(got$self_hits, want$self_hits)
        expect_identical(got$combine, want$combine)
    }
})

# ---- every option of the core's table, from R and from the CLI (issue 56) ----
# R takes the limits, choices and messages of the options that reach the
# core from the core's table (R/arguments.R keeps R's types, vectors and the
# SynExtend behaviours only). For every option of the table: a bad value
# fails through ExoLabel() with exactly the core's message (as the glue's
# .exolabel_option words it), and through the CLI with the same message in
# its spelling (--name, 'value'). An R-side copy of a limit or a message
# that fires first fails this test.

# The R argument of each option of the table, and a bad value: R's, the
# CLI's text. tempdir and seed have none: R makes its tempfiledir (an R
# check of its own) and draws the seeds; ignore_weights and nested are
# flags on the command line (no value to give them), R's TRUE/FALSE check
# is its own type.
parity_bad <- list(
    mode = list("sideways", "sideways"),
    add_self_loops = list(Inf, "inf"),
    attenuation = list(-1, "-1"),
    iterations = list(1e20, "1e+20"),
    refine = list(101, "101"),
    algorithm = list("louvain", "louvain"),
    objective = list("surprise", "surprise"),
    resolution = list(-0.5, "-0.5"),
    sep = list("::", "::"),
    header = list(Inf, "inf"),
    format = list("fasta", "fasta"),
    columns = list(c(1, 0), "1,0"),
    weight_transform = list("log", "log"),
    min_weight = list(-4e38, "-4e+38"),
    self_hits = list("maybe", "maybe"),
    combine = list("mean", "mean"),
    memory_limit = list("12XB", "12XB"),
    threads = list(0, "0"),
    order = list("random", "random"),
    bridges = list("sometimes", "sometimes"),
    keep_graph = list("", ""),
    graph = list("", ""))
# initial takes R objects too (a result, a table: R's own types and checks)
# and a file whose content the core checks (test-initial.R compares them).
parity_exempt <- c("tempdir", "seed", "ignore_weights", "initial", "nested")

# The core's message for a bad value, from the core itself (the glue).
core_message <- function(name, value) {
    tryCatch({
        ExoLabel:::.exolabel_option(name, value)
        "no error"
    }, error = conditionMessage)
}

# R's spelling of a message ('memory_limit', "x") as the CLI's (--memory-limit, 'x')
cli_spelling <- function(msg, name) {
    flag <- paste0("--", gsub("_", "-", name))
    gsub("\"", "'", gsub(paste0("'", name, "'"), flag, msg, fixed = TRUE))
}

test_that("every option of the core's table fails alike from R and the CLI, in the core's words", {
    tab <- ExoLabel:::.exolabel_option_table()
    # every option is covered: a new one needs a bad value here (or a reason)
    expect_setequal(c(names(parity_bad), parity_exempt), tab$name)
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    d <- normalizePath(tempdir())
    for (name in names(parity_bad)) {
        b <- parity_bad[[name]]
        want <- core_message(name, b[[1]])
        expect_match(want, paste0("^'", name, "'"), info = name) # names the argument
        expect_false(identical(want, "no error"), info = name)
        args <- c(list(f, tempfiledir = d, verbose = FALSE), stats::setNames(list(b[[1]]), name))
        rmsg <- tryCatch({
            suppressWarnings(do.call(ExoLabel, args))
            "no error"
        }, error = conditionMessage)
        expect_identical(rmsg, want, info = name)
        if (.Platform$OS.type == "windows") next
        cl <- dump_prog(cli_path(), c(paste0("--", gsub("_", "-", name)), b[[2]], f))
        expect_equal(cl$status, 2L, info = name)
        expect_identical(cl$error[1], paste0("exolabel: ", cli_spelling(want, name)),
                         info = name)
    }
})

test_that("R's accepted ranges end where the core's table says", {
    tab <- ExoLabel:::.exolabel_option_table()
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    d <- normalizePath(tempdir())
    # accepted: the options reach the core (EXOLABEL_DUMP_OPTIONS stops there)
    accepts <- function(name, value) {
        args <- c(list(f, tempfiledir = d, format = "edges"), stats::setNames(list(value), name))
        r <- dump_r(args, 1)
        is.character(r)
    }
    ranged <- tab$name[!is.na(tab$min) & !tab$name %in% parity_exempt]
    expect_true(all(c("attenuation", "iterations", "refine", "resolution", "header", "columns",
                      "min_weight", "memory_limit", "threads") %in% ranged))
    for (name in ranged) {
        i <- match(name, tab$name)
        lo <- tab$min[i]
        hi <- tab$max[i]
        ends <- if (name == "columns") list(c(lo, 2), c(1, hi)) else
            Filter(function(v) is.finite(v), list(lo, hi))
        for (v in ends) expect_true(accepts(name, v), info = paste(name, deparse(v)))
        # just past each finite end (whole numbers: the next one; at the
        # doubles' limit, twice the end): refused, with the core's message
        past <- function(v, dir) {
            if (tab$type[i] == "number") return(v + dir * max(1, abs(v)))
            if (abs(v) >= 2^53) return(v * 2)
            v + dir
        }
        outside <- list()
        if (is.finite(lo))
            outside <- c(outside, list(if (name == "columns") c(lo - 1, 2) else past(lo, -1)))
        if (!is.na(hi) && is.finite(hi))
            outside <- c(outside, list(if (name == "columns") c(1, hi + 1) else past(hi, 1)))
        for (v in outside) {
            # SynExtend's behaviours, R's own: a negative header or
            # iterations is 0 (automatic, with a warning), not an error
            if (name %in% c("header", "iterations") && all(v < 0)) {
                expect_true(accepts(name, v), info = paste(name, deparse(v)))
                next
            }
            rmsg <- tryCatch({
                suppressWarnings(do.call(ExoLabel, c(list(f, tempfiledir = d),
                                                     stats::setNames(list(v), name))))
                "no error"
            }, error = conditionMessage)
            expect_identical(rmsg, core_message(name, v), info = paste(name, deparse(v)))
        }
    }
    # the caps the core applies (with its warning for iterations): R's too
    cap <- tab$cap[match("iterations", tab$name)]
    expect_warning(ExoLabel:::check_iterations(cap + 1),
                   sprintf("'iterations' above %d is capped at %d", cap, cap), fixed = TRUE)
    expect_identical(suppressWarnings(ExoLabel:::check_iterations(c(cap, cap + 1, Inf))),
                     rep(cap, 3))
    expect_identical(ExoLabel:::check_refine(TRUE),
                     as.integer(tab$logical_true[match("refine", tab$name)]))
    # the defaults of EstimateExoLabel() are the table's too
    expect_identical(ExoLabel:::.exolabel_option("memory_limit",
                                                 formals(EstimateExoLabel)$memory_limit),
                     ExoLabel:::.exolabel_option("memory_limit",
                                                 tab$default[match("memory_limit", tab$name)]))
})

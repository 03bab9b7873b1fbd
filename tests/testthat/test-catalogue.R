# The bad-input catalogue (issue 5). Every malformed input stops with an R
# error that names the file and, where it applies, the line; the documented
# cases (weights <= 0, self-loops, duplicates, empty inputs) give the
# documented result. Each test runs in a fresh tempfiledir that holds only
# its inputs afterwards.

cat_file <- function(d, name, content) {
    f <- file.path(d, name)
    writeBin(if (is.character(content)) charToRaw(content) else content, f)
    f
}

# Nothing but `inputs` in d: no exolabel-* directory, no output, no .tmp file.
expect_only <- function(d, inputs) {
    expect_setequal(list.files(d, all.files = TRUE, no.. = TRUE), inputs)
}

run_table <- function(f, d, ...) ExoLabel(f, tempfiledir = d, return_table = TRUE, ...)

gz_bytes <- function(lines) {
    f <- tempfile(fileext = ".gz")
    con <- gzfile(f, "wb")
    writeLines(lines, con)
    close(con)
    b <- readBin(f, "raw", file.size(f))
    unlink(f)
    b
}

# name, content, sep, regexp of the error (file name and line)
malformed <- list(
    list("onecol.tsv", "a\nb\n", "\t", "onecol\\.tsv:1: expected at least 2 fields separated by tab, found 1"),
    list("short.tsv", "a\tb\t1\nc\td\t1\ne\n", "\t", "short\\.tsv:3: .*found 1"),
    list("nosep.tsv", "a b 1\n", "\t", "nosep\\.tsv:1: .*no tab in the line"),
    list("comma.tsv", "a,b,1\n", "\t", "comma\\.tsv:1: .*is the separator ','\\?"),
    list("tabs.csv", "a\tb\t1\n", ",", "tabs\\.csv:1: .*separated by ','"),
    list("notnum.tsv", "a\tb\t1\nb\tc\tabc\n", "\t", "notnum\\.tsv:2: weight 'abc' is not a number"),
    list("partnum.tsv", "a\tb\t1.5x\n", "\t", "partnum\\.tsv:1: weight '1.5x' is not a number"),
    list("emptyw.tsv", "a\tb\t\n", "\t", "emptyw\\.tsv:1: weight '' is not a number"),
    list("nan.tsv", "a\tb\t1\nb\tc\tNaN\n", "\t", "nan\\.tsv:2: weight 'NaN' is not finite"),
    list("inf.tsv", "a\tb\tInf\n", "\t", "inf\\.tsv:1: weight 'Inf' is not finite"),
    list("minf.tsv", "a\tb\t-inf\n", "\t", "minf\\.tsv:1: weight '-inf' is not finite"),
    list("big.tsv", "a\tb\t1\nb\tc\t1e39\n", "\t", "big\\.tsv:2: weight '1e39' is beyond the float range"),
    list("mbig.tsv", "a\tb\t-3.5e38\n", "\t", "mbig\\.tsv:1: weight '-3.5e38' is beyond the float range"),
    list("emptyname1.tsv", "a\tb\t1\n\tb\t1\n", "\t", "emptyname1\\.tsv:2: empty name in field 1"),
    list("emptyname2.tsv", "a\t\t1\n", "\t", "emptyname2\\.tsv:1: empty name in field 2"),
    list("nul.tsv", as.raw(c(0x61, 0x00, 0x09, 0x62, 0x0a)), "\t", "nul\\.tsv:1: NUL byte"),
    list("garbage.bin", as.raw(rep(0:255, 8)), "\t", "garbage\\.bin:1: "),
    list("lonecr.tsv", "a\rb\tc\t1\n", "\t", "lonecr\\.tsv:1: "),
    list("header.tsv", "from\tto\tweight\na\tb\t1\n", "\t", "header\\.tsv:1: weight 'weight' is not a number"),
    list("trunc.gz", utils::head(gz_bytes(c("a\tb\t1", "b\tc\t1")), -6), "\t",
         "trunc\\.gz: truncated gzip"),
    list("corrupt.gz", local({ b <- gz_bytes(c("a\tb\t1", "b\tc\t1")); b[12:14] <- as.raw(0xff); b }), "\t",
         "corrupt\\.gz: .*gzip"),
    list("badcontent.gz", gz_bytes(c("a\tb\t1", "b\tc\t1", "oops")), "\t",
         "badcontent\\.gz:3: expected at least 2 fields"),
    list("data.bz2", c(charToRaw("BZh91AY&SY"), as.raw(1:20)), "\t", "data\\.bz2: .*bzip2")
)

test_that("every malformed input gives an error naming the file and line, and leaves nothing behind", {
    d <- fresh_dir()
    inputs <- character()
    for (m in malformed) {
        f <- cat_file(d, m[[1]], m[[2]])
        inputs <- c(inputs, m[[1]])
        expect_error(run_table(f, d, sep = m[[3]]), m[[4]], info = m[[1]])
        # the same through a file output instead of a table
        expect_error(ExoLabel(f, outfile = file.path(d, "out.tsv"), tempfiledir = d,
                              sep = m[[3]]), m[[4]], info = m[[1]])
    }
    expect_only(d, inputs)
})

test_that("missing, directory, empty-path and unreadable inputs are reported with the path", {
    d <- fresh_dir()
    expect_error(run_table(file.path(d, "nope.tsv"), d), "'.*nope\\.tsv' does not exist")
    expect_error(run_table(d, d), "is a directory")
    expect_error(run_table("", d), "does not exist")
    # a Windows-style path is not a path on this system: reported, not guessed
    win <- "C:\\Users\\Some One\\My Edges.tsv"
    expect_error(run_table(win, d), "My Edges\\.tsv' does not exist", fixed = FALSE)
    # unreadable: /proc/self/mem opens but every read at offset 0 fails (EIO),
    # also for root, who can read a mode 000 file
    if (file.exists("/proc/self/mem"))
        expect_error(run_table("/proc/self/mem", d), "cannot read '/proc/.*mem'")
    f <- cat_file(d, "locked.tsv", "a\tb\t1\n")
    Sys.chmod(f, "000")
    on.exit(Sys.chmod(f, "644"))
    if (file.access(f, 4) != 0)   # not root: mode 000 really is unreadable
        expect_error(run_table(f, d), "locked\\.tsv")
    expect_only(d, "locked.tsv")
})

test_that("paths with spaces work", {
    d <- fresh_dir()
    sub <- file.path(d, "dir with spaces")
    dir.create(sub)
    f <- cat_file(sub, "my edges.tsv", "a\tb\t1\nb\tc\t1\n")
    res <- ExoLabel(f, outfile = file.path(sub, "my out.tsv"), tempfiledir = sub)
    expect_equal(readLines(file.path(sub, "my out.tsv")), c("a\t1", "b\t1", "c\t1"))
    expect_only(sub, c("my edges.tsv", "my out.tsv"))
})

test_that("weights: zero, negative and underflowing keep the names but add no edge", {
    d <- fresh_dir()
    # a-b positive; c-d 0; e-f negative; g-h -0; i-j below the smallest float
    f <- cat_file(d, "w.tsv", "a\tb\t2\nc\td\t0\ne\tf\t-1\ng\th\t-0\ni\tj\t1e-50\n")
    expect_warning(res <- run_table(f, d), "1 edge\\(s\\) with a negative weight")
    expect_equal(res$results$Vertex, letters[1:10])
    expect_equal(unname(res$graph_stats["num_edges"]), 2)  # a->b and b->a only
    cl <- as_membership(res$results)
    expect_equal(unname(cl["a"]), unname(cl["b"]))
    expect_equal(length(unique(cl)), 9)                   # all others alone
    # the smallest positive float is an edge
    f2 <- cat_file(d, "tiny.tsv", "a\tb\t1e-45\n")
    expect_equal(unname(run_table(f2, d)$graph_stats["num_edges"]), 2)
    # weights are read as float: hex, exponents, spaces around the number
    f3 <- cat_file(d, "forms.tsv", "a\tb\t0x10\nb\tc\t 1.5e0 \nc\td\t+2\n")
    expect_equal(unname(run_table(f3, d)$graph_stats["num_edges"]), 6)
    expect_only(d, c("w.tsv", "tiny.tsv", "forms.tsv"))
})

test_that("line ends, BOM, blank lines and a missing final newline do not change the result", {
    d <- fresh_dir()
    lines <- c("a\tb\t1", "b\tc\t2", "c\ta\t1", "d\te\t1", "e\tf\t3")
    ref <- cat_file(d, "ref.tsv", paste0(paste(lines, collapse = "\n"), "\n"))
    variants <- list(
        crlf = paste0(paste(lines, collapse = "\r\n"), "\r\n"),
        nofinal = paste(lines, collapse = "\n"),
        crlf_nofinal = paste(lines, collapse = "\r\n"),
        blank = paste0("\n\n", paste(lines, collapse = "\n\n\r\n"), "\n\n"),
        bom = c(as.raw(c(0xef, 0xbb, 0xbf)), charToRaw(paste0(paste(lines, collapse = "\n"), "\n")))
    )
    set.seed(3)
    want <- run_table(ref, d)$results
    for (v in names(variants)) {
        f <- cat_file(d, paste0(v, ".tsv"), variants[[v]])
        set.seed(3)
        got <- run_table(f, d)$results
        expect_identical(got, want, info = v)
    }
    # a header line is skipped whatever it holds (here: not numeric)
    h <- cat_file(d, "hdr.tsv", paste0("from\tto\tweight\n", paste(lines, collapse = "\n"), "\n"))
    set.seed(3)
    expect_identical(run_table(h, d, header = TRUE)$results, want)
    expect_only(d, c("ref.tsv", paste0(names(variants), ".tsv"), "hdr.tsv"))
})

test_that("odd names round-trip byte for byte: invalid UTF-8, 1 MiB, spaces, quotes", {
    d <- fresh_dir()
    long <- strrep("x", 2^20)
    bad_utf8 <- rawToChar(as.raw(c(0xff, 0xfe, 0x41)))
    latin <- rawToChar(as.raw(c(0x63, 0x61, 0x66, 0xe9)))
    content <- c(charToRaw(paste0(long, "\tb\t1\n")),
                 as.raw(c(0xff, 0xfe, 0x41)), charToRaw("\tb\t1\n"),
                 charToRaw("caf"), as.raw(0xe9), charToRaw("\t\"q 'x'\"\t1\n"),
                 charToRaw("\u00e9t\u00e9 \u65e5\t# not a comment\t1\n"))
    f <- cat_file(d, "names.tsv", content)
    res <- run_table(f, d)
    v <- res$results$Vertex
    expect_equal(length(v), 7)
    expect_identical(charToRaw(v[1]), charToRaw(long))
    expect_identical(charToRaw(v[3]), as.raw(c(0xff, 0xfe, 0x41)))
    expect_identical(charToRaw(v[4]), charToRaw(latin))
    expect_identical(v[5], "\"q 'x'\"")
    expect_identical(v[6], "\u00e9t\u00e9 \u65e5")
    expect_identical(v[7], "# not a comment")
    expect_only(d, "names.tsv")
})

test_that("self-loops, duplicate edges and one-node graphs follow the documented rules", {
    d <- fresh_dir()
    # a self-loop is one arc; duplicates are all kept (weights add up)
    f <- cat_file(d, "loops.tsv", "a\ta\t5\na\tb\t1\na\tb\t1\nb\ta\t1\n")
    res <- run_table(f, d)
    expect_equal(unname(res$graph_stats["num_edges"]), 1 + 2 * 3)
    expect_equal(res$results$Cluster, c(1L, 1L))
    # duplicates are stored as given: 6 lines, 12 arcs, 5 names
    f2 <- cat_file(d, "dups.tsv", "c\ta\t1\nc\ta\t1\na\tc\t1\nc\tb\t2.5\na\tx\t9\nb\ty\t9\n")
    res2 <- run_table(f2, d)
    expect_equal(unname(res2$graph_stats), c(5, 12))
    one <- cat_file(d, "one.tsv", "solo\tsolo\t1\n")
    res1 <- run_table(one, d)
    expect_equal(res1$results, data.frame(Vertex = "solo", Cluster = 1L))
    expect_equal(unname(res1$graph_stats), c(1, 1))
    expect_only(d, c("loops.tsv", "dups.tsv", "one.tsv"))
})

test_that("inputs without edges give an empty or trivial result and a warning", {
    d <- fresh_dir()
    empty <- cat_file(d, "empty.tsv", raw(0))
    blank <- cat_file(d, "blank.tsv", "\n\r\n\n")
    hdr <- cat_file(d, "hdronly.tsv", "from\tto\tweight\n")
    zero <- cat_file(d, "zero.tsv", "a\tb\t0\nc\td\t-2\n")
    for (f in c(empty, blank)) {
        expect_warning(res <- run_table(f, d), "no edges", info = f)
        expect_equal(nrow(res$results), 0)
        expect_equal(unname(res$graph_stats), c(0, 0))
    }
    expect_warning(res <- run_table(hdr, d, header = TRUE), "no edges")
    expect_equal(nrow(res$results), 0)
    out <- file.path(d, "empty-out.tsv")
    expect_warning(ExoLabel(empty, outfile = out, tempfiledir = d), "no edges")
    expect_equal(file.size(out), 0)
    unlink(out)
    expect_warning(expect_warning(res <- run_table(zero, d), "no edge with a positive weight"),
                   "negative weight")
    expect_equal(res$results, data.frame(Vertex = c("a", "b", "c", "d"), Cluster = 1:4))
    expect_only(d, c("empty.tsv", "blank.tsv", "hdronly.tsv", "zero.tsv"))
})

# parameter, bad value, regexp of the message (errors) -- every parameter
bad_args <- list(
    list("edgelistfiles", 1, "edgelistfiles"),
    list("edgelistfiles", NA_character_, "edgelistfiles"),
    list("edgelistfiles", TRUE, "edgelistfiles"),
    list("outfile", 1, "'outfile' must be"),
    list("outfile", NA_character_, "'outfile' must be"),
    list("outfile", "", "'outfile'"),
    list("outfile", character(0), "outfile"),
    list("mode", "sideways", "'mode'"),
    list("mode", NA, "'mode'"),
    list("mode", 1, "'mode'"),
    list("mode", c("directed", "undirected"), "'mode'"),
    list("add_self_loops", "x", "'add_self_loops' must be"),
    list("add_self_loops", NA, "'add_self_loops' must be"),
    list("add_self_loops", Inf, "'add_self_loops' must be a finite number"),
    list("add_self_loops", numeric(0), "'add_self_loops' must be"),
    list("attenuation", "x", "'attenuation' must be"),
    list("attenuation", -1, "'attenuation' must be >= 0"),
    list("attenuation", NaN, "'attenuation' must be"),
    list("attenuation", Inf, "'attenuation' must be a finite number"),
    list("resolution", -1, "'resolution' must be >= 0"),
    list("resolution", "1", "'resolution' must be a number"),
    list("resolution", "x", "'resolution' must be a number"),
    list("resolution", NA_real_, "'resolution' must be a number"),
    list("resolution", Inf, "'resolution' must be a finite number"),
    list("resolution", numeric(0), "'resolution' must be a number"),
    list("ignore_weights", NA, "'ignore_weights' must be TRUE or FALSE"),
    list("ignore_weights", c(TRUE, FALSE), "'ignore_weights' must be TRUE or FALSE"),
    list("ignore_weights", "yes", "'ignore_weights' must be TRUE or FALSE"),
    list("iterations", "x", "'iterations' must be"),
    list("iterations", numeric(0), "'iterations' must be"),
    list("return_table", 1, "'return_table' must be TRUE or FALSE"),
    list("return_table", c(TRUE, TRUE), "'return_table' must be TRUE or FALSE"),
    list("verbose", NA, "'verbose' must be TRUE or FALSE"),
    list("verbose", c(TRUE, FALSE), "'verbose' must be TRUE or FALSE"),
    list("sep", "", "'sep' must be a single byte"),
    list("sep", "\t\t", "'sep' must be a single byte"),
    list("sep", NA_character_, "'sep' must be a single string"),
    list("sep", c("\t", ","), "'sep' must be a single string"),
    list("sep", "\u00e9", "'sep' must be a single byte"),
    list("sep", "\n", "'sep' must be a single byte other than a line end"),
    list("header", Inf, "'header' must be"),
    list("header", NA, "'header' must be"),
    list("header", "yes", "'header' must be"),
    list("use_fast_sort", "yes", "'use_fast_sort' must be TRUE or FALSE"),
    list("use_fast_sort", NA, "'use_fast_sort' must be TRUE or FALSE"),
    list("tempfiledir", NA_character_, "'tempfiledir' must be a single directory path"),
    list("tempfiledir", c("a", "b"), "'tempfiledir' must be a single directory path"),
    list("tempfiledir", 3, "'tempfiledir' must be a single directory path"),
    list("memory_limit", "lots", "'memory_limit' must be"),
    list("memory_limit", 10, "'memory_limit' must be at least 1MB"),
    list("memory_limit", NA, "'memory_limit' must be"),
    list("memory_limit", -1, "'memory_limit' must be"),
    list("memory_limit", Inf, "'memory_limit' must be"),
    list("memory_limit", c(2^24, 2^25), "'memory_limit' must be a single"),
    list("threads", 0, "'threads' must be"),
    list("threads", NA, "'threads' must be"),
    list("threads", 1.5, "'threads' must be"),
    list("threads", c(1, 2), "'threads' must be"),
    list("threads", "2", "'threads' must be")
)

# parameter, value, regexp of the documented warning (the run goes on)
warn_args <- list(
    list("add_self_loops", -1, "negative, setting to zero"),
    list("iterations", NA, "Invalid value of 'iterations'"),
    list("iterations", -3, "Invalid value of 'iterations'"),
    list("iterations", 1e9, "capped at 32767"),
    list("header", c(1, 2), "ignoring extra values")
)

test_that("every bad argument value gives a message that names the argument", {
    d <- fresh_dir()
    f <- cat_file(d, "g.tsv", "h1\th2\na\tb\t1\nb\tc\t1\n")
    for (b in bad_args) {
        args <- list(f, tempfiledir = d, header = TRUE, outfile = file.path(d, "o.tsv"))
        if (b[[1]] == "edgelistfiles") args[[1]] <- b[[2]] else args[b[[1]]] <- list(b[[2]])
        expect_error(do.call(ExoLabel, args), b[[3]], info = paste(b[[1]], deparse(b[[2]])))
    }
    for (w in warn_args) {
        args <- list(f, tempfiledir = d, header = TRUE, return_table = TRUE)
        args[w[[1]]] <- list(w[[2]])
        expect_warning(res <- do.call(ExoLabel, args), w[[3]], info = w[[1]])
        expect_equal(nrow(res$results), 3)
    }
    expect_only(d, "g.tsv")
})

test_that("100 failing calls in a row leave the session working and nothing behind", {
    d <- fresh_dir()
    bad <- list(cat_file(d, "b1.tsv", "a\tb\t1\noops\n"),
                cat_file(d, "b2.gz", utils::head(gz_bytes(c("a\tb\t1", "c\td\t1")), -5)),
                cat_file(d, "b3.tsv", "a\tb\tNaN\n"),
                cat_file(d, "b4.tsv", as.raw(c(0x61, 0x09, 0x00, 0x0a))))
    good <- cat_file(d, "good.tsv", paste0(paste(
        do.call(paste, c(unname(as.list(clique_ring(k = 3, s = 5)[, 1:3])), sep = "\t")),
        collapse = "\n"), "\n"))
    for (i in 1:100) {
        k <- (i - 1) %% 5 + 1
        if (k <= 4)
            expect_error(run_table(bad[[k]], d), basename(bad[[k]]), fixed = TRUE)
        else
            expect_error(run_table(good, d, memory_limit = "huge"), "memory_limit")
    }
    set.seed(1)
    res <- run_table(good, d)
    expect_equal(length(unique(res$results$Cluster)), 3)
    expect_only(d, c("b1.tsv", "b2.gz", "b3.tsv", "b4.tsv", "good.tsv"))
})

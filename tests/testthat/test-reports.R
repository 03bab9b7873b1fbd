# The benchmark reports open with one screen of current figures: the commit
# they were measured at and the command that reproduces them within their
# first 40 lines; no heading named after a session, issue or branch; no
# absolute path of a development machine; the history they link to exists.
# NEWS.md's newest entry stays a short list for users. The reports are not
# in the built package (.Rbuildignore), so this runs from a source tree only
# (`make rtest`).
root <- file.path("..", "..")
reports <- file.path(root, "benchmarks",
                     c("RESULTS.md", "QUALITY.md", "ESTIMATES.md", "PORTABILITY.md", "SSN.md",
                       "GROW.md"))

test_that("each report names its commit and command in its first screen", {
    skip_if_not(all(file.exists(reports)), "not a source tree")
    for (f in reports) {
        top <- utils::head(readLines(f, warn = FALSE), 40)
        hash <- grepl("(?<![0-9A-Za-z])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![0-9A-Za-z])",
                      top, perl = TRUE)
        expect_true(any(hash), label = paste(basename(f), "names a commit in its first 40 lines"))
        fenced <- cumsum(grepl("^```", top)) %% 2 == 1
        cmd <- grepl("`(make [a-z]|Rscript |bash |benchmarks/[^`]*\\.sh|[A-Z_]+=[^`]* (make|benchmarks/))",
                     top) |
            (fenced & grepl("^(make [a-z]|Rscript |bash |benchmarks/|[A-Z_]+=[^ ]* )", top))
        expect_true(any(cmd), label = paste(basename(f), "gives a command in its first 40 lines"))
    }
})

test_that("reports have no session headings and no development-machine paths", {
    skip_if_not(all(file.exists(reports)), "not a source tree")
    for (f in reports) {
        x <- readLines(f, warn = FALSE)
        fence <- cumsum(grepl("^```", x)) %% 2 == 1
        heads <- x[grepl("^#+ ", x) & !fence]
        expect_false(any(grepl("[Ss]ession|[Ii]ssue [0-9]|\\bbranch\\b", heads)),
                     label = paste(basename(f), "has a heading named after a session, issue or branch"))
        expect_false(any(grepl("(^|[^A-Za-z0-9_.])/(work|home|tmp)/", x)),
                     label = paste(basename(f), "has an absolute path of a development machine"))
        for (link in unlist(regmatches(x, gregexpr("\\(notes/[^)]+\\.md\\)", x))))
            expect_true(file.exists(file.path(dirname(f), gsub("[()]", "", link))),
                        label = paste(basename(f), "links", link))
    }
})

test_that("NEWS.md's newest entry is a short list for users", {
    news <- file.path(root, "NEWS.md")
    skip_if_not(file.exists(news) && file.exists(reports[1]), "not a source tree")
    x <- readLines(news, warn = FALSE)
    v <- grep("^# ", x)
    skip_if(length(v) < 2, "one version only")
    n <- v[2] - v[1]
    expect_lte(n, 150)
})

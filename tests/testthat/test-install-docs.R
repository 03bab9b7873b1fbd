# What a user finds after installing: the vignette, help.search hits for the
# words a bioinformatician searches, and ?ExoLabel itself (issue 55, items
# 2 and 4). These run against the installed package: make install builds it
# with R CMD build, so the vignette is there, as it is in R CMD check.

test_that("the installed package has its vignette", {
    v <- utils::vignette(package = "ExoLabel")$results
    expect_gte(nrow(v), 1)
    expect_true("ExoLabel" %in% v[, "Item"])
    info <- tools::getVignetteInfo("ExoLabel")
    expect_true(nzchar(info[info[, "Topic"] == "ExoLabel", "PDF"]))  # the built HTML
})

test_that("help.search finds ExoLabel's help for search tools and protein families", {
    for (term in c("representative", "blast", "DIAMOND", "protein", "MMseqs2")) {
        m <- utils::help.search(term, package = "ExoLabel")$matches
        expect_gt(nrow(m), 0, label = paste0("help.search(\"", term, "\") matches"))
        expect_true("ExoLabel" %in% m$Topic, label = paste0("?ExoLabel among help.search(\"", term, "\")"))
    }
})

rd_text <- function(topic) {
    rd <- tools::Rd_db("ExoLabel")[[paste0(topic, ".Rd")]]
    out <- tempfile(fileext = ".txt")
    on.exit(unlink(out))
    tools::Rd2txt(rd, out = out, options = list(width = 80, underline_titles = FALSE))
    readLines(out, encoding = "UTF-8")
}

test_that("?ExoLabel is shorter than it was and says edge-list tables take format = \"blast\"", {
    txt <- rd_text("ExoLabel")
    expect_lt(length(txt), 650)  # 747 lines before issue 55
    flat <- gsub("\\s+", " ", paste(txt, collapse = " "))
    expect_false(grepl("but not .format = \"blast\"", flat))
    expect_true(grepl("Edge-list tables in R", flat, fixed = TRUE))
    # every argument keeps its documentation
    rd <- tools::Rd_db("ExoLabel")[["ExoLabel.Rd"]]
    args <- names(formals(ExoLabel))
    documented <- unlist(lapply(rd[vapply(rd, attr, "", "Rd_tag") == "\\arguments"][[1]], function(x)
        if (identical(attr(x, "Rd_tag"), "\\item")) paste(unlist(x[[1]]), collapse = "")))
    expect_setequal(trimws(unlist(strsplit(documented, ","))), args)
    # "see the vignette" names the section
    expect_false(grepl("\\(see the vignette\\)", flat))
})

test_that("an edge-list table takes format = \"blast\" as a file does", {
    hits <- system.file("extdata", "example_diamond.m8.gz", package = "ExoLabel")
    df <- utils::read.delim(hits, header = FALSE, stringsAsFactors = FALSE)
    set.seed(1)
    from_table <- ExoLabel(df, format = "blast", return_table = TRUE)
    # a table has no coordinates to read: the file's result without the
    # bridge rules (bridges = "keep")
    set.seed(1)
    from_file <- ExoLabel(hits, format = "blast", bridges = "keep", return_table = TRUE)
    expect_identical(from_table$results, from_file$results)
    expect_identical(attr(from_table$parameters, "objective"), "CPM")
})

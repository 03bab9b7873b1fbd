library(testthat)
library(ExoLabel)

test_check("ExoLabel")

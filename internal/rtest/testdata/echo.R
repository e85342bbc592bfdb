# Test script for package rtest: prints its arguments; "quit" ends the job
# early, "fail" stops with an error.
args <- commandArgs(trailingOnly = TRUE)
cat(args, sep = "\n")
if ("quit" %in% args) quit(save = "no")
if ("fail" %in% args) stop("asked to fail")
cat("end\n")

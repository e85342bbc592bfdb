package main

func runPaper(reps int, seed uint64, data string) error { return nil }

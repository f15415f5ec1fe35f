// A regex split of a few megabytes is not mistaken for catastrophic backtracking.
// expect: value 500001
// timeout-ms: 10000
return "abc,".repeat(5e5).split(/,/).length;

// The largest programs of the costliest shape the budget accepts (class expressions, 10,000 under a 64 MiB limit) compile and run within the limit.
// expect: value null
// memory-limit: 64MiB
// timeout-ms: 20000
// repeat: 10000
(class{});

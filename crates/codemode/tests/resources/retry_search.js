// search() in a loop forever: answered at once, still under the deadline.
// expect: error TimeoutExceeded
// timeout-ms: 1000
for (;;) search({ query: "orders" });

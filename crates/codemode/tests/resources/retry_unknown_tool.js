// A model retrying a misspelled tool forever: the driver reads the clock when calls are answered at once.
// expect: error TimeoutExceeded
// timeout-ms: 1000
for (;;) { try { await tools.orders.lokup({}) } catch {} }

// Tool calls issued in a loop without awaiting: each call is charged for what the host holds for it (task, future, record), so the loop ends by the memory limit, not by exhausting the host.
// expect: error any
// timeout-ms: 30000
// memory-limit: 16MiB
for (;;) tools.demo.echo({ i: 1 });

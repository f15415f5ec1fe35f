const payload = { report: "daily", rows: 3 };
tools.demo.echo(payload)

const input = { message: "quota exceeded" };
tools.demo.fail(input);

// The tool fails and the program hands the rejected promise back.
return tools.demo.fail({ message: "permission denied" });

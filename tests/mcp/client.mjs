// A real MCP host's side, with the official TypeScript SDK: start `codemode mcp` over stdio,
// list its tools and call `execute` once. Prints one JSON object; used by the Rust tests.
//
//   node client.mjs <codemode binary> <program> -- <codemode mcp args...>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, program, separator, ...args] = process.argv.slice(2);
if (!binary || program === undefined || separator !== "--") {
  console.error("usage: node client.mjs <codemode binary> <program> -- <codemode mcp args...>");
  process.exit(2);
}
const transport = new StdioClientTransport({ command: binary, args: ["mcp", ...args], stderr: "inherit" });
const client = new Client({ name: "codemode-test-host", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const progress = [];
const result = await client.callTool(
  { name: "execute", arguments: { code: program } },
  undefined,
  { onprogress: (p) => progress.push(p.message ?? "") },
);
console.log(JSON.stringify({
  server: client.getServerVersion(),
  tools: tools.map((t) => t.name),
  executeDescription: tools.find((t) => t.name === "execute")?.description ?? "",
  result,
  progress,
}));
await client.close();

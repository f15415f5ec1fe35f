// A real MCP host's side over streamable HTTP, with the official TypeScript SDK: connect to
// `codemode mcp --http` (with a bearer token when one is given), list the tools and run one
// program. Prints one JSON object: `{ tools, result }`, or `{ error }` when the server refused.
//
//   node http_client.mjs <url> <program> [token]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, program, token] = process.argv.slice(2);
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
const client = new Client({ name: "codemode-http-test-host", version: "1.0.0" });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const result = await client.callTool({ name: "execute", arguments: { code: program } });
  console.log(JSON.stringify({ tools: tools.map((t) => t.name), result }));
  await client.close();
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.message ?? e), code: e?.code ?? null }));
  process.exit(0);
}

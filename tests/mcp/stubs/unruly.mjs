// An MCP server (stdio, newline-delimited JSON-RPC, no SDK) that misbehaves on purpose, for
// codemode's robustness tests. Its tools:
//   ok            answers normally
//   huge_number   answers with a number JSON cannot hold (1e400)
//   huge_line     answers with one line over 16 MiB
//   wrong_id      answers under an id that was never sent
//   silent        never answers
// and its tool list also holds tools codemode must skip or simplify: an empty name, an input
// schema nested 100 levels deep, and one with a 100,000-value enum.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const text = (t) => ({ content: [{ type: "text", text: t }] });

let deep = { type: "string" };
for (let i = 0; i < 100; i++) deep = { type: "object", properties: { next: deep } };
const bigEnum = Array.from({ length: Number(process.env.UNRULY_ENUM ?? 100000) }, (_, i) => `value_${i}`);

const tools = [
  { name: "ok", description: "Answers", inputSchema: { type: "object", properties: {} } },
  { name: "huge_number", inputSchema: { type: "object" } },
  { name: "huge_line", inputSchema: { type: "object" } },
  { name: "wrong_id", inputSchema: { type: "object" } },
  { name: "silent", inputSchema: { type: "object" } },
  { name: "", description: "no name", inputSchema: { type: "object" } },
  { name: "deep", description: "Deep schema", inputSchema: { type: "object", properties: { root: deep } } },
  { name: "big_enum", description: "Huge enum", inputSchema: { type: "object", properties: { v: { enum: bigEnum } } } },
];

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  const { id, method, params } = message;
  if (id === undefined) return; // notifications
  switch (method) {
    case "initialize":
      return send({ jsonrpc: "2.0", id, result: {
        protocolVersion: params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: "unruly", version: "1.0.0" } } });
    case "tools/list":
      return send({ jsonrpc: "2.0", id, result: { tools } });
    case "ping":
      return send({ jsonrpc: "2.0", id, result: {} });
    case "tools/call": {
      const name = params.name;
      if (name === "ok") return send({ jsonrpc: "2.0", id, result: text("fine") });
      if (name === "huge_number") {
        return process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":{"content":[],"structuredContent":{"n":1e400}}}\n`);
      }
      if (name === "huge_line") {
        return send({ jsonrpc: "2.0", id, result: text("x".repeat(17 * 1024 * 1024)) });
      }
      if (name === "wrong_id") return send({ jsonrpc: "2.0", id: id + 1000, result: text("lost") });
      if (name === "silent") return;
      return send({ jsonrpc: "2.0", id, error: { code: -32602, message: `unknown tool ${name}` } });
    }
    default:
      return send({ jsonrpc: "2.0", id, error: { code: -32601, message: `no method ${method}` } });
  }
});

// An MCP server over streamable HTTP (plain node, no SDK, no session) that misbehaves on purpose,
// for codemode's robustness and authentication tests. It listens on 127.0.0.1 (an ephemeral
// port) and prints `listening <port>` on its standard output. Its tools:
//   ok                 answers normally (JSON)
//   ok_sse             answers normally (an SSE stream)
//   huge_number        answers with a number JSON cannot hold (1e400), as a JSON body
//   huge_number_sse    the same in an SSE event
//   wrong_id           answers under an id that was never sent (JSON body)
//   wrong_id_sse       the same in an SSE event
//   garbage            a body that is not JSON, labelled application/json
//   garbage_sse        an SSE event whose data is not JSON
//   wrong_type         a 200 answer labelled text/html
//   huge_body          a JSON answer over 16 MiB
//   needs_scope        403 with an insufficient_scope challenge (scope "admin")
//   silent             never answers
//   slow               answers "fine" after one second
//   audio              answers with an audio content block (a short WAV) and a text block
//
// Authentication (flags):
//   --token T          every MCP request must carry `Authorization: Bearer T`, else 401 with
//                      `WWW-Authenticate: Bearer resource_metadata="<base>/.well-known/oauth-protected-resource"`
//   --oauth ID:SECRET  tokens are issued by this server's own OAuth endpoints instead
//                      (RFC 9728 and RFC 8414 metadata, `POST /token` with the client_credentials
//                      and refresh_token grants); an issued access token lives --ttl seconds
//                      (default 3600) and a refresh token `refresh-1` is accepted.
//   --expire-after N   with --token: after N authenticated MCP requests the token is refused
//                      (the way an expired token is)
//   --next-token T2    a second token, accepted at any time (the one a rotated token file holds)
import { createServer } from "node:http";

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const token = flag("--token");
const nextToken = flag("--next-token");
const oauth = flag("--oauth");
const ttl = Number(flag("--ttl") ?? 3600);
const expireAfter = flag("--expire-after") === undefined ? Infinity : Number(flag("--expire-after"));
let authenticated = 0;
const issued = new Map(); // access token -> expiry (ms)
let counter = 0;
let base = "";

const text = (t) => ({ content: [{ type: "text", text: t }] });
// A 44-byte WAV header and 8 samples of silence.
const wav = Buffer.concat([
  Buffer.from("RIFF"), Buffer.from([44, 0, 0, 0]), Buffer.from("WAVEfmt "),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]),
  Buffer.from("data"), Buffer.from([16, 0, 0, 0]), Buffer.alloc(16),
]).toString("base64");

const tools = [
  "ok", "ok_sse", "huge_number", "huge_number_sse", "wrong_id", "wrong_id_sse", "garbage",
  "garbage_sse", "wrong_type", "huge_body", "needs_scope", "silent", "slow", "audio",
].map((name) => ({ name, inputSchema: { type: "object" } }));

const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};
const sse = (res, data) => {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(`event: message\ndata: ${data}\n\n`);
};

function authorized(req) {
  const header = req.headers.authorization ?? "";
  const given = header.startsWith("Bearer ") ? header.slice(7) : undefined;
  if (oauth) {
    const expiry = given && issued.get(given);
    return expiry !== undefined && expiry > Date.now();
  }
  if (token === undefined) return true;
  if (nextToken !== undefined && given === nextToken) return true;
  if (given !== token) return false;
  authenticated += 1;
  process.stderr.write(`unruly_http: authenticated request ${authenticated}\n`);
  return authenticated <= expireAfter;
}

function oauthEndpoint(req, res, body) {
  if (req.url === "/.well-known/oauth-protected-resource" || req.url === "/.well-known/oauth-protected-resource/mcp") {
    return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ["header"] }), true;
  }
  if (req.url === "/.well-known/oauth-authorization-server") {
    return json(res, 200, {
      issuer: base, token_endpoint: `${base}/token`, grant_types_supported: ["client_credentials", "refresh_token"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    }), true;
  }
  if (req.url === "/token" && req.method === "POST") {
    const form = new URLSearchParams(body);
    let [id, secret] = [form.get("client_id"), form.get("client_secret")];
    const basic = req.headers.authorization ?? "";
    if (basic.startsWith("Basic ")) {
      const decoded = Buffer.from(basic.slice(6), "base64").toString();
      const colon = decoded.indexOf(":");
      [id, secret] = [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
    }
    const grant = form.get("grant_type");
    const ok = (grant === "client_credentials" && `${id}:${secret}` === oauth)
      || (grant === "refresh_token" && form.get("refresh_token") === "refresh-1");
    if (!ok) return json(res, 401, { error: "invalid_client", error_description: `bad ${grant} request` }), true;
    counter += 1;
    const access = `access-${counter}`;
    issued.set(access, Date.now() + ttl * 1000);
    process.stderr.write(`unruly_http: issued ${access} (${grant}, scope ${form.get("scope") ?? "-"})\n`);
    return json(res, 200, { access_token: access, token_type: "Bearer", expires_in: ttl, refresh_token: "refresh-1" }), true;
  }
  return false;
}

function answer(req, res, message) {
  const { id, method, params } = message;
  if (id === undefined) {
    res.writeHead(202);
    return res.end();
  }
  switch (method) {
    case "initialize":
      return json(res, 200, { jsonrpc: "2.0", id, result: {
        protocolVersion: params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: "unruly_http", version: "1.0.0" } } });
    case "tools/list":
      return json(res, 200, { jsonrpc: "2.0", id, result: { tools } });
    case "ping":
      return json(res, 200, { jsonrpc: "2.0", id, result: {} });
    case "tools/call": {
      const name = params.name;
      const bad = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"structuredContent":{"n":1e400}}}`;
      const wrong = JSON.stringify({ jsonrpc: "2.0", id: typeof id === "number" ? id + 1000 : `${id}-x`, result: text("lost") });
      switch (name) {
        case "ok": return json(res, 200, { jsonrpc: "2.0", id, result: text("fine") });
        case "ok_sse": return sse(res, JSON.stringify({ jsonrpc: "2.0", id, result: text("fine over sse") }));
        case "huge_number": return json(res, 200, bad);
        case "huge_number_sse": return sse(res, bad);
        case "wrong_id": return json(res, 200, wrong);
        case "wrong_id_sse": return sse(res, wrong);
        case "garbage": return json(res, 200, "this is not json");
        case "garbage_sse": return sse(res, "this is not json {");
        case "wrong_type":
          res.writeHead(200, { "content-type": "text/html" });
          return res.end("<html>hello</html>");
        case "huge_body": return json(res, 200, { jsonrpc: "2.0", id, result: text("x".repeat(17 * 1024 * 1024)) });
        case "silent": return; // the request stays open
        case "slow":
          return setTimeout(() => json(res, 200, { jsonrpc: "2.0", id, result: text("fine") }), 1000);
        case "audio":
          return json(res, 200, { jsonrpc: "2.0", id, result: { content: [
            { type: "text", text: "a short tone" },
            { type: "audio", data: wav, mimeType: "audio/wav" },
          ] } });
        default:
          return json(res, 200, { jsonrpc: "2.0", id, error: { code: -32602, message: `unknown tool ${name}` } });
      }
    }
    default:
      return json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: `no method ${method}` } });
  }
}

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => { body += chunk; });
  req.on("end", () => {
    if ((oauth || token !== undefined) && oauthEndpoint(req, res, body)) return;
    if (!req.url.startsWith("/mcp")) return json(res, 404, { error: "not found" });
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" });
      return res.end();
    }
    if (!authorized(req)) {
      res.writeHead(401, {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource"`,
      });
      return res.end(JSON.stringify({ error: "invalid_token" }));
    }
    let message;
    try { message = JSON.parse(body); } catch { return json(res, 400, { error: "bad json" }); }
    if (message.method === "tools/call" && message.params?.name === "needs_scope") {
      res.writeHead(403, {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="insufficient_scope", scope="admin"`,
      });
      return res.end(JSON.stringify({ error: "insufficient_scope" }));
    }
    answer(req, res, message);
  });
});
server.listen(0, "127.0.0.1", () => {
  base = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

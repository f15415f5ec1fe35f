"""A minimal MCP server over stdio (newline-delimited JSON-RPC) for the tests: `add` and
`shout`, without any MCP package."""

import json
import sys

TOOLS = [
    {
        "name": "add",
        "description": "Add two numbers.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
        "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]},
    },
    {
        "name": "shout",
        "description": "Upper-case a text.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    },
]


def answer(msg):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "test-math", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        args = params.get("arguments") or {}
        if params.get("name") == "add":
            if not all(isinstance(args.get(k), (int, float)) for k in ("a", "b")):
                return {"content": [{"type": "text", "text": "a and b must be numbers"}], "isError": True}
            total = args["a"] + args["b"]
            return {"content": [{"type": "text", "text": json.dumps({"sum": total})}], "structuredContent": {"sum": total}}
        if params.get("name") == "shout":
            return {"content": [{"type": "text", "text": str(args.get("text", "")).upper()}]}
        return {"content": [{"type": "text", "text": "no such tool"}], "isError": True}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    msg = json.loads(line)
    if "id" not in msg:
        continue  # a notification
    result = answer(msg)
    if result is None:
        reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "method not found"}}
    else:
        reply = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()

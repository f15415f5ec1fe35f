"""codemode for Python: run one model-written JavaScript/TypeScript program against your Python
tools, under hard limits, and get one JSON-safe result.

    from codemode import CodeMode, Namespace, tool, Limits

    @tool
    async def lookup(id: str) -> dict:
        \"\"\"Look up an order by ID.\"\"\"
        return {"id": id, "status": "open"}

    runtime = CodeMode(tools={"orders": Namespace(lookup, description="Purchases")},
                       limits=Limits(timeout=5.0, max_tool_calls=50))
    result = await runtime.execute("return await tools.orders.lookup({ id: 'o1' })")
"""

from __future__ import annotations

import asyncio
import atexit
import inspect
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from ._native import (
    CallContext,
    CallEnd,
    CallFailure,
    CallStart,
    Diagnostic,
    Execution,
    Location,
    OpenApiNamespace,
    PendingCall,
    Result,
    Snapshot,
    SnapshotError,
    Suspended,
    SuspendError,
    ToolCall,
)
from ._native import Runtime as _Runtime
from ._native import _at_exit
from ._native import connect_mcp as _connect_mcp
from ._native import openapi as _openapi
from ._tools import Deny, Namespace, Tool, ToolError, durable, schema_for, tool, tool_tree

__all__ = [
    "CallContext",
    "CallEnd",
    "CallFailure",
    "CallStart",
    "CodeMode",
    "Deny",
    "Diagnostic",
    "Execution",
    "Limits",
    "Location",
    "Namespace",
    "OpenApiNamespace",
    "PendingCall",
    "Result",
    "Snapshot",
    "SnapshotError",
    "Suspended",
    "SuspendError",
    "Tool",
    "ToolCall",
    "ToolError",
    "durable",
    "openapi",
    "schema_for",
    "tool",
]


# Before the interpreter finalizes, keep the runtime's threads from calling into Python (a
# thread that takes the GIL during finalization is ended by CPython, which aborts the process).
atexit.register(_at_exit)


@dataclass(frozen=True)
class Limits:
    """Hard limits of every run. `None` keeps the default: no time or tool-call limit,
    unlimited output, 256 MiB of memory, 10,000 nested calls.

    - `timeout`: seconds for the whole run, compilation included (`TimeoutExceeded`).
    - `max_tool_calls`: admitted tool calls, `search` included (`ToolCallLimitExceeded`).
    - `max_output_bytes`: the result value's JSON and the logs together; past it the value is
      cut with a marker and `result.truncated` is True.
    - `memory_limit`: bytes the program's heap may hold (at least 4 MiB).
    - `max_call_depth`: nested calls before `RangeError: Maximum call stack size exceeded`.
    """

    timeout: Optional[float] = None
    max_tool_calls: Optional[int] = None
    max_output_bytes: Optional[int] = None
    memory_limit: Optional[int] = None
    max_call_depth: Optional[int] = None


Hook = Callable[[Any], Any]


def openapi(
    doc: Union[Mapping[str, Any], str],
    base_url: Optional[str] = None,
    *,
    auth: Optional[str] = None,
    headers: Optional[Mapping[str, str]] = None,
    timeout: Optional[float] = None,
) -> OpenApiNamespace:
    """An OpenAPI 3.x document's operations as a namespace of tools (each call is an HTTP
    request to `base_url`, or the document's first absolute `servers[].url`). `doc` is the
    document as a dict or JSON text; `auth` is the `Authorization` header's value
    (`"Bearer TOKEN"`); `headers` are sent with every request. Mount it like a `Namespace`:
    `CodeMode(tools={"petstore": openapi(doc, "https://...")})`."""
    sent = [(str(k), str(v)) for k, v in (headers or {}).items()]
    if auth is not None:
        sent.append(("Authorization", auth))
    if not isinstance(doc, str):
        doc = dict(doc)
    return _openapi(doc, base_url, sent, timeout)


def _hooks(hooks: Union[None, Hook, Sequence[Hook]]) -> List[Any]:
    if hooks is None:
        return []
    if callable(hooks):
        hooks = [hooks]
    out = []
    for h in hooks:
        if not callable(h):
            raise TypeError("a hook must be callable")
        out.append((h if inspect.iscoroutinefunction(h) else _on_loop(h), True))
    return out


def _on_loop(hook: Hook) -> Callable[[Any], Any]:
    """A sync hook, called on the caller's loop (hooks are meant to be quick)."""

    async def call(arg: Any) -> Any:
        return hook(arg)

    return call


class CodeMode:
    """A reusable runtime: tools, limits and hooks; each `execute` is one independent run.

    `tools` maps names to `Namespace`s, tools (`@tool` functions) or dicts of them.
    `before_call(call: CallStart)` hooks see every call before it reaches a tool and may deny it
    (raise or return `Deny("why")`); `after_call(end: CallEnd)` hooks see how each call ended.
    Hooks may be sync or async.
    """

    def __init__(
        self,
        tools: Any = None,
        *,
        limits: Optional[Limits] = None,
        before_call: Union[None, Hook, Sequence[Hook]] = None,
        after_call: Union[None, Hook, Sequence[Hook]] = None,
        root_name: Optional[str] = None,
        suspend_max_bytes: Optional[int] = None,
        _mcp: Any = None,
    ) -> None:
        if limits is not None and not isinstance(limits, Limits):
            raise TypeError("limits must be a codemode.Limits")
        self._mcp = _mcp
        self._native = _Runtime(
            tool_tree(tools),
            asdict(limits) if limits is not None else None,
            _hooks(before_call),
            _hooks(after_call),
            root_name,
            suspend_max_bytes,
            _mcp,
        )

    @classmethod
    async def from_mcp(
        cls, servers: Sequence[str], *, connect_timeout: Optional[float] = None, **options: Any
    ) -> "CodeMode":
        """A runtime over MCP servers' tools, one namespace per server: each server a command
        line (`"npx -y @modelcontextprotocol/server-everything"`, started as a child process,
        spoken to over stdio) or an `http(s)://` URL (streamable HTTP), optionally named
        (`"gh=npx -y @modelcontextprotocol/server-github"`). `options` are `CodeMode`'s
        (limits, hooks, ...), and `tools`: Python namespaces mounted beside the servers' (a name
        both use is an error). Close it with `await runtime.aclose()` (or `async with`)."""
        if isinstance(servers, str):
            servers = [servers]
        mcp = await _connect_mcp(list(servers), connect_timeout)
        try:
            return cls(_mcp=mcp, **options)
        except BaseException:
            await mcp.close()
            raise

    @classmethod
    def from_openapi(
        cls,
        doc: Union[Mapping[str, Any], str],
        base_url: Optional[str] = None,
        *,
        auth: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        name: Optional[str] = None,
        timeout: Optional[float] = None,
        **options: Any,
    ) -> "CodeMode":
        """A runtime over an OpenAPI document's operations (see `openapi`), mounted as
        `tools.<name>` (default: `api`). `options` are `CodeMode`'s."""
        api = openapi(doc, base_url, auth=auth, headers=headers, timeout=timeout)
        tools = dict(options.pop("tools", None) or {})
        tools[name or "api"] = api
        return cls(tools=tools, **options)

    async def aclose(self) -> None:
        """Closes the MCP connections of a runtime from `from_mcp` (nothing otherwise)."""
        if self._mcp is not None:
            await self._mcp.close()

    async def __aenter__(self) -> "CodeMode":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def execute(
        self,
        source: str,
        *,
        run_id: Optional[str] = None,
        bindings: Optional[Mapping[str, Any]] = None,
        context: Any = None,
        random_seed: Optional[int] = None,
        time_zone: Optional[str] = None,
    ) -> Result:
        """Runs `source` and returns its `Result`. Tool calls run concurrently on this loop;
        the VM runs on a Rust thread without the GIL. Cancelling the awaiting task ends the run
        (its running tool calls are cancelled too). `bindings` are read-only globals of the
        program (JSON data); `context` is handed to tools as `ctx.context` and to hooks.
        `time_zone` (an IANA name such as "America/New_York") is the run's local zone for `Date`
        and `Intl` (default UTC, whatever this machine's zone)."""
        return await self._native.execute(
            source,
            run_id,
            dict(bindings) if bindings is not None else None,
            context,
            random_seed,
            time_zone,
        )

    def execute_sync(self, source: str, **options: Any) -> Result:
        """`execute` for code without an event loop (runs one with `asyncio.run`)."""
        return asyncio.run(self.execute(source, **options))

    def start(
        self,
        source: str,
        *,
        run_id: Optional[str] = None,
        bindings: Optional[Mapping[str, Any]] = None,
        context: Any = None,
        random_seed: Optional[int] = None,
        time_zone: Optional[str] = None,
    ) -> Execution:
        """Starts `source` as an `Execution` that can be suspended: `await execution.result()`
        gives a `Result`, or a `Suspended` when a durable tool suspended the run; `await
        execution.suspend()` suspends it from outside. Call from a running event loop."""
        return self._native.start(
            source,
            run_id,
            dict(bindings) if bindings is not None else None,
            context,
            random_seed,
            time_zone,
        )

    def resume(
        self,
        state: Union[Snapshot, bytes],
        outcomes: Mapping[str, Any],
        *,
        context: Any = None,
    ) -> Execution:
        """Goes on with a suspended run: `outcomes` maps each pending call's key to its value
        or to a `ToolError` (the program's promise rejects with it). Raises `SnapshotError`
        when the state is malformed, from another build, or an outcome is missing."""
        if isinstance(state, (bytes, bytearray, memoryview)):
            state = Snapshot.from_bytes(bytes(state))
        return self._native.resume(state, dict(outcomes), context)

    def declarations(self) -> str:
        """The tools' TypeScript declarations, for the model's prompt."""
        return self._native.declarations()

    def catalog(self) -> List[Dict[str, str]]:
        """Every tool's path, description and TypeScript signature."""
        return [
            {"path": p, "description": d, "signature": s} for p, d, s in self._native.catalog()
        ]

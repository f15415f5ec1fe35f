"""Type stub of the native module `codemode._native` (its classes are re-exported by `codemode`)."""

from typing import Any, Awaitable, Dict, Generator, List, Optional, Sequence, Tuple, Union

class SnapshotError(Exception):
    """A saved state that is malformed, from another build, or does not fit this runtime."""

class SuspendError(Exception):
    """A run could not be suspended now; the run goes on."""

    blocking: List[Tuple[str, str]]
    """The calls in flight that keep it running, as `(key, path)`."""

class Location:
    """A 1-based source location."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...

class Diagnostic:
    """A failure or warning."""

    @property
    def kind(self) -> str:
        """`ParseError`, `UnsupportedSyntax`, `UnknownTool`, `InvalidToolInput`, `InvalidToolOutput`,
        `InvalidDataValue`, `ToolCallLimitExceeded`, `TimeoutExceeded`, `ToolFailure`,
        `ExecutionFailure`, `Truncated` (warnings only) or `Cancelled`."""
    @property
    def message(self) -> str: ...
    @property
    def location(self) -> Optional[Location]: ...

class CallFailure:
    """How a call failed, for the host only (never in `to_dict()`/`to_json()`)."""

    @property
    def kind(self) -> str:
        """`InvalidInput`, `InvalidOutput`, `Refused`, `Failed`, `Internal`, `Panicked`, `Denied` or `UnknownTool`."""
    @property
    def message(self) -> str:
        """What the program saw."""
    @property
    def cause(self) -> Optional[str]:
        """The private cause (an exception's type and text)."""

class ToolCall:
    """One admitted tool call, in program order."""

    @property
    def id(self) -> int: ...
    @property
    def path(self) -> str: ...
    @property
    def status(self) -> str:
        """`ok`, `error` or `interrupted`."""
    @property
    def failure(self) -> Optional[CallFailure]: ...

class Result:
    """The outcome of one run."""

    @property
    def ok(self) -> bool: ...
    @property
    def value(self) -> Any:
        """The program's JSON-safe result (None when it failed)."""
    @property
    def error(self) -> Optional[Diagnostic]: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...
    @property
    def logs(self) -> List[str]: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def tool_calls(self) -> List[ToolCall]: ...
    @property
    def run_id(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]:
        """The reference runtime's JSON shape (`toolCalls`, camelCase) as Python data."""
    def to_json(self, indent: Optional[int] = None) -> str:
        """The reference runtime's JSON shape as text: what to hand the model."""

class Snapshot:
    """A suspended run's saved state."""

    @property
    def run_id(self) -> str: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> "Snapshot":
        """Raises `SnapshotError` for bytes that are not a state of this build."""

class PendingCall:
    """A durable call a suspended run waits on."""

    @property
    def key(self) -> str:
        """Give the call's outcome under this key when resuming."""
    @property
    def path(self) -> str: ...
    @property
    def args(self) -> Any: ...
    @property
    def handle(self) -> Any:
        """The handle `start` returned (None when the run was suspended from `start`)."""

class Suspended:
    """A run suspended while durable calls are pending."""

    @property
    def ok(self) -> str:
        """Always `"suspended"`."""
    @property
    def run_id(self) -> str: ...
    @property
    def state(self) -> Snapshot: ...
    @property
    def pending(self) -> List[PendingCall]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Execution:
    """A run in progress that can be suspended."""

    @property
    def run_id(self) -> str: ...
    def result(self) -> Awaitable[Union[Result, Suspended]]:
        """Runs the program until it finishes or a durable tool suspends it."""
    def suspend(self) -> Awaitable[Union[Result, Suspended]]:
        """Suspends the run now; raises `SuspendError` while other calls run."""
    def __await__(self) -> Generator[Any, None, Union[Result, Suspended]]: ...

class CallContext:
    """What a tool receives as its `CallContext` parameter."""

    @property
    def key(self) -> str:
        """The call's idempotency key, `<run_id>:<id>`."""
    @property
    def path(self) -> str: ...
    @property
    def context(self) -> Any:
        """The value given as `execute(..., context=...)`."""
    def suspend(self) -> Awaitable[None]:
        """Durable tools: suspends the run with this call pending (never returns then);
        raises `SuspendError` when the run cannot be suspended now."""
    def _set_task(self, task: Any) -> None: ...
    def _done(self, value: Any) -> None: ...
    def _failed(self, error: BaseException) -> None: ...

class CallStart:
    """A call about to reach a tool, as a `before_call` hook sees it."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def input(self) -> Any: ...
    @property
    def key(self) -> str: ...
    @property
    def context(self) -> Any: ...

class CallEnd:
    """A finished call, as an `after_call` hook sees it."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def input(self) -> Any: ...
    @property
    def key(self) -> str: ...
    @property
    def status(self) -> str:
        """`ok`, `error` or `interrupted`."""
    @property
    def value(self) -> Any: ...
    @property
    def error_kind(self) -> Optional[str]: ...
    @property
    def error_message(self) -> Optional[str]: ...
    @property
    def duration(self) -> float:
        """Seconds."""

class Runtime:
    def __init__(
        self,
        tree: Sequence[Tuple[Any, ...]],
        limits_: Optional[Dict[str, Any]] = None,
        before: Optional[Sequence[Tuple[Any, bool]]] = None,
        after: Optional[Sequence[Tuple[Any, bool]]] = None,
        root_name: Optional[str] = None,
        suspend_max_bytes: Optional[int] = None,
        mcp: Optional["McpServers"] = None,
    ) -> None: ...
    def declarations(self) -> str: ...
    def catalog(self) -> List[Tuple[str, str, str]]: ...
    def execute(
        self,
        source: str,
        run_id: Optional[str] = None,
        bindings: Optional[Dict[str, Any]] = None,
        context: Any = None,
        random_seed: Optional[int] = None,
        time_zone: Optional[str] = None,
    ) -> Awaitable[Result]: ...
    def start(
        self,
        source: str,
        run_id: Optional[str] = None,
        bindings: Optional[Dict[str, Any]] = None,
        context: Any = None,
        random_seed: Optional[int] = None,
        time_zone: Optional[str] = None,
    ) -> Execution: ...
    def resume(self, state: Snapshot, outcomes: Dict[str, Any], context: Any = None) -> Execution: ...

class OpenApiNamespace:
    """An OpenAPI document's operations, to mount as a namespace (`codemode.openapi`)."""

    @property
    def title(self) -> Optional[str]: ...
    @property
    def skipped(self) -> List[Tuple[str, str]]:
        """Operations left out, as `(operation, reason)`."""
    @property
    def base_url(self) -> str: ...

class McpServers:
    """Connected MCP servers (`CodeMode.from_mcp`)."""

    def namespaces(self) -> List[str]: ...
    def close(self) -> Awaitable[None]: ...

class Dispatcher:
    """The async tool calls queued for one event loop (internal: `codemode._tools._dispatcher`)."""

    def __init__(self) -> None: ...
    def fileno(self) -> Optional[int]: ...
    def drain(self) -> None: ...
    def _watched(self) -> None: ...
    def _set_waker(self, waker: Any) -> None: ...

def openapi(
    doc: Any,
    base_url: Optional[str] = None,
    headers: Optional[List[Tuple[str, str]]] = None,
    timeout: Optional[float] = None,
) -> OpenApiNamespace: ...
def connect_mcp(servers: List[str], connect_timeout: Optional[float] = None) -> Awaitable[McpServers]: ...

"""Python functions as codemode tools: schemas from type hints, Pydantic models or JSON Schema
dicts, input decoding, output encoding and checking."""

from __future__ import annotations

import asyncio
import weakref
import inspect
import typing
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ._native import CallContext, OpenApiNamespace

try:  # Pydantic is optional: with it, any type it understands works as a parameter or result.
    import pydantic

    _HAS_PYDANTIC = True
except ImportError:  # pragma: no cover - exercised only without pydantic
    pydantic = None  # type: ignore[assignment]
    _HAS_PYDANTIC = False


class ToolError(Exception):
    """Raise from a tool to fail the call with a message the model sees (`ToolFailure`).

    `kind` is `"failure"` (the tool tried and failed, the default), `"refused"` (it declined:
    policy, authorization), `"invalid_input"` or `"invalid_output"`. Any other exception a tool
    raises is an internal error: the model sees a generic message and the host gets the
    exception in `result.tool_calls[i].failure.cause`.
    """

    _KINDS = ("failure", "refused", "invalid_input", "invalid_output")

    def __init__(self, message: str, *, kind: str = "failure") -> None:
        if kind not in self._KINDS:
            raise ValueError(f"ToolError kind must be one of {self._KINDS}, got {kind!r}")
        super().__init__(message)
        self.message = str(message)
        self.kind = kind
        self._codemode_kind = kind

    @classmethod
    def refused(cls, message: str) -> "ToolError":
        return cls(message, kind="refused")


class Deny(Exception):
    """Raise (or return) from a `before_call` hook to deny the call; `message` is what the
    program's error says."""

    _codemode_deny = True

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = str(message)


_PLAIN = (str, int, float, bool, dict, list, type(None), Any)
_BASIC = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object", list: "array"}


def _is_model(tp: Any) -> bool:
    return _HAS_PYDANTIC and inspect.isclass(tp) and issubclass(tp, pydantic.BaseModel)


def _is_plain(tp: Any) -> bool:
    """A type whose JSON Schema check (done in Rust) is all the checking it needs."""
    if tp is inspect.Parameter.empty or tp in _PLAIN:
        return True
    origin = typing.get_origin(tp)
    if origin in (list, dict, Union):
        return all(_is_plain(a) for a in typing.get_args(tp))
    return False


def _basic_schema(tp: Any) -> Dict[str, Any]:
    """A JSON Schema for simple hints, without Pydantic."""
    if tp is inspect.Parameter.empty or tp is Any:
        return {}
    if tp is type(None):
        return {"type": "null"}
    if tp in _BASIC:
        return {"type": _BASIC[tp]}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is list and args:
        return {"type": "array", "items": _basic_schema(args[0])}
    if origin is dict and len(args) == 2:
        return {"type": "object", "additionalProperties": _basic_schema(args[1])}
    if origin is Union:
        return {"anyOf": [_basic_schema(a) for a in args]}
    if origin is typing.Literal:
        return {"enum": list(args)}
    raise TypeError(f"cannot derive a JSON Schema for {tp!r} (install pydantic, or pass input_schema=...)")


def schema_for(tp: Any, *, mode: str = "validation") -> Dict[str, Any]:
    """The JSON Schema of a type hint (through Pydantic when it is installed)."""
    if tp is inspect.Parameter.empty or tp is Any:
        return {}
    if _HAS_PYDANTIC:
        return pydantic.TypeAdapter(tp).json_schema(mode=mode)
    return _basic_schema(tp)


def _hints(fn: Callable[..., Any]) -> Dict[str, Any]:
    try:
        return typing.get_type_hints(fn)
    except Exception:
        return dict(getattr(fn, "__annotations__", {}) or {})


def _is_context(tp: Any) -> bool:
    return tp is CallContext or tp == "CallContext"


def _first_line(doc: Optional[str]) -> str:
    return inspect.cleandoc(doc).strip() if doc else ""


class _Signature:
    """How to call a function from a tool input object, and its input schema."""

    def __init__(self, fn: Callable[..., Any], skip_first: bool = False) -> None:
        hints = _hints(fn)
        params = list(inspect.signature(fn).parameters.values())
        if skip_first:
            params = params[1:]
        self.ctx_name: Optional[str] = None
        self.model: Any = None  # a single Pydantic-model parameter: the input is the model
        self.names: List[str] = []
        self.var_kw = False
        fields: List[Tuple[str, Any, Any]] = []
        for p in params:
            tp = hints.get(p.name, p.annotation)
            if _is_context(tp):
                self.ctx_name = p.name
                continue
            if p.kind is inspect.Parameter.VAR_KEYWORD:
                self.var_kw = True
                continue
            if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.POSITIONAL_ONLY):
                raise TypeError(f"tool parameter '{p.name}' must be passable by name")
            fields.append((p.name, tp, p.default))
            self.names.append(p.name)
        if len(fields) == 1 and _is_model(fields[0][1]) and fields[0][2] is inspect.Parameter.empty:
            self.model = fields[0][1]
            self.schema: Dict[str, Any] = self.model.model_json_schema()
            self.decoder = None
            return
        self.plain = all(_is_plain(tp) for _, tp, _ in fields)
        if _HAS_PYDANTIC:
            definitions = {
                name: (Any if tp is inspect.Parameter.empty else tp, ... if default is inspect.Parameter.empty else default)
                for name, tp, default in fields
            }
            model = pydantic.create_model(f"{fn.__name__}_input", **definitions)  # type: ignore[call-overload]
            schema = model.model_json_schema()
            schema.pop("title", None)
            for prop in schema.get("properties", {}).values():
                prop.pop("title", None)
            self.schema = schema
            self.decoder = None if self.plain else model
        else:
            props = {name: _basic_schema(tp) for name, tp, _ in fields}
            required = [name for name, _, d in fields if d is inspect.Parameter.empty]
            self.schema = {"type": "object", "properties": props, "required": required}
            self.decoder = None

    def kwargs(self, args: Any, ctx: CallContext) -> Dict[str, Any]:
        if not isinstance(args, dict):
            args = {}
        if self.model is not None:
            kwargs = {self.names[0]: _decode(self.model, args)}
        elif self.decoder is not None:
            decoded = _decode(self.decoder, args)
            kwargs = {name: getattr(decoded, name) for name in self.names}
        elif self.var_kw:
            kwargs = dict(args)
        else:
            kwargs = {k: v for k, v in args.items() if k in self.names}
        if self.ctx_name is not None:
            kwargs[self.ctx_name] = ctx
        return kwargs


def _decode(model: Any, args: Any) -> Any:
    try:
        return model.model_validate(args)
    except pydantic.ValidationError as e:
        raise ToolError(_validation_message(e), kind="invalid_input") from None


def _validation_message(e: Any) -> str:
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err.get("loc", ()))
        parts.append(f"at input.{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return "; ".join(parts) or str(e)


class _Encoder:
    """Turns what a function returned into JSON data, checked against its return type."""

    def __init__(self, tp: Any) -> None:
        self.adapter = None
        if _HAS_PYDANTIC and not _is_plain(tp):
            self.adapter = pydantic.TypeAdapter(tp)

    def __call__(self, value: Any) -> Any:
        if self.adapter is not None:
            try:
                return self.adapter.dump_python(self.adapter.validate_python(value), mode="json")
            except pydantic.ValidationError as e:
                raise ToolError(str(e), kind="invalid_output") from None
        if _HAS_PYDANTIC and isinstance(value, pydantic.BaseModel):
            return value.model_dump(mode="json")
        return value


class Tool:
    """A Python function offered to programs as `tools.<namespace>.<name>(input)`.

    Make one with `@tool`; it stays callable as the plain function.
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: Optional[str] = None,
        description: Optional[str] = None,
        input_schema: Optional[Dict[str, Any]] = None,
        output_schema: Optional[Dict[str, Any]] = None,
    ) -> None:
        if not callable(fn):
            raise TypeError("a tool must be a function")
        self.fn = fn
        self.name = name or getattr(fn, "__name__", None) or "tool"
        self.description = description if description is not None else _first_line(fn.__doc__)
        self.is_async = inspect.iscoroutinefunction(fn)
        self.durable: Optional[_DurableOps] = None
        signature = _Signature(fn)
        hints = _hints(fn)
        returns = hints.get("return", inspect.Parameter.empty)
        self.input_schema = input_schema if input_schema is not None else signature.schema
        if output_schema is not None:
            self.output_schema: Optional[Dict[str, Any]] = output_schema
        elif returns is None or returns is type(None):
            self.output_schema = None
        else:
            self.output_schema = schema_for(returns, mode="serialization")
        encode = _Encoder(returns)
        if input_schema is not None:  # a JSON Schema tool: the function takes the input as given
            def kwargs(args: Any, ctx: CallContext) -> Dict[str, Any]:
                out = dict(args) if isinstance(args, dict) else {}
                if signature.ctx_name is not None:
                    out[signature.ctx_name] = ctx
                return {k: v for k, v in out.items() if signature.var_kw or k in signature.names or k == signature.ctx_name}
        else:
            kwargs = signature.kwargs
        self.invoke = _make_invoke(fn, self.is_async, kwargs, encode)
        self.invoke_is_async = True  # `invoke` is always a coroutine function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Tool({self.name!r})"


def _make_invoke(fn: Callable[..., Any], is_async: bool, kwargs: Callable[..., Dict[str, Any]], encode: Callable[[Any], Any]) -> Callable[..., Any]:
    """The coroutine function the runtime calls on the caller's loop for each call. A sync
    function runs in the loop's default executor (`asyncio.to_thread`): Python's own threads,
    which the interpreter waits for at exit."""
    if is_async:
        async def invoke(args: Any, ctx: CallContext) -> None:
            try:
                out = encode(await fn(**kwargs(args, ctx)))
            except BaseException as e:
                ctx._failed(e)
                raise
            ctx._done(out)
    else:
        def call(args: Any, ctx: CallContext) -> Any:
            return encode(fn(**kwargs(args, ctx)))

        async def invoke(args: Any, ctx: CallContext) -> None:  # type: ignore[misc]
            try:
                out = await asyncio.to_thread(call, args, ctx)
            except BaseException as e:
                ctx._failed(e)
                raise
            ctx._done(out)
    return invoke


class _DurableOps:
    def __init__(self, attach: Callable[..., Any], cancel: Optional[Callable[[Any], Any]]) -> None:
        if cancel is not None and inspect.iscoroutinefunction(cancel):
            raise TypeError("a durable tool's cancel must be a plain (sync) function; it runs on a worker thread")
        self.attach_is_async = inspect.iscoroutinefunction(attach)
        hints = _hints(attach)
        encode = _Encoder(hints.get("return", inspect.Parameter.empty))
        params = list(inspect.signature(attach).parameters.values())
        takes_ctx = len(params) >= 2

        def call_args(handle: Any, ctx: CallContext) -> Tuple[Any, ...]:
            return (handle, ctx) if takes_ctx else (handle,)

        if self.attach_is_async:
            async def run(handle: Any, ctx: CallContext) -> Any:
                return encode(await attach(*call_args(handle, ctx)))
        else:
            def call(handle: Any, ctx: CallContext) -> Any:
                return encode(attach(*call_args(handle, ctx)))

            async def run(handle: Any, ctx: CallContext) -> Any:  # type: ignore[misc]
                return await asyncio.to_thread(call, handle, ctx)

        async def attach_invoke(handle: Any, ctx: CallContext) -> None:
            try:
                out = await run(handle, ctx)
            except BaseException as e:
                ctx._failed(e)
                raise
            ctx._done(out)
        self.attach = attach_invoke
        self.attach_invoke_is_async = True
        self.cancel = cancel
        self.returns = hints.get("return", inspect.Parameter.empty)


def tool(
    fn: Optional[Callable[..., Any]] = None,
    *,
    name: Optional[str] = None,
    description: Optional[str] = None,
    input_schema: Optional[Dict[str, Any]] = None,
    output_schema: Optional[Dict[str, Any]] = None,
) -> Any:
    """Makes a function a tool: `@tool` or `@tool(name=..., description=..., input_schema=...)`.

    The input schema comes from the parameters' type hints (a parameter annotated
    `CallContext` receives the call's context instead); a single Pydantic-model parameter makes
    the model the input. The output schema comes from the return hint. The description defaults
    to the docstring. Sync functions run on a worker thread, async ones on the caller's loop.
    """

    def wrap(f: Callable[..., Any]) -> Tool:
        return Tool(f, name=name, description=description, input_schema=input_schema, output_schema=output_schema)

    return wrap(fn) if fn is not None else wrap


def durable(
    start: Optional[Callable[..., Any]] = None,
    *,
    attach: Callable[..., Any],
    cancel: Optional[Callable[[Any], Any]] = None,
    name: Optional[str] = None,
    description: Optional[str] = None,
    input_schema: Optional[Dict[str, Any]] = None,
    output_schema: Optional[Dict[str, Any]] = None,
) -> Any:
    """A durable tool, whose work outlives the run: `start(**input, ctx)` launches the work and
    returns a JSON handle; `attach(handle, ctx)` waits for its output; `cancel(handle)` (sync,
    optional) stops it when a run ends with the call still running. `await ctx.suspend()` in
    `start` or `attach` suspends the run with this call pending (an approval). Use as
    `@durable(attach=...)` on `start`.
    """

    def wrap(f: Callable[..., Any]) -> Tool:
        ops = _DurableOps(attach, cancel)
        out = output_schema
        if out is None and ops.returns is not inspect.Parameter.empty and ops.returns is not None:
            out = schema_for(ops.returns, mode="serialization")
        t = Tool(f, name=name, description=description, input_schema=input_schema, output_schema=out if out is not None else {})
        # `start` returns the handle: plain JSON, not the tool's output.
        signature = _Signature(f)
        t.invoke = _make_invoke(f, t.is_async, signature.kwargs if input_schema is None else _raw_kwargs(signature), _identity)
        t.durable = ops
        return t

    return wrap(start) if start is not None else wrap


def _identity(value: Any) -> Any:
    return value


def _raw_kwargs(signature: _Signature) -> Callable[..., Dict[str, Any]]:
    def kwargs(args: Any, ctx: CallContext) -> Dict[str, Any]:
        out = {k: v for k, v in (args if isinstance(args, dict) else {}).items() if signature.var_kw or k in signature.names}
        if signature.ctx_name is not None:
            out[signature.ctx_name] = ctx
        return out

    return kwargs


class Namespace:
    """A group of tools (`tools.<name>.<tool>`) with a description the model sees.

    `Namespace(lookup, cancel, description="Purchases")` takes tools (or plain functions) by
    their names; keyword arguments name tools or nested namespaces explicitly.
    """

    def __init__(self, *tools: Any, description: Optional[str] = None, **named: Any) -> None:
        self.description = description
        self.members: Dict[str, Union[Tool, "Namespace"]] = {}
        for t in tools:
            t = _as_tool(t)
            self._add(t.name, t)
        for key, value in named.items():
            self._add(key, value if isinstance(value, (Namespace, OpenApiNamespace)) else _as_tool(value))

    def _add(self, name: str, member: Union[Tool, "Namespace"]) -> None:
        if name in self.members:
            raise ValueError(f"the name '{name}' is given twice in one namespace")
        self.members[name] = member

    def _tree(self) -> List[Tuple[Any, ...]]:
        return _tree(self.members)


def _as_tool(value: Any) -> Tool:
    if isinstance(value, Tool):
        return value
    if callable(value):
        return Tool(value)
    raise TypeError(f"expected a tool, a function or a Namespace, got {type(value).__name__}")


def _tree(members: Dict[str, Any]) -> List[Tuple[Any, ...]]:
    out: List[Tuple[Any, ...]] = []
    for name, member in members.items():
        if isinstance(member, Namespace):
            out.append(("namespace", name, member.description, member._tree()))
        elif isinstance(member, OpenApiNamespace):
            out.append(("openapi", name, member))
        elif isinstance(member, dict):
            out.append(("namespace", name, None, _tree(member)))
        else:
            out.append(("tool", name, _as_tool(member)))
    return out


def tool_tree(tools: Any) -> List[Tuple[Any, ...]]:
    """`CodeMode(tools=...)`: a dict of names to namespaces, tools or dicts, or a list of tools."""
    if tools is None:
        return []
    if isinstance(tools, Namespace):
        return tools._tree()
    if isinstance(tools, dict):
        return _tree(tools)
    if isinstance(tools, (list, tuple)):
        return _tree({t.name: t for t in map(_as_tool, tools)})
    raise TypeError("tools must be a dict of names to namespaces or tools, or a list of tools")


# One call queue per event loop (see the native `dispatch` module): the runtime's threads queue
# async calls without the GIL and wake the loop once per batch through a socket it watches.
_dispatchers: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


# Loops that cannot be weakly referenced, by id (kept with their loop).
_strong_dispatchers: Dict[int, Tuple[Any, Any]] = {}


def _dispatcher(loop: Any) -> Any:
    try:
        d = _dispatchers.get(loop)
    except TypeError:
        d = _strong_dispatchers.get(id(loop), (None, None))[1]
    if d is None:
        from ._native import Dispatcher

        d = Dispatcher()
        fd = d.fileno()
        try:
            if fd is None:
                raise NotImplementedError
            loop.add_reader(fd, d.drain)
            d._watched()
        except (NotImplementedError, AttributeError, OSError):
            d._set_waker(_waker(loop, d))
        try:
            _dispatchers[loop] = d
        except TypeError:
            _strong_dispatchers[id(loop)] = (loop, d)
    return d


def _waker(loop: Any, d: Any) -> Callable[[], None]:
    """`loop.call_soon_threadsafe(d.drain)`, holding neither strongly (the dispatcher keeps its
    waker: strong references would keep both alive for ever)."""
    try:
        loop_ref: Callable[[], Any] = weakref.ref(loop)
    except TypeError:
        loop_ref = lambda: loop  # noqa: E731
    d_ref = weakref.ref(d)

    def wake() -> None:
        target, dispatcher = loop_ref(), d_ref()
        if target is not None and dispatcher is not None:
            target.call_soon_threadsafe(dispatcher.drain)

    return wake

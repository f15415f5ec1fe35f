"""The codemode Python package against the contract: result shape, every diagnostic kind,
limits, tools (async, sync, Pydantic, JSON Schema), hooks, per-run options, cancellation,
durable tools with suspend/resume."""

import asyncio
import json
import threading
import time
from typing import List, Optional

import pydantic
import pytest

import codemode
from codemode import (
    CallContext,
    CodeMode,
    Deny,
    Limits,
    Namespace,
    Snapshot,
    SnapshotError,
    Suspended,
    SuspendError,
    ToolError,
    durable,
    tool,
)


def run(coro):
    return asyncio.run(coro)


@tool
async def lookup(id: str) -> dict:
    """Look up an order by ID."""
    return {"id": id, "status": "open", "total": 10}


@tool
async def fail(reason: str) -> dict:
    """Always fails."""
    raise ToolError(f"cannot: {reason}")


@tool
async def refuse() -> dict:
    raise ToolError.refused("not allowed for this user")


@tool
async def crash() -> dict:
    raise ValueError("secret database password in this message")


@tool
async def weird() -> dict:
    return {"when": object()}


@tool
def count(ids: List[str]) -> int:
    """A sync tool."""
    return len(ids)


@tool
async def wrong() -> int:
    return "not a number"  # type: ignore[return-value]


def runtime(**kwargs):
    tools = {
        "orders": Namespace(lookup, fail, refuse, crash, weird, count, wrong, description="Purchases"),
    }
    return CodeMode(tools=tools, **kwargs)


# ---------------------------------------------------------------- result shape


def test_quick_start_shape():
    rt = runtime(limits=Limits(timeout=5.0, max_tool_calls=50, max_output_bytes=65536))
    r = run(rt.execute("console.log('hi'); return await tools.orders.lookup({ id: 'o1' })"))
    assert r.ok is True
    assert r.value == {"id": "o1", "status": "open", "total": 10}
    assert r.logs == ["hi"]
    assert r.error is None
    assert r.warnings == []
    assert r.truncated is False
    assert [(c.id, c.path, c.status) for c in r.tool_calls] == [(1, "orders.lookup", "ok")]
    assert r.to_dict() == {
        "ok": True,
        "value": {"id": "o1", "status": "open", "total": 10},
        "logs": ["hi"],
        "toolCalls": [{"id": 1, "path": "orders.lookup", "status": "ok"}],
    }
    assert json.loads(r.to_json()) == r.to_dict()
    assert json.loads(r.to_json(indent=2)) == r.to_dict()
    assert r.run_id


def test_failed_result_shape():
    r = run(runtime().execute("const x = 1;\nthrow new Error('boom')"))
    assert r.ok is False and r.value is None
    assert r.error.kind == "ExecutionFailure"
    assert "boom" in r.error.message
    assert r.error.location is not None and r.error.location.line == 2
    d = r.to_dict()
    assert d["ok"] is False and d["error"]["kind"] == "ExecutionFailure" and "value" not in d


def test_declarations_and_catalog():
    rt = runtime()
    decls = rt.declarations()
    assert "lookup(input: { id: string }): Promise<Record<string, unknown>>" in decls
    assert "Look up an order by ID." in decls and "Purchases" in decls
    assert "count(input: { ids: string[] }): Promise<number>" in decls
    paths = [t["path"] for t in rt.catalog()]
    assert "orders.lookup" in paths and "orders.count" in paths


# ---------------------------------------------------------------- every diagnostic kind


@pytest.mark.parametrize(
    "source,kind",
    [
        ("let x = ;", "ParseError"),
        ("", "ParseError"),
        ('export * from "fs"', "UnsupportedSyntax"),
        ("return await tools.orders.nope({})", "UnknownTool"),
        ("return await tools.orders.lookup({ id: 5 })", "InvalidToolInput"),
        ("return await tools.orders.weird()", "InvalidToolOutput"),
        ("return await tools.orders.wrong()", "InvalidToolOutput"),
        ("return { big: 2n ** 70n }", "InvalidDataValue"),
        ("return await tools.orders.fail({ reason: 'x' })", "ToolFailure"),
        ("throw new TypeError('bad')", "ExecutionFailure"),
        ("while (true) {}", "TimeoutExceeded"),
        ("for (let i = 0; i < 5; i++) await tools.orders.lookup({ id: 'a' + i })", "ToolCallLimitExceeded"),
    ],
)
def test_every_diagnostic_kind(source, kind):
    rt = runtime(limits=Limits(timeout=0.5, max_tool_calls=3))
    r = run(rt.execute(source))
    assert r.ok is False, r.to_json()
    assert r.error.kind == kind, r.to_json()
    assert r.error.message


def test_truncated_warning_and_output_limit():
    rt = runtime(limits=Limits(max_output_bytes=1000))
    r = run(rt.execute('for (let i = 0; i < 50; i++) Promise.reject(new Error("rejection " + i));\nreturn "x".repeat(5000)'))
    assert r.ok and r.truncated
    assert r.warnings[-1].kind == "Truncated"
    assert isinstance(r.value, str) and len(r.value) < 5000


def test_tool_failure_messages_and_host_only_causes():
    r = run(runtime().execute("""
        const out = [];
        for (const f of [() => tools.orders.fail({ reason: 'r' }), () => tools.orders.refuse(), () => tools.orders.crash()]) {
          try { await f() } catch (e) { out.push(e.message) }
        }
        return out
    """))
    assert r.ok, r.to_json()
    assert r.value[0] == "cannot: r"
    assert r.value[1] == "not allowed for this user"
    # An unexpected exception is an internal error: the model sees a generic message...
    assert "secret" not in r.value[2] and "internal" in r.value[2]
    assert "secret" not in r.to_json()
    # ...and the host sees the exception.
    failures = [c.failure for c in r.tool_calls]
    assert [f.kind for f in failures] == ["Failed", "Refused", "Internal"]
    assert "ValueError: secret database password" in failures[2].cause


def test_non_json_tool_output_names_the_path():
    r = run(runtime().execute("return await tools.orders.weird()"))
    assert r.error.kind == "InvalidToolOutput"
    assert "$.when" in r.error.message and "object" in r.error.message


def test_deeply_nested_tool_output_is_refused_not_a_crash():
    @tool
    async def deep() -> dict:
        v: dict = {}
        for _ in range(10_000):
            v = {"a": v}
        return v

    r = run(CodeMode(tools={"t": Namespace(deep)}).execute("return await tools.t.deep()"))
    assert r.ok is False and r.error.kind == "InvalidToolOutput"


# ---------------------------------------------------------------- tools


def test_async_tool_calls_run_concurrently_on_the_callers_loop():
    loop_threads = set()

    @tool
    async def slow(n: int) -> int:
        loop_threads.add(threading.get_ident())
        await asyncio.sleep(0.3)
        return n * 2

    rt = CodeMode(tools={"t": Namespace(slow)})

    async def main():
        me = threading.get_ident()
        t0 = time.perf_counter()
        r = await rt.execute("return await Promise.all([1,2,3,4,5].map(n => tools.t.slow({ n })))")
        return r, time.perf_counter() - t0, me

    r, elapsed, me = run(main())
    assert r.value == [2, 4, 6, 8, 10]
    assert elapsed < 1.0, elapsed  # 5 x 0.3 s in parallel
    assert loop_threads == {me}


def test_sync_tools_run_on_worker_threads():
    seen = []

    @tool
    def block(ms: int) -> str:
        seen.append(threading.get_ident())
        time.sleep(ms / 1000)
        return "done"

    async def main():
        t0 = time.perf_counter()
        r = await CodeMode(tools={"t": Namespace(block)}).execute(
            "return await Promise.all([1,2,3].map(() => tools.t.block({ ms: 300 })))"
        )
        return r, time.perf_counter() - t0, threading.get_ident()

    r, elapsed, me = run(main())
    assert r.value == ["done"] * 3
    assert me not in seen
    assert elapsed < 0.85, elapsed


class Address(pydantic.BaseModel):
    city: str
    zip: Optional[str] = None


class Customer(pydantic.BaseModel):
    name: str
    address: Address


class Label(pydantic.BaseModel):
    text: str
    lines: int


def test_pydantic_input_is_decoded_and_output_checked():
    got = []

    @tool
    async def label(customer: Customer) -> Label:
        """Make a shipping label."""
        got.append(customer)
        return Label(text=f"{customer.name}, {customer.address.city}", lines=2)

    @tool
    def bad_label(customer: Customer) -> Label:
        return {"text": 1}  # type: ignore[return-value]

    rt = CodeMode(tools={"ship": Namespace(label, bad_label)})
    decls = rt.declarations()
    assert "label(input:" in decls and "city" in decls
    r = run(rt.execute("return await tools.ship.label({ name: 'Ada', address: { city: 'Paris' } })"))
    assert r.value == {"text": "Ada, Paris", "lines": 2}
    assert isinstance(got[0], Customer) and isinstance(got[0].address, Address)
    r = run(rt.execute("return await tools.ship.label({ name: 'Ada', address: { zip: 1 } })"))
    assert r.error.kind == "InvalidToolInput" and "city" in r.error.message
    r = run(rt.execute("return await tools.ship.bad_label({ name: 'Ada', address: { city: 'P' } })"))
    assert r.error.kind == "InvalidToolOutput"


def test_parameters_with_models_and_defaults():
    @tool
    async def move(to: Address, express: bool = False, note: Optional[str] = None) -> dict:
        assert isinstance(to, Address)
        return {"city": to.city, "express": express, "note": note}

    rt = CodeMode(tools={"s": Namespace(move)})
    r = run(rt.execute("return await tools.s.move({ to: { city: 'Oslo' } })"))
    assert r.value == {"city": "Oslo", "express": False, "note": None}


def test_json_schema_tool():
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}

    @tool(name="find", description="Find things", input_schema=schema, output_schema={"type": "array", "items": {"type": "string"}})
    async def find_things(q, ctx: CallContext):
        return [q, ctx.path]

    rt = CodeMode(tools={"s": Namespace(find_things)})
    assert "find(input: { q: string }): Promise<string[]>" in rt.declarations()
    r = run(rt.execute("return await tools.s.find({ q: 'x' })"))
    assert r.value == ["x", "s.find"]
    r = run(rt.execute("return await tools.s.find({ })"))
    assert r.error.kind == "InvalidToolInput"


def test_tools_as_plain_functions_dicts_and_lists():
    async def hello(name: str) -> str:
        return "hi " + name

    rt = CodeMode(tools={"a": {"b": {"hello": hello}}, "x": Namespace(greet=hello)})
    r = run(rt.execute("return [await tools.a.b.hello({ name: 'A' }), await tools.x.greet({ name: 'B' })]"))
    assert r.value == ["hi A", "hi B"]
    rt = CodeMode(tools=[tool(hello)])
    assert run(rt.execute("return await tools.hello({ name: 'C' })")).value == "hi C"


def test_bad_configuration_raises_clear_errors():
    with pytest.raises(ValueError, match="timeout"):
        CodeMode(limits=Limits(timeout=-1.0))
    with pytest.raises(ValueError, match="max_tool_calls"):
        CodeMode(limits=Limits(max_tool_calls=0))
    with pytest.raises(ValueError, match="memory_limit"):
        CodeMode(limits=Limits(memory_limit=10))
    with pytest.raises(TypeError):
        CodeMode(tools={"x": 5})
    with pytest.raises(ValueError):
        CodeMode(tools={"x": Namespace(lookup)}, root_name="not an identifier")
    with pytest.raises(ValueError):
        ToolError("x", kind="bogus")


# ---------------------------------------------------------------- per-run options


def test_run_id_bindings_and_context_reach_tools():
    seen = []

    @tool
    async def who(ctx: CallContext) -> dict:
        seen.append((ctx.key, ctx.path, ctx.context))
        return {"user": ctx.context["user"]}

    rt = CodeMode(tools={"me": Namespace(who)})
    r = run(rt.execute("return [limit, (await tools.me.who()).user]", run_id="r-7", bindings={"limit": 3}, context={"user": "ada"}))
    assert r.value == [3, "ada"]
    assert r.run_id == "r-7"
    assert seen == [("r-7:1", "me.who", {"user": "ada"})]


def test_bad_bindings_raise():
    with pytest.raises(TypeError, match="binding 'x'"):
        run(runtime().execute("return x", bindings={"x": object()}))
    r = run(runtime().execute("return 1", bindings={"Math": 1}))
    assert r.ok is False


def test_random_seed_makes_runs_repeatable():
    rt = runtime()
    a = run(rt.execute("return Math.random()", random_seed=42)).value
    b = run(rt.execute("return Math.random()", random_seed=42)).value
    assert a == b


def test_time_zone_is_the_runs_local_zone_for_date_and_intl():
    rt = runtime()
    source = """
        const d = new Date(Date.UTC(2024, 6, 4, 16, 0));
        return [d.getHours(), d.getTimezoneOffset(), d.toLocaleTimeString("en-US"),
                new Date(2024, 0, 15, 9, 30).toISOString()];
    """
    r = run(rt.execute(source, time_zone="America/New_York"))
    assert r.value == [12, 240, "12:00:00 PM", "2024-01-15T14:30:00.000Z"]
    assert run(rt.execute(source)).value == [16, 0, "4:00:00 PM", "2024-01-15T09:30:00.000Z"]
    bad = run(rt.execute(source, time_zone="Mars/Olympus"))
    assert bad.ok is False and "Invalid time zone specified: Mars/Olympus" in bad.error.message


def test_execute_needs_a_running_loop_and_execute_sync_has_one():
    with pytest.raises(RuntimeError):
        runtime()._native.execute("return 1", None, None, None, None)
    assert runtime().execute_sync("return 40 + 2").value == 42


# ---------------------------------------------------------------- hooks


def test_hooks_deny_and_observe():
    ends = []

    def before(call):
        if call.name == "orders.fail":
            raise Deny("fail is off-limits")
        if call.input.get("id") == "blocked":
            return Deny("that order is blocked for " + call.context)

    async def after(end):
        ends.append((end.name, end.key, end.status, end.value, end.error_kind, end.duration >= 0))

    rt = runtime(before_call=before, after_call=[after])
    r = run(rt.execute("""
        const out = [];
        try { await tools.orders.fail({ reason: 'x' }) } catch (e) { out.push(e.message) }
        try { await tools.orders.lookup({ id: 'blocked' }) } catch (e) { out.push(e.message) }
        out.push((await tools.orders.lookup({ id: 'ok' })).id);
        return out
    """, run_id="h", context="bob"))
    assert r.value == ["fail is off-limits", "that order is blocked for bob", "ok"], r.to_json()
    assert [c.failure.kind if c.failure else None for c in r.tool_calls] == ["Denied", "Denied", None]
    assert ends[-1] == ("orders.lookup", "h:3", "ok", {"id": "ok", "status": "open", "total": 10}, None, True)
    assert ends[0][2] == "error" and ends[0][4] == "Denied"


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the hook's bug is reported
def test_async_before_hook_and_a_hook_that_raises_denies():
    async def before(call):
        await asyncio.sleep(0)
        if call.name == "orders.count":
            raise RuntimeError("hook bug")

    rt = runtime(before_call=before)
    r = run(rt.execute("try { await tools.orders.count({ ids: [] }) } catch (e) { return e.message }"))
    assert r.value == "The call to 'orders.count' was denied."
    assert run(rt.execute("return (await tools.orders.lookup({ id: 'z' })).id")).value == "z"


# ---------------------------------------------------------------- GIL, loop, cancellation


def test_the_loop_runs_while_the_vm_runs():
    ticks = []

    async def ticker():
        while True:
            ticks.append(1)
            await asyncio.sleep(0.01)

    async def main():
        t = asyncio.ensure_future(ticker())
        r = await runtime(limits=Limits(timeout=0.5)).execute("while (true) {}")
        t.cancel()
        return r

    r = run(main())
    assert r.error.kind == "TimeoutExceeded"
    assert len(ticks) > 10  # the VM ran off the loop, without the GIL


def test_cancelling_the_task_ends_the_run_and_cancels_running_tools():
    state = {"started": 0, "cancelled": 0, "finished": 0}

    @tool
    async def forever() -> dict:
        state["started"] += 1
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            state["cancelled"] += 1
            raise
        state["finished"] += 1
        return {}

    rt = CodeMode(tools={"t": Namespace(forever)})

    async def main():
        task = asyncio.ensure_future(rt.execute("return await Promise.all([tools.t.forever(), tools.t.forever()])"))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(100):
            if state["cancelled"] == 2:
                break
            await asyncio.sleep(0.01)

    run(main())
    assert state == {"started": 2, "cancelled": 2, "finished": 0}


def test_a_timeout_cancels_running_tool_calls():
    cancelled = []

    @tool
    async def hang() -> dict:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return {}

    async def main():
        r = await CodeMode(tools={"t": Namespace(hang)}, limits=Limits(timeout=0.2)).execute("return await tools.t.hang()")
        for _ in range(100):
            if cancelled:
                break
            await asyncio.sleep(0.01)
        return r

    r = run(main())
    assert r.error.kind == "TimeoutExceeded"
    assert [c.status for c in r.tool_calls] == ["interrupted"]
    assert cancelled == [True]


# ---------------------------------------------------------------- durable tools, suspend, resume


async def _never_attach(handle, ctx):
    raise ToolError("approvals are given on resume")


@durable(attach=_never_attach)
async def approve(amount: int, ctx: CallContext) -> dict:
    """Ask a person to approve a payment."""
    await ctx.suspend()
    return {"never": True}


SOURCE = """
const a = await tools.pay.approve({ amount: 120 });
if (!a.approved) return "declined";
const order = await tools.pay.lookup({ id: "o1" });
return { paid: order.id, by: a.by };
"""


def pay_runtime():
    return CodeMode(tools={"pay": Namespace(approve, lookup)})


def test_durable_round_trip_through_bytes():
    async def first():
        execution = pay_runtime().start(SOURCE, run_id="pay-1")
        outcome = await execution.result()
        assert isinstance(outcome, Suspended)
        assert outcome.ok == "suspended" and outcome.run_id == "pay-1"
        [p] = outcome.pending
        assert (p.key, p.path, p.args) == ("pay-1:1", "pay.approve", {"amount": 120})
        assert outcome.to_dict()["pending"][0]["key"] == "pay-1:1"
        return outcome.state.to_bytes(), p.key

    state, key = run(first())
    assert isinstance(state, bytes) and len(state) > 0

    async def second():
        # A new runtime (as in another process) resumes from the bytes.
        execution = pay_runtime().resume(Snapshot.from_bytes(state), {key: {"approved": True, "by": "ada"}})
        return await execution

    r = run(second())
    assert r.ok, r.to_json()
    assert r.value == {"paid": "o1", "by": "ada"}
    assert [c.path for c in r.tool_calls] == ["pay.approve", "pay.lookup"]

    async def declined_with_error():
        r = await pay_runtime().resume(state, {key: ToolError("the approver said no")}).result()
        return r

    r = run(declined_with_error())
    assert r.ok is False and r.error.kind == "ToolFailure" and "the approver said no" in r.error.message


def test_awaiting_directly_cannot_suspend():
    r = run(pay_runtime().execute(SOURCE))
    assert r.ok is False and r.error.kind == "ToolFailure"
    assert "cannot be suspended" in r.error.message


def test_resume_errors():
    with pytest.raises(SnapshotError):
        Snapshot.from_bytes(b"not a snapshot")

    async def main():
        outcome = await pay_runtime().start(SOURCE).result()
        with pytest.raises(SnapshotError):
            pay_runtime().resume(outcome.state, {"wrong-key": 1})
        with pytest.raises(TypeError):
            pay_runtime().resume(outcome.state, {outcome.pending[0].key: object()})

    run(main())


def test_suspend_from_outside_with_attached_durable_work():
    jobs = {}

    async def wait_build(handle, ctx):
        await asyncio.sleep(30)
        return {"ok": True}

    @durable(attach=wait_build)
    async def build(target: str, ctx: CallContext) -> dict:
        jobs[ctx.key] = target
        return {"job": ctx.key}

    rt = CodeMode(tools={"ci": Namespace(build, lookup)})

    async def main():
        execution = rt.start("const b = await tools.ci.build({ target: 'web' }); return b.ok", run_id="b")
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(execution.result(), 0.3)
        outcome = await execution.suspend()
        assert isinstance(outcome, Suspended)
        [p] = outcome.pending
        assert p.handle == {"job": "b:1"} and jobs == {"b:1": "web"}
        resumed = await rt.resume(outcome.state.to_bytes(), {p.key: {"ok": True}})
        return resumed

    r = run(main())
    assert r.ok and r.value is True


def test_suspend_is_refused_while_a_plain_tool_runs():
    @tool
    async def slow() -> int:
        await asyncio.sleep(0.5)
        return 1

    rt = CodeMode(tools={"t": Namespace(slow)})

    async def main():
        execution = rt.start("return await tools.t.slow()", run_id="s")
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(execution.result(), 0.1)
        with pytest.raises(SuspendError) as info:
            await execution.suspend()
        assert ("s:1", "tools.t.slow") in info.value.blocking
        return await execution.result()

    r = run(main())
    assert r.ok and r.value == 1


def test_package_exports():
    for name in codemode.__all__:
        assert hasattr(codemode, name), name


def test_the_stub_names_what_the_native_module_has():
    import ast
    import pathlib

    from codemode import _native

    stub = pathlib.Path(codemode.__file__).with_name("_native.pyi")
    tree = ast.parse(stub.read_text())
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        assert hasattr(_native, cls.name), cls.name
        for member in cls.body:
            if isinstance(member, ast.FunctionDef) and member.name != "__init__":
                assert hasattr(getattr(_native, cls.name), member.name), f"{cls.name}.{member.name}"


def test_the_sqlite_example_suspends_and_resumes_across_processes(tmp_path):
    import os
    import pathlib
    import subprocess
    import sys

    example = pathlib.Path(__file__).parent.parent / "examples" / "approval_sqlite.py"
    env = {**os.environ, "CODEMODE_EXAMPLE_DB": str(tmp_path / "runs.sqlite3")}

    def cmd(*args):
        out = subprocess.run([sys.executable, str(example), *args], env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout

    waiting = cmd("start")
    assert waiting.startswith("waiting: ") and "shop.approve" in waiting
    key = waiting.split()[1]
    assert key in cmd("list")
    done = json.loads(cmd("approve", key))
    assert done["ok"] is True and done["value"] == {"order": "o-42", "paid": True, "approvedBy": "ada"}
    assert cmd("list") == ""


def test_the_readme_python_quick_start_runs_as_shown(capsys):
    import pathlib
    import re

    readme = (pathlib.Path(__file__).parents[3] / "README.md").read_text()
    section = readme.split("## Python quick start", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "True {'id': 'o1', 'status': 'open'}"
    assert json.loads(out[1])["toolCalls"] == [{"id": 1, "path": "orders.lookup", "status": "ok"}]


# ---------------------------------------------------------------- MCP servers and OpenAPI documents


def test_from_mcp_offers_a_servers_tools():
    import pathlib
    import sys

    server = pathlib.Path(__file__).with_name("mcp_server.py")

    async def main():
        async with await CodeMode.from_mcp([f"math={sys.executable} {server}"], limits=Limits(timeout=10.0)) as rt:
            decls = rt.declarations()
            r = await rt.execute("return [await tools.math.add({ a: 2, b: 3 }), await tools.math.shout({ text: 'hi' })]")
            bad = await rt.execute("return await tools.math.add({ a: 'x' })")
        return decls, r, bad

    decls, r, bad = run(main())
    assert "add(input: { a: number, b: number }): Promise<{ sum: number }>" in decls
    assert r.ok and r.value == [{"sum": 5}, "HI"], r.to_json()
    assert bad.error.kind == "ToolFailure" and "a and b must be numbers" in bad.error.message
    with pytest.raises(RuntimeError):
        run(CodeMode.from_mcp(["/nonexistent/mcp-server"], connect_timeout=5.0))


def test_from_mcp_takes_python_tools_beside_the_servers():
    import pathlib
    import sys

    server = pathlib.Path(__file__).with_name("mcp_server.py")
    seen = []

    @tool
    async def lookup(id: str) -> dict:
        """Look up an order by ID."""
        return {"id": id, "total": 7}

    @tool
    def double(n: int) -> int:
        return 2 * n

    async def main():
        async with await CodeMode.from_mcp(
            [f"math={sys.executable} {server}"],
            tools={"orders": Namespace(lookup, description="Purchases"), "util": {"double": double}},
            after_call=lambda end: seen.append((end.name, end.status)),
            limits=Limits(timeout=10.0),
        ) as rt:
            decls = rt.declarations()
            r = await rt.execute(
                """
                const order = await tools.orders.lookup({ id: 'o1' });
                const [sum, twice] = await Promise.all([
                  tools.math.add({ a: order.total, b: 3 }),
                  tools.util.double({ n: order.total }),
                ]);
                return { sum: sum.sum, twice, keys: Object.keys(tools).sort() };
                """
            )
        return decls, r

    decls, r = run(main())
    assert "add(input: { a: number, b: number }): Promise<{ sum: number }>" in decls
    assert "lookup(input: { id: string })" in decls and "Purchases" in decls
    assert r.ok and r.value == {"sum": 10, "twice": 14, "keys": ["math", "orders", "util"]}, r.to_json()
    assert sorted(seen) == [("math.add", "ok"), ("orders.lookup", "ok"), ("util.double", "ok")]

    async def clash():
        await CodeMode.from_mcp([f"math={sys.executable} {server}"], tools={"math": {"double": double}})

    with pytest.raises(ValueError, match="tools.math is both an MCP server's namespace and a Python namespace"):
        run(clash())


def test_openapi_operations_are_tools_with_auth_and_python_tools_beside_them():
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Pets(BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"id": self.path.rsplit("/", 1)[1], "auth": self.headers.get("Authorization")}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Pets)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    doc = {
        "openapi": "3.0.0",
        "info": {"title": "Pets", "version": "1"},
        "paths": {
            "/pets/{id}": {
                "get": {
                    "operationId": "getPet",
                    "summary": "Get a pet",
                    "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        rt = CodeMode.from_openapi(doc, base, auth="Bearer t0k", name="pets")
        assert "getPet(input: { id: string })" in rt.declarations()
        r = run(rt.execute("return await tools.pets.getPet({ id: 'p1' })"))
        assert r.value == {"id": "p1", "auth": "Bearer t0k"}, r.to_json()
        mixed = CodeMode(tools={"pets": codemode.openapi(json.dumps(doc), base), "orders": Namespace(lookup)})
        r = run(mixed.execute("return [(await tools.pets.getPet({ id: 'p2' })).id, (await tools.orders.lookup({ id: 'o' })).id]"))
        assert r.value == ["p2", "o"]
    finally:
        server.shutdown()
    with pytest.raises(ValueError, match="paths"):
        codemode.openapi({"openapi": "3.0.0"}, base)
    with pytest.raises(ValueError, match="not JSON"):
        codemode.openapi("{", base)


def test_exiting_while_tool_calls_run_is_clean():
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import asyncio, threading, time
        from codemode import CodeMode, Namespace, tool

        @tool
        def slow(n: int) -> int:
            time.sleep(0.3)
            return n

        @tool
        async def aslow(n: int) -> int:
            await asyncio.sleep(0.3)
            return n

        rt = CodeMode(tools={"t": Namespace(slow, aslow)})
        src = "return await Promise.all([tools.t.slow({ n: 1 }), tools.t.aslow({ n: 2 })])"
        threading.Thread(target=lambda: asyncio.run(rt.execute(src)), daemon=True).start()
        time.sleep(0.1)
        print("exiting")
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "exiting"
    assert "panic" not in out.stderr


def test_the_langchain_example_runs():
    pytest.importorskip("langchain_core")
    import pathlib
    import subprocess
    import sys

    example = pathlib.Path(__file__).parent.parent / "examples" / "langchain_tool.py"
    out = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    last = json.loads(out.stdout.strip().splitlines()[-1])
    assert last["ok"] is True and last["value"] == {"open": ["o1"]}
    assert "lookup(input: { id: string })" in out.stdout


# The start returns at once (the run is dropped while its work is attached), or outlasts the
# caller's wait (it finishes after the run is gone, and its work is cancelled then: dropping the
# start midway could leave the work running with no handle).
@pytest.mark.parametrize("start_delay", [0.0, 0.5], ids=["attached", "still-starting"])
def test_dropping_an_unfinished_execution_cancels_its_durable_work(start_delay):
    import gc

    cancelled = []

    async def wait(handle, ctx):
        await asyncio.sleep(30)

    def stop(handle):
        cancelled.append(handle)

    @durable(attach=wait, cancel=stop)
    async def job(ctx: CallContext) -> dict:
        await asyncio.sleep(start_delay)
        return {"job": ctx.key}

    rt = CodeMode(tools={"j": Namespace(job)})

    async def main():
        execution = rt.start("return await tools.j.job()", run_id="d")
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(execution.result(), 0.2)
        del execution
        gc.collect()
        # The cancel travels from the dropped run through tokio to this loop. (CI failed here at
        # 1d8800c and 789c884: on a loaded machine the start had not returned within 0.2 s, and a
        # run dropped during its start dropped the start too, so nothing was cancelled. And at
        # bbf8428: the last owner freed the run on this thread, outside tokio, where its drop
        # could not spawn the cancel; 15 of 60 loaded runs lost it.)
        for _ in range(1000):
            if cancelled:
                break
            await asyncio.sleep(0.01)

    run(main())
    assert cancelled == [{"job": "d:1"}]


def test_the_pydantic_ai_example_runs():
    pytest.importorskip("pydantic_ai")
    import pathlib
    import subprocess
    import sys

    example = pathlib.Path(__file__).parent.parent / "examples" / "pydantic_ai_agent.py"
    out = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "Open orders: o1, o3 (total 65)", out.stdout
    result = json.loads(lines[-1])
    assert result["ok"] is True and result["value"] == {"open": ["o1", "o3"], "total": 65}
    assert [c["path"] for c in result["toolCalls"]] == ["orders.list_ids"] + ["orders.lookup"] * 3


def test_async_tools_run_on_a_loop_that_cannot_watch_sockets():
    # Calls are handed to the loop through a socket it watches (`add_reader`); a loop without
    # that is woken with `call_soon_threadsafe` instead.
    class NoReaders(asyncio.SelectorEventLoop):
        def add_reader(self, *args, **kwargs):
            raise NotImplementedError

    @tool
    async def echo(n: int) -> int:
        await asyncio.sleep(0)
        return n

    rt = CodeMode(tools={"t": {"echo": echo}})

    async def main():
        seq = await rt.execute("let s = 0; for (let i = 0; i < 50; i++) s += await tools.t.echo({ n: i }); return s")
        par = await rt.execute("return (await Promise.all([...Array(50).keys()].map(n => tools.t.echo({ n })))).length")
        return seq, par

    loop = NoReaders()
    try:
        seq, par = loop.run_until_complete(main())
    finally:
        loop.close()
    assert seq.ok and seq.value == sum(range(50)), seq.to_json()
    assert par.ok and par.value == 50, par.to_json()
    from codemode import _tools

    plain = asyncio.new_event_loop()
    try:
        assert _tools._dispatcher(plain).fileno() is not None
    finally:
        plain.close()

"""Suspend a run while a person approves a payment, keep it in SQLite, resume it later.

    python examples/approval_sqlite.py start          # runs until the approval, saves the run
    python examples/approval_sqlite.py list           # the runs waiting, with their pending calls
    python examples/approval_sqlite.py approve KEY    # gives the outcome and finishes the run
    python examples/approval_sqlite.py decline KEY

Each command is its own process: the state goes through the database as bytes
(`Snapshot.to_bytes()` / `Snapshot.from_bytes()`), as it would between machines.
"""

import asyncio
import json
import os
import sqlite3
import sys
import uuid

from codemode import CallContext, CodeMode, Namespace, Suspended, ToolError, durable, tool

DB = os.environ.get("CODEMODE_EXAMPLE_DB", "approvals.sqlite3")

PROGRAM = """
const order = await tools.shop.lookup({ id: "o-42" });
const approval = await tools.shop.approve({ order: order.id, amount: order.total });
if (!approval.approved) return { order: order.id, paid: false, note: approval.note };
return { order: order.id, paid: true, approvedBy: approval.by };
"""


@tool
async def lookup(id: str) -> dict:
    """Look up an order by ID."""
    return {"id": id, "total": 120}


async def _no_attach(handle, ctx):
    raise ToolError("approvals are given when the run is resumed")


@durable(attach=_no_attach)
async def approve(order: str, amount: int, ctx: CallContext) -> dict:
    """Ask a person to approve a payment; the run waits (suspended) for the answer."""
    await ctx.suspend()  # never returns when the run is suspended
    raise ToolError("unreachable")


def runtime() -> CodeMode:
    return CodeMode(tools={"shop": Namespace(lookup, approve, description="The shop")})


def db() -> sqlite3.Connection:
    conn = sqlite3.connect(DB)
    conn.execute("CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, state BLOB NOT NULL)")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS pending (key TEXT PRIMARY KEY, run_id TEXT NOT NULL, path TEXT, args TEXT)"
    )
    return conn


def save(conn: sqlite3.Connection, outcome: Suspended) -> None:
    with conn:
        conn.execute(
            "INSERT OR REPLACE INTO runs VALUES (?, ?)", (outcome.run_id, outcome.state.to_bytes())
        )
        for p in outcome.pending:
            conn.execute(
                "INSERT OR REPLACE INTO pending VALUES (?, ?, ?, ?)",
                (p.key, outcome.run_id, p.path, json.dumps(p.args)),
            )


def report(conn: sqlite3.Connection, outcome) -> None:
    if isinstance(outcome, Suspended):
        save(conn, outcome)
        for p in outcome.pending:
            print(f"waiting: {p.key} {p.path} {json.dumps(p.args)}")
    else:
        print(outcome.to_json())


async def start() -> None:
    conn = db()
    outcome = await runtime().start(PROGRAM, run_id=f"run-{uuid.uuid4().hex[:8]}").result()
    report(conn, outcome)


async def answer(key: str, approved: bool) -> None:
    conn = db()
    row = conn.execute(
        "SELECT runs.run_id, runs.state FROM pending JOIN runs USING (run_id) WHERE key = ?", (key,)
    ).fetchone()
    if row is None:
        sys.exit(f"no pending call {key}")
    run_id, state = row
    value = {"approved": True, "by": "ada"} if approved else {"approved": False, "note": "over budget"}
    outcome = await runtime().resume(state, {key: value}).result()
    with conn:
        conn.execute("DELETE FROM pending WHERE run_id = ?", (run_id,))
        conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))
    report(conn, outcome)


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else "start"
    if command == "start":
        asyncio.run(start())
    elif command == "list":
        for key, run_id, path, args in db().execute("SELECT key, run_id, path, args FROM pending"):
            print(f"{key} {path} {args}")
    elif command in ("approve", "decline") and len(sys.argv) == 3:
        asyncio.run(answer(sys.argv[2], command == "approve"))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

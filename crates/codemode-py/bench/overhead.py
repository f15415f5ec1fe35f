"""The cost of a Python tool call over a Rust one, per call (docs/python.md).

Runs the same programs against an async Python tool, a sync Python tool and a Rust tool that
all answer `input.n`: N sequential calls (`await` in a loop) and N concurrent calls
(`Promise.all`). Prints microseconds per call (best of several runs).

    python bench/overhead.py [N]
"""

import asyncio
import sys
import time

from codemode import CodeMode, tool
from codemode import _native


@tool
async def echo(n: int) -> int:
    return n


@tool
def echo_sync(n: int) -> int:
    return n


SEQUENTIAL = "let s = 0; for (let i = 0; i < N; i++) s += await tools.t.%s({ n: i }); return s"
CONCURRENT = "const all = []; for (let i = 0; i < N; i++) all.push(tools.t.%s({ n: i })); return (await Promise.all(all)).length"


async def best(rt, source, n, repeats=5):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        r = await rt.execute(source, bindings={"N": n})
        times.append(time.perf_counter() - t0)
        assert r.ok, r.to_json()
    return min(times)


async def main(n: int) -> None:
    rt = CodeMode()
    # The same tools, plus the Rust echo, in one native runtime.
    rt._native = _native.Runtime(
        [("namespace", "t", None, [("tool", "py", echo), ("tool", "py_sync", echo_sync), ("rust_echo", "rust")])]
    )
    print(f"{n} calls per run, microseconds per call (best of 5)")
    rows = []
    for shape, template in (("sequential", SEQUENTIAL), ("concurrent", CONCURRENT)):
        rust = await best(rt, template % "rust", n)
        py = await best(rt, template % "py", n)
        sync = await best(rt, template % "py_sync", n)
        per = lambda t: t / n * 1e6
        rows.append((shape, per(rust), per(py), per(sync)))
    print(f"{'shape':<12}{'rust':>10}{'py async':>12}{'py sync':>12}{'async - rust':>15}")
    for shape, rust, py, sync in rows:
        print(f"{shape:<12}{rust:>10.1f}{py:>12.1f}{sync:>12.1f}{py - rust:>15.1f}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))

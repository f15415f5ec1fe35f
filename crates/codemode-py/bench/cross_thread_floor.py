"""The floor of any design that runs tool coroutines on the caller's loop from another thread:
a pure-Python cross-thread round trip (`run_coroutine_threadsafe(...).result()`), and a task
created and awaited on the loop itself, in microseconds (docs/python.md).

    python bench/cross_thread_floor.py
"""
import asyncio, threading, time
async def echo(n): return n
async def main():
    loop = asyncio.get_running_loop()
    N = 2000
    def worker():
        t = time.perf_counter()
        for i in range(N):
            asyncio.run_coroutine_threadsafe(echo(i), loop).result()
        return (time.perf_counter() - t) / N * 1e6
    r = await loop.run_in_executor(None, worker)
    print(f"pure-Python cross-thread round trip: {r:.1f} us")
    t = time.perf_counter()
    for i in range(N):
        await asyncio.ensure_future(echo(i))
    print(f"task create+await on the loop: {(time.perf_counter()-t)/N*1e6:.1f} us")
asyncio.run(main())

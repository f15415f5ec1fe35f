"""codemode as one LangChain tool: the agent writes a program over all your tools instead of
calling them one at a time.

The tool's description carries the tools' TypeScript declarations; its input is the program;
its output is the run's Result JSON (what the model reads back, failures included). Any agent
that takes LangChain tools (LangGraph's `create_react_agent`, `model.bind_tools([...])`) can use
it. Needs `pip install langchain-core`.

    python examples/langchain_tool.py
"""

import asyncio

from langchain_core.tools import StructuredTool
from pydantic import BaseModel, Field

from codemode import CodeMode, Limits, Namespace, tool


@tool
async def lookup(id: str) -> dict:
    """Look up an order by ID."""
    return {"id": id, "status": "open" if id.endswith("1") else "complete", "total": 25}


class Program(BaseModel):
    code: str = Field(description="A JavaScript/TypeScript program; `return` its result.")


def codemode_tool(runtime: CodeMode, *, name: str = "execute") -> StructuredTool:
    """One LangChain tool that runs a program against `runtime`'s tools."""

    async def run(code: str) -> str:
        result = await runtime.execute(code)
        return result.to_json()

    description = (
        "Run a JavaScript program that calls these tools (all calls are async; use "
        "Promise.all for parallel calls) and return its result:\n\n" + runtime.declarations()
    )
    return StructuredTool.from_function(coroutine=run, name=name, description=description, args_schema=Program)


async def main() -> None:
    runtime = CodeMode(
        tools={"orders": Namespace(lookup, description="Purchases")},
        limits=Limits(timeout=10.0, max_tool_calls=100),
    )
    execute = codemode_tool(runtime)
    print(execute.description)
    # What an agent does when the model calls the tool:
    program = """
        const orders = await Promise.all(["o1", "o2", "o3"].map(id => tools.orders.lookup({ id })));
        return { open: orders.filter(o => o.status === "open").map(o => o.id) };
    """
    print(await execute.ainvoke({"code": program}))


if __name__ == "__main__":
    asyncio.run(main())

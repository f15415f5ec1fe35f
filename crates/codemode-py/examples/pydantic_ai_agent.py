"""codemode as one pydantic-ai tool: the agent writes a program over all your tools instead of
calling them one at a time.

The tool's description carries the tools' TypeScript declarations; its argument is the program;
it returns the run's Result as a dict (what the model reads back, failures included). Any
pydantic-ai `Agent` can take it (`Agent(model, tools=[codemode_tool(runtime)])`).

This example runs without network or API key: the model is pydantic-ai's `FunctionModel`, a
scripted stand-in that writes one program and then answers from its result, as a real model
(`Agent("openai:gpt-5", ...)`, `"anthropic:claude-sonnet-4-5"`, ...) would. Needs
`pip install pydantic-ai-slim` (or `pydantic-ai`).

    python examples/pydantic_ai_agent.py
"""

import asyncio
import json
from typing import Any, Dict, List

from pydantic_ai import Agent, Tool
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from codemode import CodeMode, Limits, Namespace, tool

ORDERS = {"o1": ("open", 25.0), "o2": ("complete", 12.5), "o3": ("open", 40.0)}


@tool
async def lookup(id: str) -> dict:
    """Look up an order by ID."""
    status, total = ORDERS.get(id, ("missing", 0.0))
    return {"id": id, "status": status, "total": total}


@tool
async def list_ids() -> List[str]:
    """Every order ID."""
    return sorted(ORDERS)


def codemode_tool(runtime: CodeMode, *, name: str = "execute") -> Tool:
    """One pydantic-ai tool that runs a program against `runtime`'s tools."""

    async def execute(code: str) -> Dict[str, Any]:
        """Run a program.

        Args:
            code: A JavaScript/TypeScript program; `return` its result.
        """
        result = await runtime.execute(code)
        return result.to_dict()

    description = (
        "Run a JavaScript program that calls these tools (all calls are async; use "
        "Promise.all for parallel calls) and return its result:\n\n" + runtime.declarations()
    )
    return Tool(execute, name=name, description=description, takes_ctx=False)


PROGRAM = """
const ids = await tools.orders.list_ids();
const orders = await Promise.all(ids.map(id => tools.orders.lookup({ id })));
const open = orders.filter(o => o.status === "open");
return { open: open.map(o => o.id), total: open.reduce((s, o) => s + o.total, 0) };
"""


def scripted_model(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Stands in for an LLM: first one `execute` call, then an answer from its result."""
    returned = [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]
    if not returned:
        (execute,) = info.function_tools
        assert "lookup(input: { id: string })" in (execute.description or "")
        return ModelResponse(parts=[ToolCallPart("execute", {"code": PROGRAM})])
    result = returned[0].content
    if not result["ok"]:
        return ModelResponse(parts=[TextPart(f"The program failed: {result['error']['message']}")])
    value = result["value"]
    return ModelResponse(parts=[TextPart(f"Open orders: {', '.join(value['open'])} (total {value['total']})")])


async def main() -> None:
    runtime = CodeMode(
        tools={"orders": Namespace(lookup, list_ids, description="Purchases")},
        limits=Limits(timeout=10.0, max_tool_calls=100),
    )
    agent = Agent(FunctionModel(scripted_model), tools=[codemode_tool(runtime)])
    run = await agent.run("Which orders are open, and what do they add up to?")
    print(run.output)
    # The tool's answer as the model read it:
    for message in run.all_messages():
        for part in message.parts:
            if isinstance(part, ToolReturnPart):
                print(json.dumps(part.content, sort_keys=True))


if __name__ == "__main__":
    asyncio.run(main())

"""One client session with the Python SDK's client: list the tools, call
one, print what came back as one JSON line (so a session run directly and
through the tap can be compared). Usage: session.py SERVER MODE TOOL
ARGS_JSON. SERVER is a URL (Streamable HTTP) or `stdio:` and a JSON list,
the command the client runs and talks to over its standard streams. MODE
is `auto` (the SDK's own choice: 2026-07-28 first, then the older
handshake) or `legacy` (initialize)."""
import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


async def main(url: str, mode: str, tool: str, args: str) -> None:
    progress = []
    server = url
    if url.startswith("stdio:"):
        command = json.loads(url[len("stdio:"):])
        server = StdioServerParameters(command=command[0], args=command[1:])

    async def on_progress(done, total, message):
        progress.append(done)

    kwargs = {} if mode == "auto" else {"mode": mode}
    async with Client(server, **kwargs) as client:
        tools = await client.list_tools()
        result = await client.call_tool(tool, json.loads(args), progress_callback=on_progress)
    print(json.dumps({
        "tools": sorted(t.name for t in tools.tools),
        "result": result.model_dump(mode="json", exclude_none=True),
        "progress": progress,
    }, sort_keys=True))


asyncio.run(main(*sys.argv[1:5]))

"""A Python SDK (mcp on PyPI) server for the interop sessions: one echo
tool, streamable HTTP under uvicorn; `json` as the second argument answers
with JSON bodies instead of event streams."""
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer

server = MCPServer("interop-echo")


@server.tool()
def echo(text: str) -> str:
    """Says the text back."""
    return text


json_response = len(sys.argv) > 2 and sys.argv[2] == "json"
app = server.streamable_http_app(json_response=json_response)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")

"""A Python SDK (mcp on PyPI) server for the interop sessions: one echo
tool, streamable HTTP under uvicorn on the port given first; `json` as the
second argument answers with JSON bodies instead of event streams. With
`stdio` as the only argument, it talks over its standard streams."""
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer

server = MCPServer("interop-echo")


@server.tool()
def echo(text: str) -> str:
    """Says the text back."""
    return text


if sys.argv[1:] == ["stdio"]:
    server.run("stdio")
    sys.exit(0)
json_response = len(sys.argv) > 2 and sys.argv[2] == "json"
app = server.streamable_http_app(json_response=json_response)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")

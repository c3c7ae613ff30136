"""A Python SDK (mcp on PyPI) server whose tools call back to the client:
sampling and elicitation on the POST's own stream or on the standalone GET
stream (handshake era only), and through resolver markers (2026-07-28
answers with an input-required result the client retries with; the
handshake era sends the request mid-call). Also an echo tool, for timing.
Streamable HTTP under uvicorn on 127.0.0.1:PORT, https when given a
certificate and its key (PEM).

Usage: backchannel_server.py PORT [CERT KEY]"""
import sys
from typing import Annotated

import uvicorn
from mcp import types
from mcp.server.elicitation import elicit_with_validation
from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve, Sample
from pydantic import BaseModel

server = MCPServer("interop-backchannel")


class Name(BaseModel):
    name: str


def prompt(n: int) -> list[types.SamplingMessage]:
    # The session's number goes out in the request and must come back in
    # the answer: a request delivered to the wrong session would show.
    return [types.SamplingMessage(role="user", content=types.TextContent(type="text", text=f"prompt {n}"))]


@server.tool()
def echo(text: str) -> str:
    """Says the text back."""
    return text


@server.tool()
async def sample(ctx: Context, n: int, on_get_stream: bool = False) -> str:
    """Asks the client to sample, on this request's stream or (with no
    related request) on the standalone GET stream."""
    related = None if on_get_stream else ctx.request_id
    result = await ctx.session.create_message(prompt(n), max_tokens=5, related_request_id=related)
    return result.content.text


@server.tool()
async def ask(ctx: Context, n: int, on_get_stream: bool = False) -> str:
    """Asks the client for a name, on this request's stream or on the
    standalone GET stream."""
    related = None if on_get_stream else ctx.request_id
    result = await elicit_with_validation(ctx.session, f"name {n}?", Name, related_request_id=related)
    return f"{result.action}: {result.data.name if result.action == 'accept' else '-'}"


def sampled(n: int) -> Sample:
    return Sample(prompt(n), max_tokens=5)


def named(n: int) -> Elicit[Name]:
    return Elicit(f"name {n}?", Name)


@server.tool()
def resolved(
    n: int,
    reply: Annotated[types.CreateMessageResult, Resolve(sampled)],
    who: Annotated[Name, Resolve(named)],
) -> str:
    """Samples and elicits through resolver markers: one input-required
    round in 2026-07-28, two requests mid-call before it."""
    return f"{n}: {reply.content.text}; {who.name}"


if __name__ == "__main__":
    port = int(sys.argv[1])
    tls = {"ssl_certfile": sys.argv[2], "ssl_keyfile": sys.argv[3]} if len(sys.argv) > 3 else {}
    uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning", **tls)

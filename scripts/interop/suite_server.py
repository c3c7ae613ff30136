"""The conforming fixture server for the official MCP conformance suite's
server scenarios, written on the Python SDK (mcp on PyPI): every tool,
resource, prompt and completion those scenarios name, answering as they
expect, in both protocol eras at once (the 2026-07-28 per-request `_meta`
wire and the `initialize` revisions up to 2025-11-25).

Usage: suite_server.py PORT  (Streamable HTTP at http://127.0.0.1:PORT/mcp)

Where a scenario needs client input (elicitation, sampling, roots) the tool
asks in its era's way: on 2026-07-28 it answers with an `InputRequiredResult`
and reads the retry's `inputResponses`; before that it sends the
server-to-client request on the call's own stream."""
import base64
import json
import sys
import warnings
from collections.abc import Callable
from typing import Annotated, Any

import anyio
import mcp_types as types
import uvicorn
from mcp.server.caching import CACHEABLE_METHODS, CacheHint
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventCallback, EventMessage, EventStore
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

# Logging and roots are deprecated at 2026-07-28, yet the older revisions'
# scenarios still exercise them: the SDK's warnings would only be noise here.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)


# A 1x1 red PNG, and two milliseconds of silence as 8 kHz 8-bit mono WAV.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
WAV = "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAgICAgICAgICAgICAgICA"

# Every cacheable result carries ttlMs/cacheScope (SEP-2549): the fixture's
# lists and contents are the same for every caller, so "public".
server = MCPServer(
    "conformance-fixture",
    version="1.0.0",
    cache_hints={method: CacheHint(ttl_ms=5000, scope="public") for method in CACHEABLE_METHODS},
)


# --- asking the client, in either era ----------------------------------------

def elicitation(message: str, properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return {"method": "elicitation/create", "params": {"message": message, "requestedSchema": schema}}


def sampling(prompt: str, max_tokens: int = 100) -> dict[str, Any]:
    message = {"role": "user", "content": {"type": "text", "text": prompt}}
    return {"method": "sampling/createMessage", "params": {"messages": [message], "maxTokens": max_tokens}}


ROOTS = {"method": "roots/list", "params": {}}
NAME = elicitation("What is your name?", {"name": {"type": "string"}}, ["name"])
CONFIRM = elicitation("Please confirm", {"ok": {"type": "boolean"}}, ["ok"])
_LEGACY = {
    "elicitation/create": (types.ElicitRequest, types.ElicitResult),
    "sampling/createMessage": (types.CreateMessageRequest, types.CreateMessageResult),
    "roots/list": (types.ListRootsRequest, types.ListRootsResult),
}


def modern(ctx: Context) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def dump(model: Any) -> dict[str, Any]:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


async def asked(ctx: Context, requests: dict[str, dict[str, Any]], reply: Callable[[dict[str, Any]], Any],
                state: str | None = None) -> Any:
    """`reply` to the client's answers to `requests` (keyed alike), or, on
    2026-07-28, the `InputRequiredResult` asking for those the retry lacks."""
    if not modern(ctx):
        answers = {}
        for key, request in requests.items():
            request_type, result_type = _LEGACY[request["method"]]
            answers[key] = dump(await ctx.session.send_request(
                request_type.model_validate(request), result_type,
                metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id)))
        return reply(answers)
    got = ctx.input_responses or {}
    # Answers to keys it never asked are ignored; the ones missing are asked again.
    missing = {key: request for key, request in requests.items() if key not in got}
    if missing:
        return types.InputRequiredResult.model_validate(
            {"inputRequests": missing, **({"requestState": state} if state is not None else {})})
    return reply({key: dump(got[key]) for key in requests})


def text(value: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=value)], is_error=error)


def content(answer: dict[str, Any], field: str) -> Any:
    """A field of an accepted elicitation's content, or the text of a sampled message."""
    return (answer.get("content") or {}).get(field)


def elicited(answer: dict[str, Any]) -> str:
    return f"action={answer.get('action')}, content={json.dumps(answer.get('content', {}), sort_keys=True)}"


def require(ctx: Context, **capabilities: dict[str, Any]) -> None:
    """Reject with -32021 when the client did not declare a capability this call needs."""
    declared = ctx.client_capabilities
    missing = {name: value for name, value in capabilities.items() if getattr(declared, name, None) is None}
    if missing:
        data = types.MissingRequiredClientCapabilityErrorData(
            required_capabilities=types.ClientCapabilities.model_validate(missing))
        raise MCPError(code=types.MISSING_REQUIRED_CLIENT_CAPABILITY,
                       message=f"Client did not declare required capabilities: {', '.join(missing)}", data=dump(data))


def session_id(request: Any) -> str | None:
    """The legacy era's Mcp-Session-Id, which keys the per-session state below."""
    return request.headers.get("mcp-session-id") if request is not None else None


# --- content tools -----------------------------------------------------------

@server.tool(description="Returns a simple text response.")
def test_simple_text() -> types.CallToolResult:
    return text("This is a simple text response for testing.")


@server.tool(description="Returns a 1x1 red PNG image.")
def test_image_content() -> types.CallToolResult:
    return types.CallToolResult(content=[types.ImageContent(type="image", data=PNG, mime_type="image/png")])


@server.tool(description="Returns a short WAV audio clip.")
def test_audio_content() -> types.CallToolResult:
    return types.CallToolResult(content=[types.AudioContent(type="audio", data=WAV, mime_type="audio/wav")])


@server.tool(description="Returns an embedded text resource.")
def test_embedded_resource() -> types.CallToolResult:
    resource = types.TextResourceContents(
        uri="test://embedded-resource", mime_type="text/plain", text="This is an embedded resource content.")
    return types.CallToolResult(content=[types.EmbeddedResource(type="resource", resource=resource)])


@server.tool(description="Returns text, image and resource content together.")
def test_multiple_content_types() -> types.CallToolResult:
    resource = types.TextResourceContents(
        uri="test://mixed-content-resource", mime_type="application/json", text='{"test":"data","value":123}')
    return types.CallToolResult(content=[
        types.TextContent(type="text", text="Multiple content types test:"),
        types.ImageContent(type="image", data=PNG, mime_type="image/png"),
        types.EmbeddedResource(type="resource", resource=resource),
    ])


@server.tool(description="Always fails, reporting the failure in the result (isError), not as a protocol error.")
def test_error_handling() -> types.CallToolResult:
    return text("This tool intentionally returns an error for testing", error=True)


# --- notifications during a call ---------------------------------------------

# The level a legacy session asked for with logging/setLevel. On 2026-07-28
# each request opts in through `_meta`, and the SDK drops what it did not ask for.
LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
session_levels: dict[str | None, str] = {}


async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
    session_levels[session_id(ctx.request)] = params.level
    return types.EmptyResult()


# For the initialize revisions only: 2026-07-28 removed the method, and the
# SDK answers it there with -32601 (HTTP 404) before any handler runs.
server._lowlevel_server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)


async def log(ctx: Context, level: str, message: str) -> None:
    wanted = "debug" if modern(ctx) else session_levels.get(session_id(ctx.request_context.request), "debug")
    if LOG_LEVELS.index(level) >= LOG_LEVELS.index(wanted):
        await ctx.session.send_log_message(level, message, logger="conformance-fixture",
                                           related_request_id=ctx.request_context.request_id)


@server.tool(description="Sends three info log messages, 50 ms apart.")
async def test_tool_with_logging(ctx: Context) -> str:
    for step, message in enumerate(("Tool execution started", "Tool processing data", "Tool execution completed")):
        await anyio.sleep(0.05 if step else 0)
        await log(ctx, "info", message)
    return "Tool with logging executed successfully"


@server.tool(description="Logs at several levels; only what the request opted into is sent.")
async def test_logging_tool(ctx: Context) -> str:
    for level in ("debug", "info", "warning"):
        await log(ctx, level, f"A {level} message from test_logging_tool")
    return "Logging tool executed"


@server.tool(description="Reports progress 0, 50 and 100 of 100, 50 ms apart.")
async def test_tool_with_progress(ctx: Context) -> str:
    for step, progress in enumerate((0, 50, 100)):
        await anyio.sleep(0.05 if step else 0)
        await ctx.report_progress(progress, 100, f"Step {step + 1} of 3")
    return "Tool with progress executed successfully"


@server.tool(description="Closes its SSE stream mid-call; the result arrives on the resumed stream.")
async def test_reconnection(ctx: Context) -> str:
    await anyio.sleep(0.1)
    await ctx.close_sse_stream()  # a no-op where the wire has no resumable stream
    await anyio.sleep(0.3)
    return "Reconnection test completed successfully"


# --- tools that ask the client -----------------------------------------------

@server.tool(description="Asks the client's LLM to answer the prompt.")
async def test_sampling(prompt: str, ctx: Context) -> Any:
    require(ctx, sampling={})
    return await asked(ctx, {"sample": sampling(prompt)},
                       lambda a: text(f"LLM response: {content(a['sample'], 'text')}"))


@server.tool(description="Asks the user for a username and email.")
async def test_elicitation(message: str, ctx: Context) -> Any:
    require(ctx, elicitation={})
    request = elicitation(message, {"username": {"type": "string", "description": "User's response"},
                                    "email": {"type": "string", "description": "User's email address"}},
                          ["username", "email"])
    return await asked(ctx, {"user_info": request}, lambda a: text(f"User response: {elicited(a['user_info'])}"))


@server.tool(description="Elicits with a default for every primitive type (SEP-1034).")
async def test_elicitation_sep1034_defaults(ctx: Context) -> Any:
    require(ctx, elicitation={})
    request = elicitation("Please review and update the form fields with defaults", {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"],
                   "default": "active"},
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
    })
    return await asked(ctx, {"defaults": request},
                       lambda a: text(f"Elicitation completed: {elicited(a['defaults'])}"))


def _titled(prefix: str, *titles: str) -> list[dict[str, str]]:
    return [{"const": f"{prefix}{n}", "title": title} for n, title in enumerate(titles, 1)]


@server.tool(description="Elicits with all five enum schema forms (SEP-1330).")
async def test_elicitation_sep1330_enums(ctx: Context) -> Any:
    require(ctx, elicitation={})
    options = ["option1", "option2", "option3"]
    request = elicitation("Please select options from the enum fields", {
        "untitledSingle": {"type": "string", "enum": options},
        "titledSingle": {"type": "string", "oneOf": _titled("value", "First Option", "Second Option", "Third Option")},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                       "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": options}},
        "titledMulti": {"type": "array",
                        "items": {"anyOf": _titled("value", "First Choice", "Second Choice", "Third Choice")}},
    })
    return await asked(ctx, {"enums": request}, lambda a: text(f"Elicitation completed: {elicited(a['enums'])}"))


@server.tool(description="Needs the client's sampling capability; without it the call fails with -32021.")
async def test_missing_capability(ctx: Context) -> Any:
    require(ctx, sampling={})
    return await asked(ctx, {"sample": sampling("Say hello")},
                       lambda a: text(f"LLM response: {content(a['sample'], 'text')}"))


@server.tool(description="Asks the user a question while the call is in flight.")
async def test_streaming_elicitation(ctx: Context) -> Any:
    require(ctx, elicitation={})
    question = elicitation("What should the tool do?", {"answer": {"type": "string"}}, ["answer"])
    return await asked(ctx, {"answer": question}, lambda a: text(f"Streaming elicitation: {elicited(a['answer'])}"))


# --- the 2026-07-28 multi-round-trip flow (SEP-2322) -------------------------
# The SDK seals every requestState it sends and verifies every echo, so a
# tampered one is rejected (-32602) before a tool sees it.

@server.tool(description="Asks the user's name, then greets them.")
async def test_input_required_result_elicitation(ctx: Context) -> Any:
    return await asked(ctx, {"user_name": NAME}, lambda a: text(f"Hello, {content(a['user_name'], 'name')}!"))


@server.tool(description="Asks the client's LLM a question, then returns its answer.")
async def test_input_required_result_sampling(ctx: Context) -> Any:
    return await asked(ctx, {"capital_question": sampling("What is the capital of France?")},
                       lambda a: text(f"LLM said: {content(a['capital_question'], 'text')}"))


@server.tool(description="Asks for the client's roots, then lists them.")
async def test_input_required_result_list_roots(ctx: Context) -> Any:
    return await asked(ctx, {"client_roots": ROOTS}, lambda a: text(
        "Roots: " + ", ".join(root.get("uri", "") for root in a["client_roots"].get("roots", []))))


@server.tool(description="Asks for confirmation with a requestState it checks on the retry.")
async def test_input_required_result_request_state(ctx: Context) -> Any:
    if ctx.input_responses and ctx.request_state != "awaiting-confirmation":
        raise MCPError(code=types.INVALID_PARAMS, message="requestState missing or not the one this tool issued")
    return await asked(ctx, {"confirm": CONFIRM}, lambda a: text(f"state-ok: ok={content(a['confirm'], 'ok')}"),
                       state="awaiting-confirmation")


@server.tool(description="Asks for a name, a sampled greeting and the roots at once.")
async def test_input_required_result_multiple_inputs(ctx: Context) -> Any:
    requests = {"user_name": NAME, "greeting": sampling("Generate a greeting", 50), "client_roots": ROOTS}
    return await asked(ctx, requests, lambda a: text(
        f"{content(a['greeting'], 'text')} {content(a['user_name'], 'name')}; "
        f"{len(a['client_roots'].get('roots', []))} root(s)"), state="awaiting-three-answers")


STEP1 = elicitation("Step 1: What is your name?", {"name": {"type": "string"}}, ["name"])
STEP2 = elicitation("Step 2: What is your favorite color?", {"color": {"type": "string"}}, ["color"])


@server.tool(description="Asks two questions in two rounds, carrying the first answer in requestState.")
async def test_input_required_result_multi_round(ctx: Context) -> Any:
    if not modern(ctx):  # no rounds to carry state across: ask one after the other
        return await asked(ctx, {"step1": STEP1, "step2": STEP2},
                           lambda a: text(f"{content(a['step1'], 'name')} likes {content(a['step2'], 'color')}"))
    state = json.loads(ctx.request_state) if ctx.request_state else {"round": 1}
    if state["round"] == 1:
        # Round two is asked afresh: round one's answers do not answer it.
        return await asked(ctx, {"step1": STEP1}, lambda a: types.InputRequiredResult.model_validate({
            "inputRequests": {"step2": STEP2},
            "requestState": json.dumps({"round": 2, "name": content(a["step1"], "name")})}),
            state=json.dumps(state))
    return await asked(ctx, {"step2": STEP2}, lambda a: text(f"{state['name']} likes {content(a['step2'], 'color')}"),
                       state=json.dumps(state))


@server.tool(description="Asks for confirmation; its requestState is integrity-protected by the SDK.")
async def test_input_required_result_tampered_state(ctx: Context) -> Any:
    return await asked(ctx, {"confirm": CONFIRM}, lambda a: text("requestState verified"), state="integrity-protected")


@server.tool(description="Asks only for what the client declared it can answer.")
async def test_input_required_result_capabilities(ctx: Context) -> Any:
    declared = ctx.client_capabilities or types.ClientCapabilities()
    offered = {"user_name": (NAME, declared.elicitation), "client_roots": (ROOTS, declared.roots),
               "greeting": (sampling("Generate a greeting", 50), declared.sampling)}
    requests = {key: request for key, (request, capability) in offered.items() if capability is not None}
    if not requests:
        return text("The client declared no capability to ask through")
    return await asked(ctx, requests, lambda a: text(f"Answered: {', '.join(sorted(a))}"))


# --- list changes (2026-07-28 subscriptions/listen) --------------------------

# The listChanged flags are declared on 2026-07-28 only (the SDK derives them
# from subscriptions/listen being served), so only its listeners hear of it.

def test_dynamic_tool() -> str:
    """A tool that test_trigger_tool_change adds and removes."""
    return "The dynamic tool ran"


def test_dynamic_prompt() -> str:
    """A prompt that test_trigger_prompt_change adds and removes."""
    return "The dynamic prompt"


@server.tool(description="Adds or removes test_dynamic_tool and announces the change.")
async def test_trigger_tool_change(ctx: Context) -> str:
    if server._tool_manager.get_tool("test_dynamic_tool"):
        server.remove_tool("test_dynamic_tool")
    else:
        server.add_tool(test_dynamic_tool)
    await ctx.notify_tools_changed()
    return "tools list changed"


@server.tool(description="Adds or removes test_dynamic_prompt and announces the change.")
async def test_trigger_prompt_change(ctx: Context) -> str:
    if server._prompt_manager.get_prompt("test_dynamic_prompt"):
        server.remove_prompt("test_dynamic_prompt")
    else:
        server.prompt()(test_dynamic_prompt)
    await ctx.notify_prompts_changed()
    return "prompts list changed"


# --- JSON Schema 2020-12 (SEP-1613, SEP-2106) --------------------------------

@server.tool(description="Tool with JSON Schema 2020-12 features")
def json_schema_2020_12_tool(name: str | None = None, address: dict[str, Any] | None = None,
                             contactMethod: str | None = None, phone: str | None = None,
                             email: str | None = None) -> str:
    return f"name={name}, address={json.dumps(address, sort_keys=True)}, contact={contactMethod}"


# The advertised schema is written out: a Python signature cannot express
# $schema, $defs with $anchor, $ref, allOf/anyOf, if/then/else or
# additionalProperties: false.
server._tool_manager.get_tool("json_schema_2020_12_tool").parameters = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}


# --- custom headers (SEP-2243) -----------------------------------------------

@server.tool(description="Echoes a region the client also sends as the Mcp-Param-Region header.")
def test_custom_headers(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    # On 2026-07-28 the SDK checks the header against the argument before this runs.
    return f"region={region}"


# --- resources ---------------------------------------------------------------

@server.resource("test://static-text", name="static-text", description="A static text resource",
                 mime_type="text/plain")
def static_text() -> str:
    return "This is the content of the static text resource."


@server.resource("test://static-binary", name="static-binary", description="A 1x1 PNG image", mime_type="image/png")
def static_binary() -> bytes:
    return base64.b64decode(PNG)


@server.resource("test://watched-resource", name="watched-resource", description="A resource to subscribe to",
                 mime_type="text/plain")
def watched_resource() -> str:
    return "This resource can be watched for updates."


@server.resource("test://template/{id}/data", name="template-data", description="Data for an id",
                 mime_type="application/json")
def template_data(id: str) -> str:
    return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})


# The URIs each legacy session subscribed to. Nothing here changes, so no
# resources/updated is ever due; 2026-07-28 replaced the pair of methods with
# subscriptions/listen, and the SDK answers them there with -32601.
subscriptions: dict[str | None, set[str]] = {}


async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
    subscriptions.setdefault(session_id(ctx.request), set()).add(str(params.uri))
    return types.EmptyResult()


async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
    subscriptions.get(session_id(ctx.request), set()).discard(str(params.uri))
    return types.EmptyResult()


server._lowlevel_server.add_request_handler("resources/subscribe", types.SubscribeRequestParams, subscribe)
server._lowlevel_server.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe)


# --- prompts -----------------------------------------------------------------

def user(block: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": block}


def said(value: str) -> dict[str, Any]:
    return user({"type": "text", "text": value})


@server.prompt(description="A simple prompt without arguments")
def test_simple_prompt() -> list[dict[str, Any]]:
    return [said("This is a simple prompt for testing.")]


@server.prompt(description="A prompt with two required arguments")
def test_prompt_with_arguments(arg1: str, arg2: str) -> list[dict[str, Any]]:
    return [said(f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")]


@server.prompt(description="A prompt that embeds the resource it is given")
def test_prompt_with_embedded_resource(resourceUri: str) -> list[dict[str, Any]]:
    resource = {"uri": resourceUri, "mimeType": "text/plain", "text": "Embedded resource content for testing."}
    return [user({"type": "resource", "resource": resource}), said("Please process the embedded resource above.")]


@server.prompt(description="A prompt with an image")
def test_prompt_with_image() -> list[dict[str, Any]]:
    return [user({"type": "image", "data": PNG, "mimeType": "image/png"}), said("Please analyze the image above.")]


@server.prompt(description="A prompt that first asks the user for context")
async def test_input_required_result_prompt(ctx: Context) -> Any:
    question = elicitation("What context should the prompt use?", {"context": {"type": "string"}}, ["context"])
    return await asked(ctx, {"user_context": question},
                       lambda a: [said(f"Use this context: {content(a['user_context'], 'context')}")])


# --- completion --------------------------------------------------------------

CANDIDATES = {"arg1": ["paris", "park", "party"], "arg2": ["world", "word", "work"], "id": ["123", "456", "789"]}


@server.completion()
async def complete(ref: Any, argument: types.CompletionArgument, context: Any) -> types.Completion:
    values = [value for value in CANDIDATES.get(argument.name, []) if value.startswith(argument.value)]
    return types.Completion(values=values, total=len(values), has_more=False)


# --- resumable SSE (SEP-1699) ------------------------------------------------

class MemoryEventStore(EventStore):
    """Every stream's events, in memory, so a client can resume with Last-Event-ID.

    Stream ids are the SDK's request ids, unique within a session only: one
    store is enough for a fixture that serves one suite run at a time."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, types.JSONRPCMessage | None]] = []

    async def store_event(self, stream_id: str, message: types.JSONRPCMessage | None) -> str:
        self.events.append((str(len(self.events) + 1), stream_id, message))
        return self.events[-1][0]

    async def replay_events_after(self, last_event_id: str, send_callback: EventCallback) -> str | None:
        if not last_event_id.isdigit() or not 0 < int(last_event_id) <= len(self.events):
            return None
        stream_id = self.events[int(last_event_id) - 1][1]
        for event_id, stream, message in self.events[int(last_event_id):]:
            if stream == stream_id and message is not None:  # None: a priming event, nothing to resend
                await send_callback(EventMessage(message, event_id))
        return stream_id


# Listening on 127.0.0.1 turns on the SDK's Host/Origin checks (DNS rebinding
# protection): only localhost, 127.0.0.1 and [::1] names are let in.
app = server.streamable_http_app(event_store=MemoryEventStore(), retry_interval=500)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")

//! The rules of one Streamable HTTP exchange (a request and its response),
//! with no I/O: the caller reads the bytes, parses each message with a
//! [`Parser`](crate::Parser), and tells an [`Exchange`] what it saw, step
//! by step as it arrives: the request, the response's status and headers,
//! each message of the body (one JSON body, or one per `message` event of
//! an event stream), the end. Each step may add [`Finding`]s, with the
//! place of the fault and the [`Severity`](crate::Severity) of the rule (a MUST broken is a
//! violation, a SHOULD a warning). The answer is judged whatever its
//! status: 2026-07-28 puts its outcomes in the refusals.
//!
//! What is checked, by revision (RULES.md, section 8, has each rule's
//! source):
//!
//! - every revision with Streamable HTTP (2025-03-26 on): a POST's `Accept`
//!   lists both `application/json` and `text/event-stream`, its body is
//!   `application/json`; a POST of only notifications and responses is
//!   answered 202 with no body; a POST of requests is answered with
//!   `application/json` holding the response to each, or an event stream
//!   holding one response to each (and nothing else but requests and
//!   notifications); a GET stream carries no response unless it resumes
//!   one; an invalid body is not accepted, and is answered with the error
//!   JSON-RPC gives it (-32700 for bad JSON, -32600 for an invalid
//!   request, with the id when it could be read); an error that reads like
//!   an authorisation failure comes with 401 or 403;
//! - 2025-03-26 to 2025-11-25: `Mcp-Session-Id` is visible ASCII;
//! - 2025-06-18 on: `MCP-Protocol-Version` on every request after
//!   `initialize`, the negotiated revision (a SHOULD), and a value that
//!   names no revision is refused 400;
//! - 2026-07-28: `MCP-Protocol-Version` on every POST, equal to the body's
//!   `params._meta["io.modelcontextprotocol/protocolVersion"]`, with the
//!   client's capabilities beside it; SEP-2243's `Mcp-Method` (every
//!   request), `Mcp-Name` (`params.name` of `tools/call` and `prompts/get`,
//!   `params.uri` of `resources/read`, Base64 sentinel decoded) and
//!   well-formed `Mcp-Param-*`; a header fault is refused 400 with error
//!   -32020 and the request's id, which [`Finding::reply`] gives for
//!   [`write::error_for`](crate::write::error_for), and a success to it is
//!   the confused-deputy hole SEP-2243 closes; -32022 comes with 400 and
//!   the supported versions; method not found with 404; `server/discover`
//!   exists; every result has `resultType`, `input_required` only where
//!   allowed; no responses posted, no server requests on a response stream,
//!   nothing after the final response, `notifications/message` only when
//!   asked for; a `subscriptions/listen` stream opens with its
//!   acknowledgement and tags each notification with its id; no session
//!   ids, and GET and DELETE answered 405 (both SHOULDs).
//!
//! The message rules themselves (is the body one valid envelope, a batch
//! only under 2025-03-26, not a web page nor a bare payload) are the
//! parser's verdicts, which the caller reports per message; an exchange
//! adds what only the exchange shows. Request ids across exchanges are
//! [`Flights`]'.

mod conversation;
mod due;
mod finding;
mod flights;
mod headers;
mod judge;
mod mirror;
mod modern;
mod rule;

pub use conversation::Conversation;
pub use finding::{Finding, Place};
pub use flights::Flights;
pub use headers::{Accepts, Header, Headers};
pub use judge::Exchange;
pub use rule::{Rule, Side};

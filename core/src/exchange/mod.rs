//! The rules of one Streamable HTTP exchange (a request and its response),
//! with no I/O: the caller reads the bytes, parses each message with a
//! [`Parser`](crate::Parser), and tells an [`Exchange`] what it saw, step
//! by step as it arrives: the request, the response's status and headers,
//! each message of the body (one JSON body, or one per `message` event of
//! an event stream), the end. Each step may add [`Finding`]s, with the
//! place of the fault.
//!
//! What is checked, by revision (RULES.md, section 8, has each rule's
//! source):
//!
//! - every revision with Streamable HTTP (2025-03-26 on): a POST's `Accept`
//!   lists both `application/json` and `text/event-stream`, its body is
//!   `application/json`; a POST of only notifications and responses is
//!   answered 202 with no body; a POST of requests is answered with
//!   `application/json` holding the response to each, or an event stream
//!   holding exactly one response to each (and nothing else but requests
//!   and notifications); a GET stream carries no response unless it
//!   resumes one;
//! - 2025-03-26 to 2025-11-25: `Mcp-Session-Id` is visible ASCII;
//! - 2025-06-18 on: `MCP-Protocol-Version` on every request after
//!   `initialize`, equal to the negotiated revision;
//! - 2026-07-28: `MCP-Protocol-Version` on every POST, equal to the body's
//!   `params._meta["io.modelcontextprotocol/protocolVersion"]`; SEP-2243's
//!   `Mcp-Method` (every request) and `Mcp-Name` (`params.name` of
//!   `tools/call` and `prompts/get`, `params.uri` of `resources/read`,
//!   Base64 sentinel decoded); a header fault of these is answered HTTP 400
//!   with error -32020, which [`Finding::reply`] gives for
//!   [`write::error_for`](crate::write::error_for); no responses posted,
//!   no server requests on a response stream.
//!
//! The message rules themselves (is the body one valid envelope, a batch
//! only under 2025-03-26, not a web page nor a bare payload) are the
//! parser's verdicts, which the caller reports per message; an exchange
//! adds what only the exchange shows.

use alloc::vec::Vec;

use crate::envelope::{Envelope, Id, Message};
use crate::error::Error;
use crate::revision::Revision;

mod headers;
mod mirror;
mod rule;

pub use headers::{Accepts, Header, Headers};
pub use rule::{Rule, Side};

/// Where in an exchange a rule was broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A request header, by the name the specification spells it with.
    RequestHeader(&'static str),
    /// A response header.
    ResponseHeader(&'static str),
    /// The response's status.
    Status,
    /// A byte offset in the request body.
    RequestBody(usize),
    /// A message of the response: the JSON body (line 1, offset 0), or the
    /// event of a stream that began at this line and byte.
    Response {
        /// 1-based line of the event (1 for a JSON body).
        line: u64,
        /// Byte offset of the event in the stream (0 for a JSON body).
        offset: u64,
    },
    /// The end of the response.
    End,
}

/// One rule broken, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// Where.
    pub place: Place,
    reply: Option<Error<'static>>,
}

impl Finding {
    fn new(rule: Rule, place: Place) -> Finding {
        Finding { rule, place, reply: None }
    }

    /// For a 2026-07-28 header fault: the JSON-RPC error the server
    /// answers with (HTTP 400): -32020 `header-mismatch`, at the body's
    /// value, with the request's id. Write it with
    /// [`write::error_for`](crate::write::error_for).
    #[must_use]
    pub fn reply(&self) -> Option<&Error<'static>> {
        self.reply.as_ref()
    }
}

/// What outlives one exchange: the revision whose rules apply, and the one
/// `initialize` negotiated (which `MCP-Protocol-Version` must then carry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conversation {
    /// The revision the caller expects.
    pub revision: Revision,
    /// The revision an `initialize` result named, once one was seen.
    pub negotiated: Option<Revision>,
}

impl Conversation {
    /// A conversation under `revision`, nothing negotiated yet.
    #[must_use]
    pub fn new(revision: Revision) -> Conversation {
        Conversation { revision, negotiated: None }
    }

    /// The revision whose rules apply: the negotiated one once known.
    #[must_use]
    pub fn rules(&self) -> Revision {
        self.negotiated.unwrap_or(self.revision)
    }

    /// The revision whose rules apply to a request with these headers: a
    /// request that declares 2026-07-28 in `MCP-Protocol-Version` is one,
    /// whatever was negotiated before (2026-07-28 negotiates per request,
    /// and its clients probe older servers that way first); any other
    /// follows [`Conversation::rules`], except that when 2026-07-28 is
    /// expected and nothing was negotiated, a request that declares an
    /// earlier revision is judged under it, and one without the header
    /// comes from a client of an earlier revision, judged as a server that
    /// gets no `MCP-Protocol-Version` assumes: 2025-03-26 (its `initialize`
    /// then negotiates). Parse the request's body under
    /// it.
    #[must_use]
    pub fn rules_for(&self, headers: &Headers<'_>) -> Revision {
        let declared = headers.protocol_version.value().and_then(|v| core::str::from_utf8(v).ok()?.parse().ok());
        match (declared, self.negotiated) {
            (Some(revision), _) if Revision::mirrors_headers(revision) => revision,
            (_, Some(negotiated)) => negotiated,
            // A client of an earlier revision, saying which.
            (Some(revision), None) if self.revision.mirrors_headers() => revision,
            (None, None) if self.revision.mirrors_headers() && headers.protocol_version == Header::Absent => {
                Revision::V2025_03_26
            }
            _ => self.revision,
        }
    }

    /// Takes what `exchange` negotiated, if anything.
    pub fn learn(&mut self, exchange: &Exchange) {
        if let Some(revision) = exchange.negotiated {
            self.negotiated = Some(revision);
        }
    }
}

/// What the request asked of the response.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expect {
    /// Nothing the rules can hold the response to: an invalid body, a
    /// method other than POST and GET, or a revision without Streamable
    /// HTTP.
    Nothing,
    /// A POST without requests: 202 and no body.
    Accepted,
    /// A POST of requests: one response to each of these ids.
    Responses(Vec<(Id<'static>, bool)>),
    /// A GET stream; `resuming` when it carries `Last-Event-ID`.
    Stream { resuming: bool },
}

/// How the response is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// No response head yet.
    Pending,
    /// One JSON body (or none), held to what was expected.
    Json,
    /// An event stream, each message held to what was expected.
    Events,
    /// A status or content type after which the body is not judged.
    Unjudged,
    /// A 202: any body byte is a fault.
    Accepted,
}

/// One request and its response, judged as they arrive.
///
/// ```
/// use mcp_envelope::exchange::{Conversation, Exchange, Headers, Place};
/// use mcp_envelope::{Parser, Revision, write};
///
/// let body = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"delete_repo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
/// let headers = Headers::from_pairs([
///     ("content-type", &b"application/json"[..]),
///     ("accept", b"application/json, text/event-stream"),
///     ("mcp-protocol-version", b"2026-07-28"),
///     ("mcp-method", b"tools/call"),
///     ("mcp-name", b"get_me"),
/// ]);
/// let mut parser = Parser::new(Revision::V2026_07_28);
/// let conversation = Conversation::new(Revision::V2026_07_28);
/// let exchange = Exchange::post(&conversation, &headers, body, &parser.parse(body));
/// let [finding] = exchange.findings() else { panic!() };
/// assert_eq!((finding.rule.name(), finding.place), ("mcp-name-mismatch", Place::RequestHeader("Mcp-Name")));
/// let mut answer = Vec::new();
/// assert!(write::error_for(&mut answer, finding.reply().unwrap()));
/// assert_eq!(
///     String::from_utf8(answer).unwrap(),
///     r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32020,"message":"a header that mirrors the body is missing, malformed or disagrees with it","data":{"reason":"header-mismatch","offset":63}}}"#
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Exchange {
    revision: Revision,
    expect: Expect,
    answer: Answer,
    /// The request was `initialize`: its result names the revision.
    initialize: bool,
    negotiated: Option<Revision>,
    /// A message of the response could not be read (too large, cut, or
    /// invalid with no readable id): it may have been a response, so no
    /// response is missed for sure.
    unattributed: bool,
    findings: Vec<Finding>,
    /// Findings already handed out by [`Exchange::new_findings`].
    reported: usize,
}

impl Exchange {
    fn new(revision: Revision, expect: Expect) -> Exchange {
        Exchange {
            revision,
            expect,
            answer: Answer::Pending,
            initialize: false,
            negotiated: None,
            unattributed: false,
            findings: Vec::new(),
            reported: 0,
        }
    }

    fn find(&mut self, rule: Rule, place: Place) {
        self.findings.push(Finding::new(rule, place));
    }

    /// A POST: its headers, its body, and the parser's reading of the body
    /// (under [`Conversation::rules_for`] these headers).
    #[must_use]
    pub fn post(
        conversation: &Conversation,
        headers: &Headers<'_>,
        body: &[u8],
        parsed: &Result<Envelope<'_>, Error<'_>>,
    ) -> Exchange {
        let mut revision = conversation.rules_for(headers);
        // A body that declares 2026-07-28 in `_meta` is a 2026-07-28
        // request without its header, not a request of an earlier revision.
        if let Ok(Envelope::Single(message)) = parsed
            && !revision.mirrors_headers()
            && conversation.negotiated.is_none()
            && conversation.revision.mirrors_headers()
            && mirror::declared(message) == Some(conversation.revision)
        {
            revision = conversation.revision;
        }
        if !revision.has_streamable_http() {
            return Exchange::new(revision, Expect::Nothing);
        }
        let messages: Vec<&Message<'_>> = match parsed {
            Ok(envelope) => envelope.items().filter_map(Result::ok).collect(),
            Err(_) => Vec::new(),
        };
        let ids: Vec<(Id<'static>, bool)> = messages
            .iter()
            .filter_map(|m| match m {
                Message::Request(r) => Some((r.id.clone().into_owned(), false)),
                _ => None,
            })
            .collect();
        let expect = match (parsed, ids.is_empty()) {
            (Err(_), _) => Expect::Nothing,
            (Ok(_), true) => Expect::Accepted,
            (Ok(_), false) => Expect::Responses(ids),
        };
        let mut exchange = Exchange::new(revision, expect);
        if !(headers.accept.json && headers.accept.event_stream) {
            exchange.find(Rule::AcceptIncomplete, Place::RequestHeader("Accept"));
        }
        if !headers.is_json() {
            exchange.find(Rule::ContentTypeNotJson, Place::RequestHeader("Content-Type"));
        }
        exchange.session_id(headers.session_id, Side::Client);
        let single = match parsed {
            Ok(Envelope::Single(message)) => Some(message),
            _ => None,
        };
        exchange.initialize = matches!(single, Some(Message::Request(r)) if r.method == "initialize");
        if revision.mirrors_headers() {
            if messages.iter().any(|m| matches!(m, Message::Result(_) | Message::Error(_))) {
                exchange.find(Rule::ResponsePosted, Place::RequestBody(0));
            }
            if let Some(message) = single {
                let found = mirror::check(headers, body, message);
                exchange.findings.extend(found);
            }
        } else if revision.has_protocol_version_header() && !exchange.initialize && parsed.is_ok() {
            exchange.protocol_version(headers, conversation);
        }
        exchange
    }

    /// A request of another method: a GET (the stream a server opens for
    /// its own messages, 2025-03-26 to 2025-11-25), a DELETE.
    #[must_use]
    pub fn other(conversation: &Conversation, method: &str, headers: &Headers<'_>) -> Exchange {
        let revision = conversation.rules_for(headers);
        let expect = if method.eq_ignore_ascii_case("GET") && revision.has_sessions() {
            Expect::Stream { resuming: headers.last_event_id.is_present() }
        } else {
            Expect::Nothing
        };
        let mut exchange = Exchange::new(revision, expect);
        if revision.has_streamable_http() {
            exchange.session_id(headers.session_id, Side::Client);
            if revision.has_protocol_version_header() && !revision.mirrors_headers() {
                exchange.protocol_version(headers, conversation);
            }
        }
        exchange
    }

    /// `MCP-Protocol-Version` before 2026-07-28: present after
    /// `initialize`, and the negotiated revision when one is known.
    fn protocol_version(&mut self, headers: &Headers<'_>, conversation: &Conversation) {
        let place = Place::RequestHeader("MCP-Protocol-Version");
        match headers.protocol_version {
            Header::Absent => self.find(Rule::ProtocolVersionMissing, place),
            Header::Repeated => self.find(Rule::ProtocolVersionMismatch, place),
            Header::One(value) => {
                let known = core::str::from_utf8(value).ok().and_then(|v| v.parse::<Revision>().ok());
                let expected = conversation.negotiated.unwrap_or(self.revision);
                if known != Some(expected) {
                    self.find(Rule::ProtocolVersionMismatch, place);
                }
            }
        }
    }

    fn session_id(&mut self, header: Header<'_>, side: Side) {
        if !self.revision.has_sessions() {
            return;
        }
        let valid = match header {
            Header::Absent => true,
            Header::One(value) => headers::is_visible_ascii(value),
            Header::Repeated => false,
        };
        if !valid {
            match side {
                Side::Client => self.find(Rule::SessionIdInvalid, Place::RequestHeader("Mcp-Session-Id")),
                Side::Server => self.find(Rule::SessionIdInvalidFromServer, Place::ResponseHeader("Mcp-Session-Id")),
            }
        }
    }

    /// The response's status and headers. Then, unless the body is not
    /// judged, each of its messages goes to [`Exchange::message`].
    pub fn response(&mut self, status: u16, headers: &Headers<'_>) {
        self.session_id(headers.session_id, Side::Server);
        let success = (200..300).contains(&status);
        let (json, events) = (headers.is_json(), headers.is_event_stream());
        self.answer = match &self.expect {
            // A refusal (400, 404, 405 ...) holds no promise about its body.
            _ if !success => Answer::Unjudged,
            Expect::Nothing => Answer::Unjudged,
            Expect::Accepted if status == 202 => Answer::Accepted,
            Expect::Accepted => {
                self.find(Rule::NotAccepted, Place::Status);
                Answer::Unjudged
            }
            Expect::Responses(_) | Expect::Stream { .. } if events => Answer::Events,
            // No content type and no body (a 202 to a request): nothing
            // answers it, which the end reports.
            Expect::Responses(_) if json || !headers.content_type.is_present() => Answer::Json,
            Expect::Responses(_) | Expect::Stream { .. } => {
                self.find(Rule::ContentTypeUnexpected, Place::ResponseHeader("Content-Type"));
                Answer::Unjudged
            }
        };
    }

    /// Whether the body's messages are judged, and how they come: `Some(true)`
    /// for an event stream, `Some(false)` for one JSON body, `None` when
    /// the response head said the body is not held to anything.
    #[must_use]
    pub fn reads_events(&self) -> Option<bool> {
        match self.answer {
            Answer::Events => Some(true),
            Answer::Json => Some(false),
            Answer::Pending | Answer::Unjudged | Answer::Accepted => None,
        }
    }

    /// Body bytes that are not messages: a 202's body is a fault.
    pub fn body_bytes(&mut self, len: usize) {
        if self.answer == Answer::Accepted && len > 0 {
            self.find(Rule::BodyOnAccepted, Place::Response { line: 1, offset: 0 });
            self.answer = Answer::Unjudged;
        }
    }

    /// One message of the response: the JSON body, or the data of one
    /// `message` event, as the parser read it, at `place`.
    pub fn message(&mut self, place: Place, parsed: &Result<Envelope<'_>, Error<'_>>) {
        if self.answer == Answer::Accepted {
            self.body_bytes(1);
        }
        if !matches!(self.answer, Answer::Json | Answer::Events) {
            return;
        }
        let envelope = match parsed {
            Ok(envelope) => envelope,
            Err(error) => {
                // Unreadable: it may have been the response. An error with
                // an id names the request it may have meant to answer.
                if error.id().is_none() {
                    self.unattributed = true;
                }
                return;
            }
        };
        for item in envelope.items() {
            match item {
                Ok(message) => {
                    if let Some(rule) = self.one(message) {
                        self.find(rule, place);
                    }
                }
                Err(_) => self.unattributed = true,
            }
        }
    }

    /// What one message of the response breaks, if anything.
    fn one(&mut self, message: &Message<'_>) -> Option<Rule> {
        let json = self.answer == Answer::Json;
        let response = matches!(message, Message::Result(_) | Message::Error(_));
        match &mut self.expect {
            Expect::Stream { resuming } => (response && !*resuming).then_some(Rule::ResponseOnGetStream),
            Expect::Responses(ids) if response => {
                let Some(id) = message.id() else {
                    // An error without an id answers what could not be read.
                    self.unattributed = true;
                    return None;
                };
                let Some((_, answered)) = ids.iter_mut().find(|(posted, _)| posted == id) else {
                    return Some(Rule::ResponseIdMismatch);
                };
                if core::mem::replace(answered, true) {
                    return Some(Rule::ResponseRepeated);
                }
                if self.initialize {
                    self.negotiated = negotiated(message);
                }
                None
            }
            Expect::Responses(_) if json => Some(Rule::NotAResponse),
            Expect::Responses(_) if matches!(message, Message::Request(_)) && self.revision.mirrors_headers() => {
                Some(Rule::ServerRequestOnStream)
            }
            _ => None,
        }
    }

    /// A message of the response that could not be read as one (an event
    /// too large, or cut by the end of the stream): it may have been the
    /// response, so none is reported missing.
    pub fn unreadable(&mut self) {
        self.unattributed = true;
    }

    /// The response ended.
    pub fn end(&mut self) {
        if !matches!(self.answer, Answer::Json | Answer::Events) || self.unattributed {
            return;
        }
        if let Expect::Responses(ids) = &self.expect
            && ids.iter().any(|(_, answered)| !answered)
        {
            self.find(Rule::NoResponse, Place::End);
        }
    }

    /// Every finding so far.
    #[must_use]
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The findings since the last call (for a log written as the exchange
    /// goes).
    pub fn new_findings(&mut self) -> &[Finding] {
        let from = core::mem::replace(&mut self.reported, self.findings.len());
        self.findings.get(from..).unwrap_or_default()
    }

    /// The revision an `initialize` result in this exchange named.
    #[must_use]
    pub fn negotiated(&self) -> Option<Revision> {
        self.negotiated
    }
}

/// The revision a result to `initialize` names in `protocolVersion`.
fn negotiated(message: &Message<'_>) -> Option<Revision> {
    let Message::Result(result) = message else { return None };
    let version = result.result.member("protocolVersion").ok().flatten()?;
    version.as_str()?.parse().ok()
}

//! The rules of one Streamable HTTP exchange (a request and its response),
//! with no I/O: the caller reads the bytes, parses each message with a
//! [`Parser`](crate::Parser), and tells an [`Exchange`] what it saw, step
//! by step as it arrives: the request, the response's status and headers,
//! each message of the body (one JSON body, or one per `message` event of
//! an event stream), the end. Each step may add [`Finding`]s, with the
//! place of the fault and the [`Severity`] of the rule (a MUST broken is a
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

use alloc::vec::Vec;

use crate::envelope::Error;
use crate::envelope::{Envelope, ErrorResponse, Id, Message};
use crate::revision::Revision;

mod answer;
mod flights;
mod headers;
mod mirror;
mod modern;
mod rule;

pub use crate::fault::Severity;
pub use flights::Flights;
pub use headers::{Accepts, Header, Headers};
pub use rule::{Rule, Side};

use self::answer::{Due, Posted};

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
    /// A finding of `rule` at `place`.
    #[must_use]
    pub fn new(rule: Rule, place: Place) -> Finding {
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

    /// The rule's severity: a MUST broken, or a SHOULD.
    #[must_use]
    pub fn severity(&self) -> Severity {
        self.rule.severity()
    }
}

/// What outlives one exchange: the revision whose rules apply, the one
/// `initialize` negotiated (which `MCP-Protocol-Version` must then carry),
/// and whether the server has shown it speaks 2026-07-28.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conversation {
    /// The revision the caller expects.
    pub revision: Revision,
    /// The revision an `initialize` result named, once one was seen.
    pub negotiated: Option<Revision>,
    /// The server answered a 2026-07-28 request as a 2026-07-28 server
    /// does (a success, or one of that revision's own errors): its
    /// refusals are held to that revision's, which a server of an earlier
    /// revision, refusing a version it does not know, is not.
    pub modern: bool,
}

impl Conversation {
    /// A conversation under `revision`, nothing negotiated yet.
    #[must_use]
    pub fn new(revision: Revision) -> Conversation {
        Conversation { revision, negotiated: None, modern: false }
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

    /// Takes what `exchange` taught: a negotiated revision, a server that
    /// speaks 2026-07-28.
    pub fn learn(&mut self, exchange: &Exchange) {
        if let Some(revision) = exchange.negotiated {
            self.negotiated = Some(revision);
        }
        self.modern |= exchange.modern;
    }
}

/// What the request asked of the response.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expect {
    /// Nothing the rules can hold the response to: a method other than
    /// POST and GET, a revision without Streamable HTTP, a body the
    /// parser refused for a limit of its own.
    Nothing,
    /// A POST without requests: 202 and no body.
    Accepted,
    /// A POST of requests: one response to each.
    Responses(Vec<Posted>),
    /// An invalid body JSON-RPC answers: an error with this code, and this
    /// id (`None`: null).
    ErrorReply { code: i64, id: Option<Id<'static>>, seen: bool },
    /// A GET stream; `resuming` when it carries `Last-Event-ID`.
    Stream { resuming: bool },
    /// A GET or DELETE under 2026-07-28, which has neither: 405.
    Refused,
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
    /// A refusal (a status other than 2xx) whose JSON-RPC body is held to
    /// what the refusal must say.
    Refusal,
    /// A status or content type after which the body is not judged.
    Unjudged,
    /// A 202: any body byte is a fault.
    Accepted,
}

/// One request and its response, judged as they arrive.
///
/// ```
/// use mcp_envelope::transport::exchange::{Conversation, Exchange, Headers, Place, Severity};
/// use mcp_envelope::{Parser, Revision, write};
///
/// let body = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"delete_repo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// let headers = Headers::from_pairs([
///     ("content-type", &b"application/json"[..]),
///     ("accept", b"application/json, text/event-stream"),
///     ("mcp-protocol-version", b"2026-07-28"),
///     ("mcp-method", b"tools/call"),
///     ("mcp-name", b"get_me"),
/// ]);
/// let mut parser = Parser::new(Revision::V2026_07_28);
/// let conversation = Conversation::new(Revision::V2026_07_28);
/// let mut exchange = Exchange::post(&conversation, &headers, body, &parser.parse(body));
/// let [finding] = exchange.findings() else { panic!() };
/// assert_eq!((finding.rule.name(), finding.place), ("mcp-name-mismatch", Place::RequestHeader("Mcp-Name")));
/// let mut answer = Vec::new();
/// assert!(write::error_for(&mut answer, finding.reply().unwrap()));
/// assert_eq!(
///     String::from_utf8(answer).unwrap(),
///     r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32020,"message":"a header that mirrors the body is missing, malformed or disagrees with it","data":{"reason":"header-mismatch","offset":63}}}"#
/// );
/// // A server that runs it anyway is the hole SEP-2243 closes.
/// exchange.response(200, &Headers::from_pairs([("content-type", &b"application/json"[..])]));
/// let [_, accepted] = exchange.findings() else { panic!() };
/// assert_eq!((accepted.rule.name(), accepted.severity()), ("header-mismatch-accepted", Severity::Violation));
/// ```
#[derive(Clone, Debug)]
pub struct Exchange {
    revision: Revision,
    expect: Expect,
    answer: Answer,
    /// The response's status, once known.
    status: u16,
    /// The request was `initialize`: its result names the revision.
    initialize: bool,
    negotiated: Option<Revision>,
    /// What the conversation knew of the server, and what this exchange
    /// showed.
    known_modern: bool,
    modern: bool,
    /// A refusal the request's faults make due (2026-07-28).
    due: Option<Due>,
    /// `MCP-Protocol-Version` names no MCP revision (2025-06-18 on).
    unknown_version: bool,
    /// A POST of one message (no batch): an error with a null id answers
    /// nothing that could not be read.
    single: bool,
    /// An event of the stream carried an id: under 2025-11-25 the server
    /// may close the stream early and send the response on a resumed one.
    resumable: bool,
    /// A message of the response could not be read (too large, cut, or
    /// invalid with no readable id): it may have been a response, so no
    /// response is missed for sure.
    unattributed: bool,
    /// Messages of the response so far.
    messages: u64,
    findings: Vec<Finding>,
    /// Findings already handed out by [`Exchange::new_findings`].
    reported: usize,
}

impl Exchange {
    fn new(revision: Revision, expect: Expect, conversation: &Conversation) -> Exchange {
        Exchange {
            revision,
            expect,
            answer: Answer::Pending,
            status: 0,
            initialize: false,
            negotiated: None,
            known_modern: conversation.modern,
            modern: false,
            due: None,
            unknown_version: false,
            single: false,
            resumable: false,
            unattributed: false,
            messages: 0,
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
            return Exchange::new(revision, Expect::Nothing, conversation);
        }
        let messages: Vec<&Message<'_>> = match parsed {
            Ok(envelope) => envelope.items().filter_map(Result::ok).collect(),
            Err(_) => Vec::new(),
        };
        let posted: Vec<Posted> = messages
            .iter()
            .filter_map(|m| match m {
                Message::Request(r) => Some(Posted::new(r)),
                _ => None,
            })
            .collect();
        let expect = match (parsed, posted.is_empty()) {
            (Err(error), _) => answer::error_reply(error),
            (Ok(_), true) => Expect::Accepted,
            (Ok(_), false) => Expect::Responses(posted),
        };
        let mut exchange = Exchange::new(revision, expect, conversation);
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
        exchange.single = single.is_some();
        exchange.initialize = matches!(single, Some(Message::Request(r)) if r.method == "initialize");
        exchange.unknown_version =
            revision.has_protocol_version_header() && headers::names_no_revision(headers.protocol_version);
        if revision.mirrors_headers() {
            if messages.iter().any(|m| matches!(m, Message::Result(_) | Message::Error(_))) {
                exchange.find(Rule::ResponsePosted, Place::RequestBody(0));
            }
            if let Some(message) = single {
                let found = mirror::check(headers, body, message);
                exchange.due = Due::of(&found);
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
        let get = method.eq_ignore_ascii_case("GET");
        let expect = if revision.mirrors_headers() && (get || method.eq_ignore_ascii_case("DELETE")) {
            Expect::Refused
        } else if get && revision.has_sessions() {
            Expect::Stream { resuming: headers.last_event_id.is_present() }
        } else {
            Expect::Nothing
        };
        let mut exchange = Exchange::new(revision, expect, conversation);
        if revision.has_streamable_http() {
            exchange.session_id(headers.session_id, Side::Client);
            if revision.has_protocol_version_header() && !revision.mirrors_headers() {
                exchange.protocol_version(headers, conversation);
            }
        }
        exchange
    }

    /// `MCP-Protocol-Version` before 2026-07-28: present after
    /// `initialize` (MUST), and the negotiated revision (SHOULD).
    fn protocol_version(&mut self, headers: &Headers<'_>, conversation: &Conversation) {
        let place = Place::RequestHeader("MCP-Protocol-Version");
        match headers.protocol_version {
            Header::Absent => self.find(Rule::ProtocolVersionMissing, place),
            Header::Repeated => self.find(Rule::ProtocolVersionInvalid, place),
            Header::One(value) => {
                let named = core::str::from_utf8(value).ok().and_then(|v| v.parse::<Revision>().ok());
                let expected = conversation.negotiated.unwrap_or(self.revision);
                match named {
                    Some(revision) if revision == expected => {}
                    Some(revision) if revision.is_mcp() => self.find(Rule::ProtocolVersionNotNegotiated, place),
                    _ => self.find(Rule::ProtocolVersionInvalid, place),
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
        self.status = status;
        self.session_id(headers.session_id, Side::Server);
        let success = (200..300).contains(&status);
        let (json, events) = (headers.is_json(), headers.is_event_stream());
        self.refusal_status(status, success);
        if self.revision.mirrors_headers() && success && headers.session_id.is_present() {
            self.find(Rule::SessionIdUnder2026, Place::ResponseHeader("Mcp-Session-Id"));
        }
        if self.revision.mirrors_headers() && success && matches!(self.expect, Expect::Responses(_)) {
            // It took a 2026-07-28 request: a server of an earlier revision
            // refuses the version (400) instead.
            self.modern = true;
        }
        self.answer = match &self.expect {
            Expect::Refused => {
                if status != 405 {
                    self.find(Rule::MethodNotRefused, Place::Status);
                }
                Answer::Unjudged
            }
            _ if !success && (json || events) => Answer::Refusal,
            _ if !success => {
                let html = headers.content_type.value().is_some_and(headers::is_html);
                if html && self.revision.mirrors_headers() && self.known_modern {
                    self.find(Rule::RefusalNotJsonRpc, Place::ResponseHeader("Content-Type"));
                }
                Answer::Unjudged
            }
            Expect::Nothing => Answer::Unjudged,
            Expect::Accepted if status == 202 => Answer::Accepted,
            Expect::Accepted => {
                self.find(Rule::NotAccepted, Place::Status);
                Answer::Unjudged
            }
            Expect::ErrorReply { .. } if status == 202 => {
                self.find(Rule::InvalidBodyAccepted, Place::Status);
                Answer::Unjudged
            }
            Expect::Responses(_) | Expect::Stream { .. } | Expect::ErrorReply { .. } if events => Answer::Events,
            // No content type and no body (a 202 to a request): nothing
            // answers it, which the end reports.
            Expect::Responses(_) | Expect::ErrorReply { .. } if json || !headers.content_type.is_present() => {
                Answer::Json
            }
            Expect::Responses(_) | Expect::Stream { .. } | Expect::ErrorReply { .. } => {
                self.find(Rule::ContentTypeUnexpected, Place::ResponseHeader("Content-Type"));
                Answer::Unjudged
            }
        };
    }

    /// What the status alone says of a refusal the request made due.
    fn refusal_status(&mut self, status: u16, success: bool) {
        if let Some(due) = self.due {
            if success {
                self.find(due.accepted, Place::Status);
            } else if status != 400 {
                self.find(due.refused, Place::Status);
            }
        }
        if self.unknown_version && success {
            self.find(Rule::UnsupportedVersionAccepted, Place::Status);
        }
    }

    /// Whether the body's messages are judged, and how they come: `Some(true)`
    /// for an event stream, `Some(false)` for one JSON body (a refusal's
    /// included), `None` when the response head said the body is not held
    /// to anything.
    #[must_use]
    pub fn reads_events(&self) -> Option<bool> {
        match self.answer {
            Answer::Events => Some(true),
            Answer::Json => Some(false),
            Answer::Refusal => Some(false),
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

    /// An event of the response stream carried an `id`: under 2025-11-25
    /// the server may then close the stream before the response, which
    /// comes on a stream the client resumes with `Last-Event-ID`.
    pub fn event_id(&mut self) {
        self.resumable = true;
    }

    /// One message of the response: the JSON body, or the data of one
    /// `message` event, as the parser read it, at `place`.
    pub fn message(&mut self, place: Place, parsed: &Result<Envelope<'_>, Error<'_>>) {
        if self.answer == Answer::Accepted {
            self.body_bytes(1);
        }
        if !matches!(self.answer, Answer::Json | Answer::Events | Answer::Refusal) {
            return;
        }
        let envelope = match parsed {
            Ok(envelope) => envelope,
            Err(error) => {
                // A batch answering a batch where none is allowed took it.
                if let Expect::ErrorReply { .. } = self.expect
                    && self.answer != Answer::Refusal
                    && error.reason() == crate::Reason::BatchNotAllowed
                {
                    self.find(Rule::InvalidBodyAccepted, place);
                }
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
                    let found = if self.answer == Answer::Refusal { self.refusal(message) } else { self.one(message) };
                    for rule in found.into_iter().flatten() {
                        self.find(rule, place);
                    }
                    self.messages += 1;
                }
                Err(_) => self.unattributed = true,
            }
        }
    }

    /// What one message of a success breaks (at most two rules).
    fn one(&mut self, message: &Message<'_>) -> [Option<Rule>; 2] {
        let json = self.answer == Answer::Json;
        let response = matches!(message, Message::Result(_) | Message::Error(_));
        if let Message::Error(error) = message {
            let auth = self.authorisation(error);
            if let Expect::ErrorReply { .. } = self.expect {
                return [self.error_reply(error), auth];
            }
            if auth.is_some() {
                return [auth, self.answers(message)];
            }
        }
        let modern = self.revision.mirrors_headers();
        let request = matches!(message, Message::Request(_));
        match &mut self.expect {
            Expect::Stream { resuming } => [(response && !*resuming).then_some(Rule::ResponseOnGetStream), None],
            Expect::ErrorReply { .. } => [Some(Rule::InvalidBodyAccepted), None],
            Expect::Responses(_) if response => [self.answers(message), None],
            Expect::Responses(_) if json => [Some(Rule::NotAResponse), None],
            Expect::Responses(_) if request && modern => [Some(Rule::ServerRequestOnStream), None],
            Expect::Responses(posted) if modern && posted.iter().all(|p| p.answered) => {
                [Some(Rule::MessageAfterResponse), self.notification(message)]
            }
            Expect::Responses(_) => [self.notification(message), None],
            Expect::Nothing | Expect::Accepted | Expect::Refused => [None, None],
        }
    }

    /// A response in a success to a POST of requests.
    fn answers(&mut self, message: &Message<'_>) -> Option<Rule> {
        let modern = self.revision.mirrors_headers();
        let Expect::Responses(posted) = &mut self.expect else { return None };
        let Some(id) = message.id() else {
            // An error without an id answers what could not be read; a
            // single request's id could be.
            self.unattributed = true;
            return (self.single && posted.len() == 1).then_some(Rule::ErrorIdMismatch);
        };
        let Some(request) = posted.iter_mut().find(|p| p.id == *id) else {
            return Some(Rule::ResponseIdMismatch);
        };
        if core::mem::replace(&mut request.answered, true) {
            return Some(Rule::ResponseRepeated);
        }
        let method = request.method;
        if self.initialize {
            self.negotiated = negotiated(message);
        }
        if !modern {
            return None;
        }
        match message {
            Message::Result(result) => modern::result(result, method),
            Message::Error(error) => self.modern_error(error, method),
            Message::Request(_) | Message::Notification(_) => None,
        }
    }

    /// A notification on a request's stream (2026-07-28 rules).
    fn notification(&mut self, message: &Message<'_>) -> Option<Rule> {
        let Message::Notification(notification) = message else { return None };
        if !self.revision.mirrors_headers() {
            return None;
        }
        let Expect::Responses(posted) = &mut self.expect else { return None };
        let [request] = posted.as_mut_slice() else { return None };
        modern::notification(notification, request, self.messages)
    }

    /// An error a 2026-07-28 server sent for a posted request.
    fn modern_error(&mut self, error: &ErrorResponse<'_>, method: answer::Method) -> Option<Rule> {
        match error.error.code {
            answer::METHOD_NOT_FOUND if method == answer::Method::Discover => Some(Rule::DiscoverNotImplemented),
            answer::METHOD_NOT_FOUND if self.status != 404 => Some(Rule::MethodNotFoundStatus),
            answer::UNSUPPORTED_VERSION if !answer::names_versions(error) || self.status != 400 => {
                Some(Rule::UnsupportedVersionRefusal)
            }
            _ => None,
        }
    }

    /// An error response answering an invalid body: its code and id.
    fn error_reply(&mut self, error: &ErrorResponse<'_>) -> Option<Rule> {
        let Expect::ErrorReply { code, id, seen } = &mut self.expect else { return None };
        *seen = true;
        if answer::confuses(*code, error.error.code) {
            return Some(Rule::WrongErrorCode);
        }
        (error.id != *id).then_some(Rule::ErrorIdMismatch)
    }

    /// An error that reads like an authorisation failure wants 401 or 403.
    fn authorisation(&self, error: &ErrorResponse<'_>) -> Option<Rule> {
        (!matches!(self.status, 401 | 403) && answer::reads_like_authorisation(&error.error.message))
            .then_some(Rule::AuthErrorNotHttp)
    }

    /// What one message of a refusal breaks.
    fn refusal(&mut self, message: &Message<'_>) -> [Option<Rule>; 2] {
        let Message::Error(error) = message else { return [None, None] };
        let auth = self.authorisation(error);
        if answer::is_modern(error.error.code) {
            self.modern = true;
        }
        if let Expect::ErrorReply { .. } = self.expect {
            return [self.error_reply(error), auth];
        }
        let Expect::Responses(posted) = &self.expect else { return [None, auth] };
        let [request] = posted.as_slice() else { return [None, auth] };
        let (request_id, method) = (request.id.clone(), request.method);
        if let Some(due) = self.due {
            let wrong_id = error.id.as_ref() != Some(&request_id);
            let rule = (!due.codes.contains(&error.error.code) || wrong_id).then_some(due.refused);
            return [rule, auth];
        }
        let modern_server = self.known_modern || self.modern;
        if !self.revision.mirrors_headers() || !modern_server {
            // A refusal of a version the server does not know, by a server
            // of an earlier revision: its body is its own business.
            return [None, auth];
        }
        if error.id.as_ref().is_some_and(|id| *id != request_id) {
            return [Some(Rule::ErrorIdMismatch), auth];
        }
        [self.modern_error(error, method), auth]
    }

    /// A message of the response that could not be read as one (an event
    /// too large, or cut by the end of the stream): it may have been the
    /// response, so none is reported missing.
    pub fn unreadable(&mut self) {
        self.unattributed = true;
    }

    /// The response ended.
    pub fn end(&mut self) {
        let judged = matches!(self.answer, Answer::Json | Answer::Events);
        // A success with no message at all took the invalid body in silence
        // (a message other than the error is found where it came).
        if let Expect::ErrorReply { seen: false, .. } = self.expect
            && judged
            && !self.unattributed
            && self.messages == 0
        {
            self.find(Rule::InvalidBodyAccepted, Place::End);
        }
        if !judged || self.unattributed {
            return;
        }
        let Expect::Responses(posted) = &self.expect else { return };
        if posted.iter().all(|p| p.answered) {
            return;
        }
        if self.answer == Answer::Json {
            // A JSON answer without a body is none.
            let rule = if self.messages == 0 { Rule::NotAResponse } else { Rule::ResponseMissing };
            self.find(rule, Place::End);
            return;
        }
        // Closed early, resumable by its event ids (2025-11-25): the
        // response may come on the stream the client resumes.
        if !(self.resumable && self.revision == Revision::V2025_11_25) {
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

    /// The revision whose rules this exchange applies.
    #[must_use]
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The response's status, once its head came (0 before).
    #[must_use]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The posted requests no response has answered (yet).
    pub fn unanswered(&self) -> impl Iterator<Item = &Id<'static>> {
        let posted = match &self.expect {
            Expect::Responses(posted) => posted.as_slice(),
            _ => &[],
        };
        posted.iter().filter(|p| !p.answered).map(|p| &p.id)
    }

    /// Whether the server answered as a 2026-07-28 server does (see
    /// [`Conversation::modern`]).
    #[must_use]
    pub fn modern(&self) -> bool {
        self.modern
    }
}

/// The revision a result to `initialize` names in `protocolVersion`.
fn negotiated(message: &Message<'_>) -> Option<Revision> {
    let Message::Result(result) = message else { return None };
    let version = result.result.member("protocolVersion").ok().flatten()?;
    version.as_str()?.parse().ok()
}

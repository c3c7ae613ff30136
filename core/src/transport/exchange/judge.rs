//! The judge: one request and its response, held to the rules step by
//! step as they arrive (the request, the response head, each message, the
//! end).

use alloc::vec::Vec;

use super::due::{self, Due, Posted};
use super::{Conversation, Finding, Header, Headers, Place, Rule, Side, headers, mirror, modern};
use crate::envelope::Parsed;
use crate::envelope::{Envelope, ErrorResponse, Id, Message};
use crate::revision::Revision;
use crate::span;

/// What the request asked of the response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Awaited {
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
enum Reading {
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
/// use mcp_envelope::transport::exchange::{Conversation, Exchange, Headers, Place};
/// use mcp_envelope::{Parser, Revision, Severity, write};
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
    expect: Awaited,
    reading: Reading,
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
    fn new(revision: Revision, expect: Awaited, conversation: &Conversation) -> Exchange {
        Exchange {
            revision,
            expect,
            reading: Reading::Pending,
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
    /// (under [`Conversation::in_force_for`] these headers).
    #[must_use]
    pub fn post(conversation: &Conversation, headers: &Headers<'_>, body: &[u8], parsed: &Parsed<'_>) -> Exchange {
        let mut revision = conversation.in_force_for(headers);
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
            return Exchange::new(revision, Awaited::Nothing, conversation);
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
            (Err(error), _) => due::error_reply(error),
            (Ok(_), true) => Awaited::Accepted,
            (Ok(_), false) => Awaited::Responses(posted),
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
        let revision = conversation.in_force_for(headers);
        let get = method.eq_ignore_ascii_case("GET");
        let expect = if revision.mirrors_headers() && (get || method.eq_ignore_ascii_case("DELETE")) {
            Awaited::Refused
        } else if get && revision.has_sessions() {
            Awaited::Stream { resuming: headers.last_event_id.is_present() }
        } else {
            Awaited::Nothing
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
        if self.revision.mirrors_headers() && success && matches!(self.expect, Awaited::Responses(_)) {
            // It took a 2026-07-28 request: a server of an earlier revision
            // refuses the version (400) instead.
            self.modern = true;
        }
        self.reading = match &self.expect {
            Awaited::Refused => {
                if status != 405 {
                    self.find(Rule::MethodNotRefused, Place::Status);
                }
                Reading::Unjudged
            }
            _ if !success && (json || events) => Reading::Refusal,
            _ if !success => {
                let html = headers.content_type.value().is_some_and(headers::is_html);
                if html && self.revision.mirrors_headers() && self.known_modern {
                    self.find(Rule::RefusalNotJsonRpc, Place::ResponseHeader("Content-Type"));
                } else if self.unknown_version && self.revision.mirrors_headers() && self.known_modern {
                    // No JSON-RPC body at all, where -32022 is owed.
                    self.find(Rule::UnsupportedVersionRefusal, Place::ResponseHeader("Content-Type"));
                }
                Reading::Unjudged
            }
            Awaited::Nothing => Reading::Unjudged,
            Awaited::Accepted if status == 202 => Reading::Accepted,
            Awaited::Accepted => {
                self.find(Rule::NotAccepted, Place::Status);
                Reading::Unjudged
            }
            Awaited::ErrorReply { .. } if status == 202 => {
                self.find(Rule::InvalidBodyAccepted, Place::Status);
                Reading::Unjudged
            }
            Awaited::Responses(_) | Awaited::Stream { .. } | Awaited::ErrorReply { .. } if events => Reading::Events,
            // No content type and no body (a 202 to a request): nothing
            // answers it, which the end reports.
            Awaited::Responses(_) | Awaited::ErrorReply { .. } if json || !headers.content_type.is_present() => {
                Reading::Json
            }
            Awaited::Responses(_) | Awaited::Stream { .. } | Awaited::ErrorReply { .. } => {
                self.find(Rule::ContentTypeUnexpected, Place::ResponseHeader("Content-Type"));
                Reading::Unjudged
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
        match self.reading {
            Reading::Events => Some(true),
            Reading::Json => Some(false),
            Reading::Refusal => Some(false),
            Reading::Pending | Reading::Unjudged | Reading::Accepted => None,
        }
    }

    /// Body bytes that are not messages: a 202's body is a fault.
    pub fn body_bytes(&mut self, len: usize) {
        if self.reading == Reading::Accepted && len > 0 {
            self.find(Rule::BodyOnAccepted, Place::Response { line: 1, offset: 0 });
            self.reading = Reading::Unjudged;
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
    pub fn message(&mut self, place: Place, parsed: &Parsed<'_>) {
        if self.reading == Reading::Accepted {
            self.body_bytes(1);
        }
        if !matches!(self.reading, Reading::Json | Reading::Events | Reading::Refusal) {
            return;
        }
        let envelope = match parsed {
            Ok(envelope) => envelope,
            Err(error) => {
                // A batch answering a batch where none is allowed took it.
                if let Awaited::ErrorReply { .. } = self.expect
                    && self.reading != Reading::Refusal
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
                    let found =
                        if self.reading == Reading::Refusal { self.refusal(message) } else { self.one(message) };
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
        let json = self.reading == Reading::Json;
        let response = matches!(message, Message::Result(_) | Message::Error(_));
        if let Message::Error(error) = message {
            let auth = self.authorisation(error);
            if let Awaited::ErrorReply { .. } = self.expect {
                return [self.error_reply(error), auth];
            }
            if auth.is_some() {
                return [auth, self.answers(message)];
            }
        }
        let modern = self.revision.mirrors_headers();
        let request = matches!(message, Message::Request(_));
        match &mut self.expect {
            Awaited::Stream { resuming } => [(response && !*resuming).then_some(Rule::ResponseOnGetStream), None],
            Awaited::ErrorReply { .. } => [Some(Rule::InvalidBodyAccepted), None],
            Awaited::Responses(_) if response => [self.answers(message), None],
            Awaited::Responses(_) if json => [Some(Rule::NotAResponse), None],
            Awaited::Responses(_) if request && modern => [Some(Rule::ServerRequestOnStream), None],
            Awaited::Responses(posted) if modern && posted.iter().all(|p| p.answered) => {
                [Some(Rule::MessageAfterResponse), self.notification(message)]
            }
            Awaited::Responses(_) => [self.notification(message), None],
            Awaited::Nothing | Awaited::Accepted | Awaited::Refused => [None, None],
        }
    }

    /// A response in a success to a POST of requests.
    fn answers(&mut self, message: &Message<'_>) -> Option<Rule> {
        let modern = self.revision.mirrors_headers();
        let Awaited::Responses(posted) = &mut self.expect else { return None };
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
        let Awaited::Responses(posted) = &mut self.expect else { return None };
        let [request] = posted.as_mut_slice() else { return None };
        modern::notification(notification, request, self.messages)
    }

    /// An error a 2026-07-28 server sent for a posted request.
    fn modern_error(&mut self, error: &ErrorResponse<'_>, method: due::Method) -> Option<Rule> {
        match error.error.code {
            due::METHOD_NOT_FOUND if method == due::Method::Discover => Some(Rule::DiscoverNotImplemented),
            due::METHOD_NOT_FOUND if self.status != 404 => Some(Rule::MethodNotFoundStatus),
            due::UNSUPPORTED_VERSION if !due::names_versions(error) || self.status != 400 => {
                Some(Rule::UnsupportedVersionRefusal)
            }
            _ => None,
        }
    }

    /// An error response answering an invalid body: its code and id.
    fn error_reply(&mut self, error: &ErrorResponse<'_>) -> Option<Rule> {
        let Awaited::ErrorReply { code, id, seen } = &mut self.expect else { return None };
        *seen = true;
        if due::confuses(*code, error.error.code) {
            return Some(Rule::WrongErrorCode);
        }
        (error.id != *id).then_some(Rule::ErrorIdMismatch)
    }

    /// An error that reads like an authorisation failure wants 401 or 403.
    fn authorisation(&self, error: &ErrorResponse<'_>) -> Option<Rule> {
        (!matches!(self.status, 401 | 403) && due::reads_like_authorisation(&error.error.message))
            .then_some(Rule::AuthErrorNotHttp)
    }

    /// What one message of a refusal breaks.
    fn refusal(&mut self, message: &Message<'_>) -> [Option<Rule>; 2] {
        let Message::Error(error) = message else { return [None, None] };
        let auth = self.authorisation(error);
        if due::is_modern(error.error.code) {
            self.modern = true;
        }
        if let Awaited::ErrorReply { .. } = self.expect {
            return [self.error_reply(error), auth];
        }
        let Awaited::Responses(posted) = &self.expect else { return [None, auth] };
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
        // A server known to speak 2026-07-28, refusing a version it does
        // not support, owes that revision's error, whatever code it chose.
        if self.unknown_version && error.error.code != due::UNSUPPORTED_VERSION {
            return [Some(Rule::UnsupportedVersionRefusal), auth];
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
        let judged = matches!(self.reading, Reading::Json | Reading::Events);
        // A success with no message at all took the invalid body in silence
        // (a message other than the error is found where it came).
        if let Awaited::ErrorReply { seen: false, .. } = self.expect
            && judged
            && !self.unattributed
            && self.messages == 0
        {
            self.find(Rule::InvalidBodyAccepted, Place::End);
        }
        if !judged || self.unattributed {
            return;
        }
        let Awaited::Responses(posted) = &self.expect else { return };
        if posted.iter().all(|p| p.answered) {
            return;
        }
        if self.reading == Reading::Json {
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
        span::from(&self.findings, from)
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
            Awaited::Responses(posted) => posted.as_slice(),
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

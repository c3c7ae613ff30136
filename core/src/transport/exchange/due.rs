//! What a request makes due of its answer: a response to each request (and
//! what each one's method allows), the refusal a 2026-07-28 request's
//! faults call for, the error JSON-RPC gives an invalid body; and what the
//! errors that come back say.

use super::judge::Awaited;
use super::{Finding, Rule};
use crate::envelope::{Error, Reply};
use crate::envelope::{ErrorResponse, Id, Request};
use crate::fault::Reason;

pub(super) const INVALID_REQUEST: i64 = -32600;
pub(super) const PARSE_ERROR: i64 = -32700;
pub(super) const METHOD_NOT_FOUND: i64 = -32601;
pub(super) const INVALID_PARAMS: i64 = -32602;
pub(super) const HEADER_MISMATCH: i64 = -32020;
pub(super) const UNSUPPORTED_VERSION: i64 = -32022;

/// `_meta` keys of a 2026-07-28 request.
pub(super) const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// What the rules need to know of a request's method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Method {
    /// `server/discover`, which every 2026-07-28 server implements.
    Discover,
    /// `subscriptions/listen`: a stream of notifications, opened by an
    /// acknowledgement.
    Listen,
    /// `tools/call`, `prompts/get`, `resources/read`: the methods an
    /// `input_required` result may answer.
    TakesInput,
    Other,
}

impl Method {
    fn of(name: &str) -> Method {
        match name {
            "server/discover" => Method::Discover,
            "subscriptions/listen" => Method::Listen,
            "tools/call" | "prompts/get" | "resources/read" => Method::TakesInput,
            _ => Method::Other,
        }
    }
}

/// One request of a POST, awaiting its response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Posted {
    pub id: Id<'static>,
    pub method: Method,
    pub answered: bool,
    /// Its `_meta` asked for log messages (2026-07-28).
    pub log_level: bool,
}

impl Posted {
    pub(super) fn new(request: &Request<'_>) -> Posted {
        let meta = request.params.as_ref().and_then(|p| p.member("_meta").ok().flatten());
        let log_level = meta.is_some_and(|m| m.member(META_LOG_LEVEL).ok().flatten().is_some());
        Posted { id: request.id.clone().into_owned(), method: Method::of(&request.method), answered: false, log_level }
    }
}

/// A refusal a 2026-07-28 request's faults call for: 400, and a JSON-RPC
/// error with one of `codes` and the request's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Due {
    /// The codes that answer the faults: where several faults meet, the
    /// text says none wins, so any of theirs will do.
    pub codes: &'static [i64],
    /// The rule a success to the request breaks.
    pub accepted: Rule,
    /// The rule any other refusal breaks.
    pub refused: Rule,
}

impl Due {
    /// The refusal the request-side findings of a 2026-07-28 request call
    /// for: a header fault -32020 (or -32022, if the server checks the
    /// version first); a missing `_meta` field -32602 (or -32020: with the
    /// version header present and `_meta`'s absent, the text gives no
    /// precedence).
    pub(super) fn of(findings: &[Finding]) -> Option<Due> {
        let header = findings.iter().any(|f| f.reply().is_some());
        let meta = findings
            .iter()
            .any(|f| matches!(f.rule, Rule::MetaProtocolVersionMissing | Rule::MetaClientCapabilitiesMissing));
        match (header, meta) {
            (true, false) => Some(Due {
                codes: &[HEADER_MISMATCH, UNSUPPORTED_VERSION],
                accepted: Rule::HeaderMismatchAccepted,
                refused: Rule::HeaderMismatchRefusal,
            }),
            (true, true) => Some(Due {
                codes: &[HEADER_MISMATCH, UNSUPPORTED_VERSION, INVALID_PARAMS],
                accepted: Rule::HeaderMismatchAccepted,
                refused: Rule::HeaderMismatchRefusal,
            }),
            (false, true) => Some(Due {
                codes: &[INVALID_PARAMS, HEADER_MISMATCH, UNSUPPORTED_VERSION],
                accepted: Rule::MetaRefusal,
                refused: Rule::MetaRefusal,
            }),
            (false, false) => None,
        }
    }
}

/// What an invalid body's answer must be: the error JSON-RPC gives it
/// (section 5: an error response, with the id when it could be read, else
/// null). A body refused for one of the parser's own limits (size, depth,
/// batch length) is valid JSON-RPC to a server with other limits, and a
/// response-shaped one is never answered: nothing is due.
pub(super) fn error_reply(error: &Error<'_>) -> Awaited {
    if matches!(error.reason(), Reason::TooLarge | Reason::TooDeep | Reason::BatchTooLong) {
        return Awaited::Nothing;
    }
    let id = match error.reply() {
        Reply::WithId(id) => Some(id.clone().into_owned()),
        Reply::WithNullId => None,
        Reply::NotAnswered => return Awaited::Nothing,
    };
    Awaited::ErrorReply { code: error.code(), id, seen: false }
}

/// Whether `got` is the code of the other kind of fault than `due`:
/// -32700 is for text that is no JSON, -32600 for JSON that is no valid
/// request (JSON-RPC 2.0, section 5.1). Other codes are the server's
/// choice to make where the text is silent.
pub(super) fn confuses(due: i64, got: i64) -> bool {
    matches!((due, got), (INVALID_REQUEST, PARSE_ERROR) | (PARSE_ERROR, INVALID_REQUEST))
}

/// A code from the range 2026-07-28 reserves for its own errors
/// (-32020 to -32099): only a server of that revision sends one.
pub(super) fn is_modern(code: i64) -> bool {
    (-32099..=-32020).contains(&code)
}

/// An `UnsupportedProtocolVersion` error's `data` names the versions the
/// server supports (an array) and the one requested (a string).
pub(super) fn names_versions(error: &ErrorResponse<'_>) -> bool {
    let Some(data) = &error.error.data else { return false };
    let supported = data.member("supported").ok().flatten();
    let requested = data.member("requested").ok().flatten();
    supported.is_some_and(|s| s.get().starts_with('[')) && requested.is_some_and(|r| r.as_str().is_some())
}

/// Words of an error message that says the request lacked authorisation.
const AUTHORISATION: &[&str] =
    &["unauthori", "authenticat", "api key", "api-key", "apikey", "access token", "bearer", "credential", "forbidden"];

/// Whether an error's message reads like an authorisation failure (the
/// census met "invalid api key", "Authentication failed", "Unauthorized"
/// as -32001 errors).
pub(super) fn reads_like_authorisation(message: &str) -> bool {
    let message = message.as_bytes();
    AUTHORISATION.iter().any(|word| {
        let word = word.as_bytes();
        message.windows(word.len()).any(|w| w.eq_ignore_ascii_case(word))
    })
}

/// A JSON value as an id: a string, or an integer; nothing else matches.
pub(super) fn as_id(text: &str) -> Option<Id<'static>> {
    if let Some(s) = crate::json::lookup::string(text) {
        return Some(Id::Str(s.into_owned().into()));
    }
    text.parse::<i64>().ok().map(Id::Int)
}

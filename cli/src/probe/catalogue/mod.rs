//! The catalogue: every check the probe makes, one row each in one table.
//! A row names the check, the rule of RULES.md (section 9) it is tied to,
//! the transports and revisions it applies to, and the function that runs
//! it: what it sends, what the rules want back, and how what came back is
//! judged. The functions are grouped by what they ask, one module a group.

mod answering;
mod batches;
mod envelope;
mod ids;
mod json;
mod process;
mod refusals;
mod size;
mod transport;

use std::future::Future;
use std::pin::Pin;

use mcp_envelope::Revision;
use serde_json::json;

use super::subject::{Sent, Subject};
use mcp_envelope_grade::Outcome;

/// A check's run.
pub type Run<'s> = Pin<Box<dyn Future<Output = Outcome> + 's>>;

/// The transports a check applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    Both,
    Stdio,
    Http,
}

/// One entry of the catalogue.
pub struct Check {
    /// Its stable name, e.g. `parse-error-truncated`.
    pub name: &'static str,
    /// The rule of RULES.md, section 9.
    pub rule: &'static str,
    pub over: Over,
    /// The revisions it applies to.
    pub when: fn(Revision) -> bool,
    pub run: for<'s> fn(&'s mut Subject) -> Run<'s>,
}

fn every(_: Revision) -> bool {
    true
}

fn batches(revision: Revision) -> bool {
    revision == Revision::V2025_03_26
}

fn no_batches(revision: Revision) -> bool {
    revision != Revision::V2025_03_26
}

fn sessions(revision: Revision) -> bool {
    revision.has_sessions()
}

fn version_header(revision: Revision) -> bool {
    revision.has_protocol_version_header()
}

fn modern(revision: Revision) -> bool {
    revision.mirrors_headers()
}

/// One row: `check!(name, rule, transports, revisions, function)`.
macro_rules! check {
    ($name:literal, $rule:literal, $over:ident, $when:ident, $run:path) => {
        Check { name: $name, rule: $rule, over: Over::$over, when: $when, run: |s| Box::pin($run(s)) }
    };
}

/// The catalogue, in the order the checks run. The ones that end a
/// session come last.
pub const CHECKS: &[Check] = &[
    // Parse errors: -32700 with a null id.
    check!("parse-error-bad-json", "parse-error", Both, every, json::bad_json),
    check!("parse-error-truncated", "parse-error", Both, every, json::truncated),
    check!("parse-error-invalid-utf8", "parse-error", Both, every, json::invalid_utf8),
    check!("byte-order-mark", "byte-order-mark", Both, every, json::byte_order_mark),
    // Invalid requests: -32600, with the id where it could be read.
    check!("not-an-object-number", "invalid-request", Both, every, envelope::not_an_object_number),
    check!("not-an-object-string", "invalid-request", Both, every, envelope::not_an_object_string),
    check!("jsonrpc-missing", "invalid-request", Both, every, envelope::jsonrpc_missing),
    check!("jsonrpc-1.0", "invalid-request", Both, every, envelope::jsonrpc_1_0),
    check!("method-not-a-string", "invalid-request", Both, every, envelope::method_not_a_string),
    check!("id-null", "invalid-request", Both, every, envelope::id_null),
    check!("id-fractional", "invalid-request", Both, every, envelope::id_fractional),
    check!("id-boolean", "invalid-request", Both, every, envelope::id_boolean),
    check!("id-object", "invalid-request", Both, every, envelope::id_object),
    check!("params-a-string", "invalid-request", Both, every, envelope::params_a_string),
    check!("result-and-error-together", "invalid-request", Both, every, envelope::result_and_error_together),
    // Methods, and what gets no answer.
    check!("unknown-method", "method-not-found", Both, every, answering::unknown_method),
    check!("notification-unanswered", "notification-unanswered", Both, every, answering::notification),
    check!("response-to-nothing-unanswered", "response-unanswered", Both, every, answering::stray_response),
    // Batches, per revision.
    check!("batch-answered", "batch", Both, batches, batches::batch),
    check!("batch-refused", "batch", Both, no_batches, batches::batch_refused),
    check!("batch-empty", "batch", Both, every, batches::batch_empty),
    // Ids.
    check!("id-string-echoed", "id-echoed", Both, every, ids::id_string_echoed),
    check!("id-large-integer-exact", "id-echoed", Both, every, ids::id_large_integer_exact),
    check!("ids-in-flight-answered-once", "id-echoed", Both, every, ids::in_flight),
    // Size.
    check!("oversized-message", "oversized", Both, every, size::oversized),
    // HTTP.
    check!("content-type-not-json", "http-content-type", Http, every, transport::content_type),
    check!("accept-without-event-stream", "http-accept", Http, every, transport::accept),
    check!("method-not-allowed", "http-method", Http, every, transport::put),
    check!("protocol-version-unsupported", "protocol-version", Http, version_header, transport::version_unsupported),
    check!("protocol-version-absent", "protocol-version", Http, version_header, transport::version_absent),
    check!("session-id-missing", "session", Http, sessions, transport::session_missing),
    check!("session-id-unknown", "session", Http, sessions, transport::session_unknown),
    // 2026-07-28 over HTTP: the refusal half, and no sessions.
    check!("mcp-method-mismatch", "header-mismatch", Http, modern, refusals::mcp_method_mismatch),
    check!("mcp-name-mismatch", "header-mismatch", Http, modern, refusals::mcp_name_mismatch),
    check!("protocol-version-mismatch", "header-mismatch", Http, modern, refusals::version_mismatch),
    check!("unsupported-version-32022", "unsupported-version", Http, modern, refusals::unsupported_version),
    check!("get-refused", "no-get-or-delete", Http, modern, refusals::get_refused),
    check!("delete-refused", "no-get-or-delete", Http, modern, refusals::delete_refused),
    check!("no-session-id", "no-session", Http, modern, refusals::no_session_id),
    check!("result-type", "result-type", Both, modern, refusals::result_type),
    // The end: a session deleted, the input closed.
    check!("session-deleted", "session", Http, sessions, transport::session_deleted),
    check!("stdout-only-messages", "stdio-stdout", Stdio, every, process::stdout_only),
    check!("end-of-input", "stdio-end-of-input", Stdio, every, process::end_of_input),
];

/// A POST (or line) of raw bytes, with the revision's headers for a
/// request of `method` (the method it pretends to be, for SEP-2243).
pub(super) fn raw(s: &Subject, body: &[u8], method: &str) -> Sent {
    Sent::post(body.to_vec(), s.wire.headers(method, None))
}

/// An HTTP request of the session's revision, its headers changed.
pub(super) fn http_ping(s: &mut Subject, set: &[(&str, &str)], omit: &[&'static str]) -> (u64, Sent) {
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), s.wire.harmless(), None);
    let mut sent = Sent::post(message.body, message.headers);
    for (name, value) in set {
        sent.headers.set.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        sent.headers.set.push(((*name).to_owned(), (*value).to_owned()));
    }
    sent.headers.omit.extend_from_slice(omit);
    (id, sent)
}

//! The catalogue: every check the probe makes, one row each in one table.
//! A row names the check, the rule of RULES.md (section 9) it is tied to,
//! the transports and revisions it applies to, and the function that runs
//! it: what it sends, what the rules want back, and how what came back is
//! judged. The functions are grouped by what they ask, one module a group.

mod answering;
mod batches;
mod envelope;
mod headers;
mod ids;
mod json;
mod listen;
mod meta;
mod origin;
mod process;
mod refusals;
mod removed;
mod results;
mod size;
mod transport;

use std::future::Future;
use std::pin::Pin;

use mcp_envelope::Revision;
use serde_json::json;

use super::subject::{Sent, Subject};
use mcp_envelope_grade::{self as verdict, Answer, Outcome, Verdict, Want};

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
fn streamable(revision: Revision) -> bool {
    revision.has_streamable_http()
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
    // DNS rebinding, on a server on this machine.
    check!("origin-foreign", "origin-validated", Http, streamable, origin::foreign_origin),
    check!("origin-and-host-foreign", "origin-validated", Http, streamable, origin::foreign_host_and_origin),
    // 2026-07-28: each request's _meta, and the methods it removed.
    check!("meta-missing", "request-meta", Both, modern, meta::meta_missing),
    check!("meta-protocol-version-missing", "request-meta", Both, modern, meta::protocol_version_missing),
    check!("meta-client-capabilities-missing", "request-meta", Both, modern, meta::client_capabilities_missing),
    check!("meta-client-info-optional", "request-meta", Both, modern, meta::client_info_optional),
    check!("removed-initialize", "removed-method", Http, modern, removed::initialize),
    check!("removed-ping", "removed-method", Both, modern, removed::ping),
    check!("removed-logging-set-level", "removed-method", Both, modern, removed::logging_set_level),
    check!("removed-resources-subscribe", "removed-method", Both, modern, removed::resources_subscribe),
    check!("removed-resources-unsubscribe", "removed-method", Both, modern, removed::resources_unsubscribe),
    // 2026-07-28 over HTTP: SEP-2243's headers.
    check!("mcp-method-mismatch", "header-mismatch", Http, modern, headers::mcp_method_mismatch),
    check!("mcp-name-mismatch", "header-mismatch", Http, modern, headers::mcp_name_mismatch),
    check!("protocol-version-mismatch", "header-mismatch", Http, modern, headers::version_mismatch),
    check!("mcp-method-case", "header-mismatch", Http, modern, headers::mcp_method_case),
    check!("mcp-method-missing", "header-mismatch", Http, modern, headers::mcp_method_missing),
    check!("mcp-name-missing", "header-mismatch", Http, modern, headers::mcp_name_missing),
    check!("header-name-case", "header-syntax", Http, modern, headers::header_name_case),
    check!("header-value-whitespace", "header-syntax", Http, modern, headers::header_value_whitespace),
    // 2026-07-28 over HTTP: the refusal half, and no sessions.
    check!("unsupported-version-32022", "unsupported-version", Http, modern, refusals::unsupported_version),
    check!("get-refused", "no-get-or-delete", Http, modern, refusals::get_refused),
    check!("delete-refused", "no-get-or-delete", Http, modern, refusals::delete_refused),
    check!("no-session-id", "no-session", Http, modern, refusals::no_session_id),
    // 2026-07-28: what results carry, and subscriptions.
    check!("discover-result", "discover-result", Both, modern, results::discover_result),
    check!("discover-server-info", "discover-server-info", Both, modern, results::discover_server_info),
    check!("discover-capabilities", "capabilities-declared", Both, modern, results::discover_capabilities),
    check!("tools-list-caching", "caching-hints", Both, modern, results::tools_list_caching),
    check!("prompts-list-caching", "caching-hints", Both, modern, results::prompts_list_caching),
    check!("resources-list-caching", "caching-hints", Both, modern, results::resources_list_caching),
    check!("resource-templates-list-caching", "caching-hints", Both, modern, results::resource_templates_list_caching),
    check!("resource-read-caching", "caching-hints", Both, modern, results::resource_read_caching),
    check!("listen-acknowledged-first", "listen-stream", Both, modern, listen::acknowledged_first),
    check!("listen-subscription-id", "listen-stream", Both, modern, listen::subscription_id),
    check!("result-type", "result-type", Both, modern, results::result_type),
    // The end: a session deleted, the input closed.
    check!("session-deleted", "session", Http, sessions, transport::session_deleted),
    check!("stdout-only-messages", "stdio-stdout", Stdio, every, process::stdout_only),
    check!("end-of-input", "stdio-end-of-input", Stdio, every, process::end_of_input),
];

/// Judges an answer that should be the error `want`, and over HTTP carry
/// `status` (2026-07-28's refusals each name theirs); a failure to answer
/// at all fails.
pub(super) fn refusal(
    outcome: Outcome,
    answer: &Answer,
    want: &Want,
    revision: Revision,
    status: Option<u16>,
) -> Outcome {
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    let mut outcome = outcome;
    if let Some(status) = status
        && answer.status != Some(status)
    {
        let why = match answer.status {
            Some(got) if (200..300).contains(&got) => format!("{got}: taken, where {status} is due"),
            got => format!("{}, not {status}", got.unwrap_or_default()),
        };
        outcome = outcome.judge(Verdict::Fail, why);
    }
    let found = verdict::error(outcome.clone(), answer, want, revision, false);
    outcome.judge(found.verdict, found.why.unwrap_or_default())
}

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

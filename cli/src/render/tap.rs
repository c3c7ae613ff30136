//! What `tap` logs: one JSON line per message (`check --format json`'s
//! members after the message's context), per event without a message, per
//! rule an exchange broke, and per note on what happened outside the rules.

use mcp_envelope::transport::exchange::{Finding, Place};
use mcp_envelope::{Severity, write};

use super::{Checked, Context, Eventless, json, message};
use crate::summary::IdValue;

/// What the stdio tap found of a line beyond its verdict.
#[derive(Clone, Copy, Default)]
pub struct LineNotes<'a> {
    /// What the id rules found (a reused request id, a response to an id
    /// not in flight).
    pub id_rule: &'a [String],
    /// For a line too large to hold: the kind and id its head and tail
    /// showed.
    pub glimpse: Option<&'a Glimpsed>,
    /// Why the line ended before its newline.
    pub cut: Option<&'static str>,
}

/// What the head and tail of a line too large to hold showed.
#[derive(Debug, Default)]
pub struct Glimpsed {
    pub kind: Option<&'static str>,
    pub id: Option<IdValue>,
}

/// The log line of one message: its context, its verdict, and for the
/// stdio tap what [`LineNotes`] adds.
pub fn message_line(context: &Context<'_>, checked: &Checked<'_>, notes: &LineNotes<'_>) -> Vec<u8> {
    json::line(|o| {
        context.write(o);
        message::write(o, checked);
        if !notes.id_rule.is_empty() {
            let mut found = o.array("id_rule");
            for finding in notes.id_rule {
                found.str(finding);
            }
            found.close();
            // Every id rule is a MUST or MUST NOT.
            o.str("id_severity", Severity::Violation.name());
        }
        if let Some(glimpse) = notes.glimpse {
            let mut seen = o.object("glimpse");
            seen.str_or_null("kind", glimpse.kind);
            seen.id("id", glimpse.id.as_ref());
            seen.close();
        }
        o.some_str("cut", notes.cut);
    })
}

/// The log line of an event without a message (`kind` as for
/// `check`'s); the event's line is the context's.
pub fn eventless_line(context: &Context<'_>, what: Eventless<'_>) -> Vec<u8> {
    super::eventless_line(context, what)
}

/// `tap --http`'s log line for one rule an exchange broke.
pub fn finding_line(exchange: u64, finding: &Finding) -> Vec<u8> {
    let (place, header, line, offset) = match finding.place {
        Place::RequestHeader(name) => ("request-header", Some(name), None, None),
        Place::ResponseHeader(name) => ("response-header", Some(name), None, None),
        Place::Status => ("status", None, None, None),
        Place::RequestBody(offset) => ("request-body", None, None, Some(offset as u64)),
        Place::Response { line, offset } => ("response", None, Some(line), Some(offset)),
        Place::End => ("end", None, None, None),
    };
    json::line(|o| {
        o.uint("exchange", exchange);
        o.str("finding", finding.rule.name());
        // `violation` (a MUST broken) or `warning` (a SHOULD).
        o.str("severity", finding.severity().name());
        o.str("side", finding.rule.side().name());
        o.str("place", place);
        o.some_str("header", header);
        if let Some(line) = line {
            o.uint("line", line);
        }
        if let Some(offset) = offset {
            o.uint("offset", offset);
        }
        o.str("message", finding.rule.message());
        // The error the server answers with (HTTP 400), for the header
        // faults of 2026-07-28, as the library writes it.
        if let Some(error) = finding.reply() {
            let mut reply = Vec::new();
            if write::error_for(&mut reply, error) {
                o.raw("reply", &String::from_utf8_lossy(&reply));
            }
        }
    })
}

/// `tap --http`'s log line for what happened to an exchange outside the
/// rules: `note` is a stable name (`upstream-unreachable`,
/// `upstream-failed`, `client-gone`, `request-failed`, `off-endpoint`),
/// `detail` the error.
pub fn note_line(exchange: u64, http_method: &str, note: &'static str, detail: Option<&str>) -> Vec<u8> {
    json::line(|o| {
        o.uint("exchange", exchange);
        o.str("http_method", http_method);
        o.str("note", note);
        o.some_str("detail", detail);
    })
}

/// The body of a refusal the tap writes itself: a JSON-RPC error with no
/// id (it answers no message it read), and a newline.
pub fn refusal_body(code: i64, message: &str) -> Vec<u8> {
    json::line(|o| {
        o.str("jsonrpc", "2.0");
        let mut error = o.object_named("error");
        error.int("code", code);
        error.str("message", message);
        error.close();
    })
}

/// What the stdio tap notes outside the messages, logged with its stable
/// name as `note` and then its fields.
pub enum StdioNote<'s> {
    /// `direction` stopped relaying before its input ended
    /// (`relay-stopped`).
    RelayStopped { direction: &'static str, detail: &'s str },
    /// The server's end: its exit code, or the signal that ended it
    /// (`server-exited`).
    ServerExited { code: Option<i32>, signal: Option<&'s str> },
    /// The requests `direction` sent that were never answered, and why
    /// the list may be too long (`never-answered`).
    NeverAnswered { direction: &'static str, ids: &'s [IdValue], detail: Option<&'s str> },
}

/// `tap`'s log line for a [`StdioNote`].
pub fn stdio_note_line(note: &StdioNote<'_>) -> Vec<u8> {
    json::line(|o| match note {
        StdioNote::RelayStopped { direction, detail } => {
            o.str("note", "relay-stopped");
            o.str("direction", direction);
            o.str("detail", detail);
        }
        StdioNote::ServerExited { code, signal } => {
            o.str("note", "server-exited");
            if let Some(code) = code {
                o.int("code", i64::from(*code));
            }
            o.some_str("signal", *signal);
        }
        StdioNote::NeverAnswered { direction, ids, detail } => {
            o.str("note", "never-answered");
            o.str("direction", direction);
            let mut list = o.array("ids");
            for id in *ids {
                list.id(Some(id));
            }
            list.close();
            o.some_str("detail", *detail);
        }
    })
}

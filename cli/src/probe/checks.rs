//! The catalogue: every check the probe makes, in one table. Each names
//! the rule of RULES.md (section 9) it is tied to, the transports and
//! revisions it applies to, and how it runs: what it sends, what the
//! rules want back, and how what came back is judged.

use std::future::Future;
use std::pin::Pin;

use bytes::Bytes;
use hyper::Method;
use mcp_envelope::{Id, Message, Revision};
use mcp_envelope_grade::Read;
use serde_json::{Value, json};

use super::http;
use super::session::{Sent, Session};
use mcp_envelope_grade::{self as verdict, Outcome, Verdict, Want};

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
    pub run: for<'s> fn(&'s mut Session) -> Run<'s>,
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

/// The catalogue, in the order the checks run. The ones that end a
/// session come last.
pub const CHECKS: &[Check] = &[
    // Parse errors: -32700 with a null id.
    Check {
        name: "parse-error-bad-json",
        rule: "parse-error",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(parse_error(s, br#"{"jsonrpc": "2.0", "id": 1, "method": ping}"#)),
    },
    Check {
        name: "parse-error-truncated",
        rule: "parse-error",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(parse_error(s, br#"{"jsonrpc":"2.0","id":1,"method":"ping""#)),
    },
    Check {
        name: "parse-error-invalid-utf8",
        rule: "parse-error",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(parse_error(s, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffng\"}")),
    },
    Check {
        name: "byte-order-mark",
        rule: "byte-order-mark",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(byte_order_mark(s)),
    },
    // Invalid requests: -32600, with the id where it could be read.
    Check {
        name: "not-an-object-number",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |_, _| "42".into(), false)),
    },
    Check {
        name: "not-an-object-string",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |_, _| "\"x\"".into(), false)),
    },
    Check {
        name: "jsonrpc-missing",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |id, m| format!(r#"{{"id":{id},"method":"{m}"}}"#), true)),
    },
    Check {
        name: "jsonrpc-1.0",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |id, m| format!(r#"{{"jsonrpc":"1.0","id":{id},"method":"{m}"}}"#), true)),
    },
    Check {
        name: "method-not-a-string",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |id, _| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":1}}"#), true)),
    },
    Check {
        name: "id-null",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |_, m| format!(r#"{{"jsonrpc":"2.0","id":null,"method":"{m}"}}"#), false)),
    },
    Check {
        name: "id-fractional",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |_, m| format!(r#"{{"jsonrpc":"2.0","id":1.5,"method":"{m}"}}"#), false)),
    },
    Check {
        name: "id-boolean",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |_, m| format!(r#"{{"jsonrpc":"2.0","id":true,"method":"{m}"}}"#), false)),
    },
    Check {
        name: "id-object",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(invalid(s, |_, m| format!(r#"{{"jsonrpc":"2.0","id":{{"a":1}},"method":"{m}"}}"#), false)),
    },
    Check {
        name: "params-a-string",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| {
            let body: fn(&str, &str) -> String =
                |id, m| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{m}","params":"x"}}"#);
            Box::pin(invalid_or(s, body, true, &[-32602]))
        },
    },
    Check {
        name: "result-and-error-together",
        rule: "invalid-request",
        over: Over::Both,
        when: every,
        run: |s| {
            Box::pin(invalid(
                s,
                |id, m| {
                    format!(
                        r#"{{"jsonrpc":"2.0","id":{id},"method":"{m}","result":{{}},"error":{{"code":1,"message":"x"}}}}"#
                    )
                },
                true,
            ))
        },
    },
    // Methods, and what gets no answer.
    Check {
        name: "unknown-method",
        rule: "method-not-found",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(unknown_method(s)),
    },
    Check {
        name: "notification-unanswered",
        rule: "notification-unanswered",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(notification(s)),
    },
    Check {
        name: "response-to-nothing-unanswered",
        rule: "response-unanswered",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(stray_response(s)),
    },
    // Batches, per revision.
    Check { name: "batch-answered", rule: "batch", over: Over::Both, when: batches, run: |s| Box::pin(batch(s)) },
    Check {
        name: "batch-refused",
        rule: "batch",
        over: Over::Both,
        when: no_batches,
        run: |s| Box::pin(batch_refused(s)),
    },
    Check { name: "batch-empty", rule: "batch", over: Over::Both, when: every, run: |s| Box::pin(batch_empty(s)) },
    // Ids.
    Check {
        name: "id-string-echoed",
        rule: "id-echoed",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(id_echoed(s, json!("7"))),
    },
    Check {
        name: "id-large-integer-exact",
        rule: "id-echoed",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(id_echoed(s, json!(9_007_199_254_740_993_i64))),
    },
    Check {
        name: "ids-in-flight-answered-once",
        rule: "id-echoed",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(in_flight(s)),
    },
    // Size.
    Check {
        name: "oversized-message",
        rule: "oversized",
        over: Over::Both,
        when: every,
        run: |s| Box::pin(oversized(s)),
    },
    // HTTP.
    Check {
        name: "content-type-not-json",
        rule: "http-content-type",
        over: Over::Http,
        when: every,
        run: |s| Box::pin(content_type(s)),
    },
    Check {
        name: "accept-without-event-stream",
        rule: "http-accept",
        over: Over::Http,
        when: every,
        run: |s| Box::pin(accept(s)),
    },
    Check { name: "method-not-allowed", rule: "http-method", over: Over::Http, when: every, run: |s| Box::pin(put(s)) },
    Check {
        name: "protocol-version-unsupported",
        rule: "protocol-version",
        over: Over::Http,
        when: version_header,
        run: |s| Box::pin(version_unsupported(s)),
    },
    Check {
        name: "protocol-version-absent",
        rule: "protocol-version",
        over: Over::Http,
        when: version_header,
        run: |s| Box::pin(version_absent(s)),
    },
    Check {
        name: "session-id-missing",
        rule: "session",
        over: Over::Http,
        when: sessions,
        run: |s| Box::pin(session_missing(s)),
    },
    Check {
        name: "session-id-unknown",
        rule: "session",
        over: Over::Http,
        when: sessions,
        run: |s| Box::pin(session_unknown(s)),
    },
    // 2026-07-28 over HTTP: the refusal half, and no sessions.
    Check {
        name: "mcp-method-mismatch",
        rule: "header-mismatch",
        over: Over::Http,
        when: modern,
        run: |s| Box::pin(mcp_method_mismatch(s)),
    },
    Check {
        name: "mcp-name-mismatch",
        rule: "header-mismatch",
        over: Over::Http,
        when: modern,
        run: |s| Box::pin(mcp_name_mismatch(s)),
    },
    Check {
        name: "protocol-version-mismatch",
        rule: "header-mismatch",
        over: Over::Http,
        when: modern,
        run: |s| Box::pin(version_mismatch(s)),
    },
    Check {
        name: "unsupported-version-32022",
        rule: "unsupported-version",
        over: Over::Http,
        when: modern,
        run: |s| Box::pin(unsupported_version(s)),
    },
    Check {
        name: "get-refused",
        rule: "no-get-or-delete",
        over: Over::Http,
        when: modern,
        run: |s| Box::pin(refused_method(s, Method::GET)),
    },
    Check {
        name: "delete-refused",
        rule: "no-get-or-delete",
        over: Over::Http,
        when: modern,
        run: |s| Box::pin(refused_method(s, Method::DELETE)),
    },
    Check {
        name: "no-session-id",
        rule: "no-session",
        over: Over::Http,
        when: modern,
        run: |s| Box::pin(no_session_id(s)),
    },
    Check {
        name: "result-type",
        rule: "result-type",
        over: Over::Both,
        when: modern,
        run: |s| Box::pin(result_type(s)),
    },
    // The end: a session deleted, the input closed.
    Check {
        name: "session-deleted",
        rule: "session",
        over: Over::Http,
        when: sessions,
        run: |s| Box::pin(session_deleted(s)),
    },
    Check {
        name: "stdout-only-messages",
        rule: "stdio-stdout",
        over: Over::Stdio,
        when: every,
        run: |s| Box::pin(stdout_only(s)),
    },
    Check {
        name: "end-of-input",
        rule: "stdio-end-of-input",
        over: Over::Stdio,
        when: every,
        run: |s| Box::pin(end_of_input(s)),
    },
];

/// A POST (or line) of raw bytes, with the revision's headers for a
/// request of `method` (the method it pretends to be, for SEP-2243).
fn raw(s: &Session, body: &[u8], method: &str) -> Sent {
    Sent::post(body.to_vec(), s.wire.headers(method, None))
}

async fn parse_error(s: &mut Session, body: &[u8]) -> Outcome {
    let sent = raw(s, body, s.wire.harmless());
    let http = s.is_http();
    let want = Want { code: -32700, id: None, also: &[], alike: &[] };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), want.describe(http), &answer);
    verdict::error(outcome, &answer, &want, s.revision(), http)
}

/// RFC 8259 lets a parser ignore a byte order mark: a -32700, or the
/// request answered as if it were not there.
async fn byte_order_mark(s: &mut Session) -> Outcome {
    let id = s.id();
    let mut body = b"\xef\xbb\xbf".to_vec();
    body.extend(s.wire.message(Some(json!(id)), s.wire.harmless(), None).body);
    let sent = raw(s, &body, s.wire.harmless());
    let http = s.is_http();
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), "error -32700 with id null, or the ping answered", &answer);
    let answered = verdict::results(&answer, &[Id::Int(id as i64)], s.revision()).is_empty();
    if answered {
        return outcome;
    }
    verdict::error(outcome, &answer, &Want { code: -32700, id: None, also: &[], alike: &[] }, s.revision(), http)
}

/// `body(id)`: a message that is no valid request; `readable`: its id
/// can be read, and the error carries it.
async fn invalid(s: &mut Session, body: fn(&str, &str) -> String, readable: bool) -> Outcome {
    invalid_or(s, body, readable, &[]).await
}

/// As [`invalid`], where `also` are codes that answer the fault loosely
/// (-32602 for `params` that is no structure: a warning).
async fn invalid_or(s: &mut Session, body: fn(&str, &str) -> String, readable: bool, also: &'static [i64]) -> Outcome {
    let id = s.id();
    let method = s.wire.harmless();
    let text = body(&id.to_string(), method);
    let sent = raw(s, text.as_bytes(), method);
    let http = s.is_http();
    let want = Want { code: -32600, id: readable.then_some(Id::Int(id as i64)), also, alike: &[] };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), want.describe(http), &answer);
    verdict::error(outcome, &answer, &want, s.revision(), http)
}

async fn unknown_method(s: &mut Session) -> Outcome {
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), "mcp-envelope/no-such-method", None);
    let sent = Sent::post(message.body, message.headers);
    let http = s.is_http();
    let modern = s.revision().mirrors_headers();
    let answer = s.provoke(sent.clone()).await;
    let expected = if http && modern { "error -32601 with the id, status 404" } else { "error -32601 with the id" };
    let mut outcome = Outcome::new(sent.describe(http), expected, &answer);
    let want = Want { code: -32601, id: Some(Id::Int(id as i64)), also: &[], alike: &[] };
    let found = verdict::error(outcome.clone(), &answer, &want, s.revision(), false);
    outcome = outcome.judge(found.verdict, found.why.unwrap_or_default());
    if http && modern && answer.status != Some(404) && answer.failure.is_none() {
        outcome = outcome.judge(Verdict::Fail, format!("status {}, not 404", answer.status.unwrap_or_default()));
    }
    outcome
}

async fn notification(s: &mut Session) -> Outcome {
    let message = s.wire.message(None, "notifications/mcp-envelope/probe", None);
    let sent = Sent::post(message.body, message.headers);
    let http = s.is_http();
    let answer = s.provoke(sent.clone()).await;
    let expected = if http { "202 Accepted with no body" } else { "no answer" };
    verdict::nothing(Outcome::new(sent.describe(http), expected, &answer), &answer, s.revision(), http)
}

async fn stray_response(s: &mut Session) -> Outcome {
    let body = br#"{"jsonrpc":"2.0","id":"mcp-envelope-never-sent","result":{}}"#;
    let sent = Sent::post(
        body.to_vec(),
        s.wire.headers("", None).into_iter().filter(|(n, _)| *n == "MCP-Protocol-Version").collect(),
    );
    let http = s.is_http();
    let answer = s.provoke(sent.clone()).await;
    let expected = if http { "202 Accepted with no body, or a refusal" } else { "no answer" };
    verdict::nothing(Outcome::new(sent.describe(http), expected, &answer), &answer, s.revision(), http)
}

async fn batch(s: &mut Session) -> Outcome {
    let (a, b) = (s.id(), s.id());
    let items = [
        s.wire.message(Some(json!(a)), s.wire.harmless(), None).body,
        s.wire.message(Some(json!(b)), s.wire.harmless(), None).body,
        s.wire.message(None, "notifications/mcp-envelope/probe", None).body,
    ];
    let body = [b"[".to_vec(), items.join(&b","[..]), b"]".to_vec()].concat();
    let sent = raw(s, &body, s.wire.harmless());
    let http = s.is_http();
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), "a result to each request, none to the notification", &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    let faults = verdict::results(&answer, &[Id::Int(a as i64), Id::Int(b as i64)], Revision::JsonRpc);
    match faults.first() {
        Some(fault) => outcome.judge(Verdict::Fail, fault.clone()),
        None => outcome,
    }
}

async fn batch_refused(s: &mut Session) -> Outcome {
    let id = s.id();
    let body = [b"[".to_vec(), s.wire.message(Some(json!(id)), s.wire.harmless(), None).body, b"]".to_vec()].concat();
    let sent = raw(s, &body, s.wire.harmless());
    let http = s.is_http();
    let want = Want { code: -32600, id: None, also: &[], alike: &[] };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), want.describe(http), &answer);
    // The revision removed batches; running one anyway is lenient, which
    // its text does not forbid (it binds the client).
    let processed = verdict::results(&answer, &[Id::Int(id as i64)], Revision::JsonRpc).is_empty();
    if processed {
        return outcome.judge(Verdict::Warn, "the batch was run, under a revision without batches");
    }
    verdict::error(outcome, &answer, &want, s.revision(), http)
}

async fn batch_empty(s: &mut Session) -> Outcome {
    let sent = raw(s, b"[]", s.wire.harmless());
    let http = s.is_http();
    let want = Want { code: -32600, id: None, also: &[], alike: &[] };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), want.describe(http), &answer);
    verdict::error(outcome, &answer, &want, s.revision(), http)
}

/// A ping with `id`, answered with exactly that id: a string as a string,
/// a large integer digit for digit.
async fn id_echoed(s: &mut Session, id: Value) -> Outcome {
    let message = s.wire.message(Some(id.clone()), s.wire.harmless(), None);
    let sent = Sent::post(message.body, message.headers);
    let http = s.is_http();
    let raw_id = id.to_string();
    let wanted = match &id {
        Value::String(text) => Id::Str(text.clone().into()),
        other => Id::Int(other.as_i64().unwrap_or_default()),
    };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), format!("a result with id {raw_id}, as sent"), &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    // The id's own text: `"7"` is not `7`, and 9007199254740993 is not
    // 9007199254740992 (a double rounds it so).
    let echoed = answer.messages.iter().any(|m| {
        let text = String::from_utf8_lossy(m);
        text.contains(&format!("\"id\":{raw_id}")) || text.contains(&format!("\"id\": {raw_id}"))
    });
    let faults = verdict::results(&answer, &[wanted], s.revision());
    // RFC 8259, 9: "An implementation may set limits on the range and
    // precision of numbers": refusing an id past 2^53 is allowed (a
    // warning); answering another is not.
    let reads = answer.read(s.revision());
    let refused =
        id.is_number() && !reads.is_empty() && reads.iter().all(|r| matches!(r, Read::Message(Message::Error(_))));
    match faults.first() {
        Some(_) if refused => {
            outcome.judge(Verdict::Warn, "an integer id past 2^53 refused (RFC 8259 lets a parser limit numbers)")
        }
        Some(fault) => outcome.judge(Verdict::Fail, fault.clone()),
        None if !echoed => outcome.judge(Verdict::Fail, format!("the id came back as other text than {raw_id}")),
        None => outcome,
    }
}

/// Two requests in flight at once (stdio: two lines; HTTP: two POSTs on
/// two connections), each answered once.
async fn in_flight(s: &mut Session) -> Outcome {
    let (a, b) = (s.id(), s.id());
    let first = s.wire.message(Some(json!(a)), s.wire.harmless(), None);
    let second = s.wire.message(Some(json!(b)), s.wire.harmless(), None);
    let ids = [Id::Int(a as i64), Id::Int(b as i64)];
    let http = s.is_http();
    let sent_text = format!("{} and {}", String::from_utf8_lossy(&first.body), String::from_utf8_lossy(&second.body));
    let answer = if http {
        let (one, two) =
            s.concurrently(Sent::post(first.body, first.headers), Sent::post(second.body, second.headers)).await;
        let mut both = one;
        both.messages.extend(two.messages);
        both.failure = both.failure.or(two.failure);
        both
    } else {
        let body = [first.body, second.body].join(&b"\n"[..]);
        s.provoke(Sent::post(body, Vec::new())).await
    };
    let outcome = Outcome::new(sent_text, "a result to each id, once", &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    match verdict::results(&answer, &ids, s.revision()).first() {
        Some(fault) => outcome.judge(Verdict::Fail, fault.clone()),
        None => outcome,
    }
}

/// The member of `params` the oversized message's padding fills.
const PADDING: &str = "mcp-envelope-padding";

/// `body`, whose `params` hold `PADDING` as an empty string, as the chunks
/// to send with `pad` as that string's text: the part up to its opening
/// quote, the padding (shared, never copied), the rest. `None` when the
/// member is not there.
fn padded(body: &[u8], pad: &Bytes) -> Option<Vec<Bytes>> {
    let marker = format!("\"{PADDING}\":\"");
    let at = body.windows(marker.len()).position(|w| w == marker.as_bytes())? + marker.len();
    let (head, tail) = body.split_at(at);
    tail.starts_with(b"\"").then(|| vec![Bytes::copy_from_slice(head), pad.clone(), Bytes::copy_from_slice(tail)])
}

/// A message of the user's size: answered, or refused cleanly, and the
/// server serves after it.
async fn oversized(s: &mut Session) -> Outcome {
    let id = s.id();
    // The message with an empty padding, split where the padding goes: the
    // padding itself (shared, never copied) goes between.
    let message = s.wire.message(Some(json!(id)), s.wire.harmless(), Some(json!({PADDING: ""})));
    let Some(body) = padded(&message.body, &s.pad) else {
        return Outcome::skip("the probe could not place its padding (a fault of the probe's)");
    };
    let size = message.body.len() + s.pad.len();
    let mut sent = Sent::post(Vec::new(), message.headers);
    sent.body = body;
    let http = s.is_http();
    let answer = s.provoke(sent).await;
    let outcome = Outcome::new(
        format!("a {} of {size} bytes", s.wire.harmless()),
        "an answer or a clean refusal, and still serving",
        &answer,
    );
    match &answer.failure {
        Some(failure) => outcome.judge(Verdict::Fail, failure.clone()),
        None if http && answer.status.is_some_and(|s| s >= 500) => {
            outcome.judge(Verdict::Warn, "a server error, where a refusal (413) is clean")
        }
        None => outcome,
    }
}

/// An HTTP request of the session's revision, its headers changed.
fn http_ping(s: &mut Session, set: &[(&str, &str)], omit: &[&'static str]) -> (u64, Sent) {
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

async fn content_type(s: &mut Session) -> Outcome {
    let (_, sent) = http_ping(s, &[("content-type", "text/plain")], &[]);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "415 Unsupported Media Type (or another refusal)", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(s)) if (200..300).contains(&s) => {
            outcome.judge(Verdict::Warn, "a body that is not application/json was taken")
        }
        _ => outcome,
    }
}

async fn accept(s: &mut Session) -> Outcome {
    let (_, sent) = http_ping(s, &[("accept", "application/json")], &[]);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "406 Not Acceptable, or an application/json answer", &answer);
    let events =
        answer.content_type.as_deref().is_some_and(|t| t.to_ascii_lowercase().starts_with("text/event-stream"));
    match &answer.failure {
        Some(failure) => outcome.judge(Verdict::Fail, failure.clone()),
        None if events => outcome.judge(Verdict::Warn, "an event stream, which the client did not accept"),
        None => outcome,
    }
}

async fn put(s: &mut Session) -> Outcome {
    let sent = Sent::empty(Method::PUT, http::Headers::default(), true);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "405 Method Not Allowed with Allow", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(405)) if answer.allow.is_none() => {
            outcome.judge(Verdict::Fail, "405 without Allow (RFC 9110 requires it)")
        }
        (None, Some(405)) => outcome,
        (None, Some(s)) if (200..300).contains(&s) => {
            outcome.judge(Verdict::Fail, format!("{s}: a method the endpoint does not serve, taken"))
        }
        (None, status) => outcome.judge(Verdict::Warn, format!("{}, not 405", status.unwrap_or_default())),
    }
}

async fn version_unsupported(s: &mut Session) -> Outcome {
    let (_, sent) = http_ping(s, &[("mcp-protocol-version", "1900-01-01")], &[]);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "400 Bad Request", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(400)) => outcome,
        (None, status) => outcome.judge(Verdict::Fail, format!("{}, not 400", status.unwrap_or_default())),
    }
}

/// Without the header, a server assumes 2025-03-26 (or, serving none
/// but newer clients, refuses): either way it answers.
async fn version_absent(s: &mut Session) -> Outcome {
    let (_, sent) = http_ping(s, &[], &["mcp-protocol-version"]);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "served (as 2025-03-26), or 400", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(s)) if (200..300).contains(&s) || s == 400 => outcome,
        (None, status) => {
            outcome.judge(Verdict::Warn, format!("{}, neither served nor 400", status.unwrap_or_default()))
        }
    }
}

async fn session_missing(s: &mut Session) -> Outcome {
    if !s.has_session() {
        return Outcome::skip("the server assigned no session");
    }
    let (_, sent) = http_ping(s, &[], &["mcp-session-id"]);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "400 Bad Request", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(400)) => outcome,
        (None, status) => outcome.judge(Verdict::Warn, format!("{}, not 400", status.unwrap_or_default())),
    }
}

async fn session_unknown(s: &mut Session) -> Outcome {
    if !s.has_session() {
        return Outcome::skip("the server assigned no session");
    }
    let (_, sent) = http_ping(s, &[("mcp-session-id", "mcp-envelope-no-such-session")], &[]);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "404 Not Found", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(404)) => outcome,
        (None, Some(s)) if (200..300).contains(&s) => {
            outcome.judge(Verdict::Fail, format!("{s}: a session that does not exist was served"))
        }
        (None, status) => outcome.judge(Verdict::Warn, format!("{}, not 404", status.unwrap_or_default())),
    }
}

async fn session_deleted(s: &mut Session) -> Outcome {
    if !s.has_session() {
        return Outcome::skip("the server assigned no session");
    }
    let delete = Sent::empty(Method::DELETE, http::Headers::default(), true);
    let ended = s.send_plain(delete).await;
    if ended.status == Some(405) {
        return Outcome::skip("the server does not let clients end sessions (405)");
    }
    let (_, sent) = http_ping(s, &[], &[]);
    let answer = s.send_plain(sent.clone()).await;
    let outcome = Outcome::new(format!("DELETE, then {}", sent.describe(true)), "404 Not Found", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(404)) => outcome,
        (None, status) => {
            outcome.judge(Verdict::Fail, format!("{} after the session ended", status.unwrap_or_default()))
        }
    }
}

/// A 2026-07-28 request whose header disagrees with its body: 400, -32020
/// with the id; a success is the confused-deputy hole. `mismatch` turns
/// the right headers into wrong ones.
async fn header_fault(s: &mut Session, method: &str, params: Option<Value>, mismatch: &[(&str, &str)]) -> Outcome {
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), method, params);
    let mut sent = Sent::post(message.body, message.headers);
    for (name, value) in mismatch {
        sent.headers.set.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        sent.headers.set.push(((*name).to_owned(), (*value).to_owned()));
    }
    let answer = s.provoke(sent.clone()).await;
    let mut outcome =
        Outcome::new(sent.describe(true), format!("400 with error -32020 and id {id}, the request not run"), &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    if answer.success() {
        return outcome.judge(Verdict::Fail, "taken: a gateway routes by the header while the server acts on the body");
    }
    if answer.status != Some(400) {
        outcome = outcome.judge(Verdict::Fail, format!("{}, not 400", answer.status.unwrap_or_default()));
    }
    let want = Want { code: -32020, id: Some(Id::Int(id as i64)), also: &[], alike: &[-32022] };
    let found = verdict::error(outcome.clone(), &answer, &want, s.revision(), false);
    outcome.judge(found.verdict, found.why.unwrap_or_default())
}

async fn mcp_method_mismatch(s: &mut Session) -> Outcome {
    header_fault(s, "tools/list", None, &[("Mcp-Method", "prompts/list")]).await
}

async fn mcp_name_mismatch(s: &mut Session) -> Outcome {
    header_fault(s, "prompts/get", Some(json!({"name": "mcp-envelope-a"})), &[("Mcp-Name", "mcp-envelope-b")]).await
}

/// The header says 2026-07-28 (so a server of both eras takes the
/// request as one of 2026-07-28), `_meta` another revision.
async fn version_mismatch(s: &mut Session) -> Outcome {
    let meta = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25"}});
    header_fault(s, "tools/list", Some(meta), &[]).await
}

async fn unsupported_version(s: &mut Session) -> Outcome {
    let id = s.id();
    let params = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {}}});
    let method = s.wire.harmless();
    let body = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .unwrap_or_default();
    let sent = Sent::post(body, vec![("MCP-Protocol-Version", "1900-01-01".into()), ("Mcp-Method", method.into())]);
    let answer = s.provoke(sent.clone()).await;
    let outcome =
        Outcome::new(sent.describe(true), "400 with error -32022, data.supported and data.requested", &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    if answer.status != Some(400) {
        return outcome.judge(Verdict::Fail, format!("{}, not 400", answer.status.unwrap_or_default()));
    }
    let data = answer.messages.iter().find_map(|m| {
        let v: Value = serde_json::from_slice(m).ok()?;
        (v.pointer("/error/code")? == -32022).then(|| v.pointer("/error/data").cloned().unwrap_or_default())
    });
    match data {
        None => outcome.judge(Verdict::Fail, "no error -32022"),
        Some(data) if !data.get("supported").is_some_and(Value::is_array) => {
            outcome.judge(Verdict::Fail, "no data.supported list")
        }
        Some(data) if data.get("requested").and_then(Value::as_str) != Some("1900-01-01") => {
            outcome.judge(Verdict::Fail, "data.requested is not the version asked for")
        }
        Some(_) => outcome,
    }
}

async fn refused_method(s: &mut Session, method: Method) -> Outcome {
    let set = vec![("MCP-Protocol-Version".into(), "2026-07-28".into()), ("accept".into(), "text/event-stream".into())];
    let sent = Sent::empty(method, http::Headers { set, omit: Vec::new() }, false);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "405 Method Not Allowed", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(405)) => outcome,
        (None, status) => outcome.judge(Verdict::Warn, format!("{}, not 405 (a SHOULD)", status.unwrap_or_default())),
    }
}

async fn no_session_id(s: &mut Session) -> Outcome {
    let (_, sent) = http_ping(s, &[], &[]);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "no Mcp-Session-Id", &answer);
    match (&answer.failure, &answer.session_id) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(id)) => outcome.judge(Verdict::Warn, format!("Mcp-Session-Id: {id}, which 2026-07-28 removed")),
        (None, None) => outcome,
    }
}

/// Every result the server sent under 2026-07-28 carries `resultType`.
async fn result_type(s: &mut Session) -> Outcome {
    if let Err(e) = s.alive().await {
        return Outcome::skip(format!("no result to read: {e}"));
    }
    let results = s.results.clone();
    let missing = results.iter().find(|r| {
        let v: Value = serde_json::from_slice(r).unwrap_or_default();
        v.pointer("/result/resultType").and_then(Value::as_str).is_none()
    });
    let got = missing.map_or_else(
        || format!("{} results, each with it", results.len()),
        |r| mcp_envelope_grade::clip(&String::from_utf8_lossy(r), 160),
    );
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "server/discover and ping".into(),
        expected: "resultType on every result".into(),
        got,
        why: None,
    };
    match missing {
        Some(_) => outcome.judge(Verdict::Fail, "a result without resultType"),
        None => outcome,
    }
}

async fn stdout_only(s: &mut Session) -> Outcome {
    let stray = s.stray();
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "the whole session".into(),
        expected: "nothing but messages on standard output, one a line".into(),
        got: if stray.is_empty() { "only messages".into() } else { stray.join(" | ") },
        why: None,
    };
    if stray.is_empty() { outcome } else { outcome.judge(Verdict::Fail, "lines that are no message") }
}

async fn end_of_input(s: &mut Session) -> Outcome {
    let closed = s.close().await;
    let got = match &closed {
        Ok(status) => status.to_string(),
        Err(e) => e.clone(),
    };
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "end of input".into(),
        expected: "the server exits, with status 0".into(),
        got,
        why: None,
    };
    match closed {
        Ok(status) if status.success() => outcome,
        Ok(status) => outcome.judge(Verdict::Warn, format!("it exited with {status}")),
        Err(e) => outcome.judge(Verdict::Warn, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::wire::Wire;

    #[test]
    fn the_oversized_message_is_the_harmless_request_with_the_padding_as_one_string() {
        let pad = Bytes::from(vec![b'a'; 1000]);
        for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
            let wire = Wire { revision };
            let message = wire.message(Some(json!(7)), wire.harmless(), Some(json!({PADDING: ""})));
            let whole = padded(&message.body, &pad).unwrap().concat();
            assert_eq!(whole.len(), message.body.len() + pad.len());
            let value: serde_json::Value = serde_json::from_slice(&whole).unwrap();
            assert_eq!(value["method"], wire.harmless());
            assert_eq!(value["params"][PADDING].as_str().map(str::len), Some(pad.len()));
        }
        assert!(padded(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#, &pad).is_none());
    }
}

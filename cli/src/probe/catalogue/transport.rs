//! The Streamable HTTP transport's own rules: the body's type, what the
//! client accepts, the methods the endpoint serves, the protocol version
//! header, and sessions where the revision has them.

use hyper::Method;
use mcp_envelope_grade::{Outcome, Verdict};

use super::http_ping;
use crate::probe::http::{self, Extent};
use crate::probe::subject::{Sent, Subject};

pub async fn content_type(s: &mut Subject) -> Outcome {
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

pub async fn accept(s: &mut Subject) -> Outcome {
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

pub async fn put(s: &mut Subject) -> Outcome {
    let sent = Sent::empty(Method::PUT, http::Headers::default(), Extent::Whole);
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

pub async fn version_unsupported(s: &mut Subject) -> Outcome {
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
pub async fn version_absent(s: &mut Subject) -> Outcome {
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

pub async fn session_missing(s: &mut Subject) -> Outcome {
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

pub async fn session_unknown(s: &mut Subject) -> Outcome {
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

pub async fn session_deleted(s: &mut Subject) -> Outcome {
    if !s.has_session() {
        return Outcome::skip("the server assigned no session");
    }
    let delete = Sent::empty(Method::DELETE, http::Headers::default(), Extent::Whole);
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

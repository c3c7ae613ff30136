//! What is answered and what is not: a method the server lacks, a
//! notification, a response to a request never sent.

use mcp_envelope::Id;
use mcp_envelope_grade::{self as verdict, Outcome, Verdict, Want};
use serde_json::json;

use crate::probe::subject::{Sent, Subject};

pub async fn unknown_method(s: &mut Subject) -> Outcome {
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), "mcp-envelope/no-such-method", None);
    let sent = Sent::post(message.body, message.headers);
    let http = s.is_http();
    let modern = s.revision().mirrors_headers();
    // The error is due with the id: waited for, however late it comes.
    let answer = s.provoke_awaiting(sent.clone(), &[Id::Int(id as i64)]).await;
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

pub async fn notification(s: &mut Subject) -> Outcome {
    let message = s.wire.message(None, "notifications/mcp-envelope/probe", None);
    let sent = Sent::post(message.body, message.headers);
    let http = s.is_http();
    let answer = s.provoke(sent.clone()).await;
    let expected = if http { "202 Accepted with no body" } else { "no answer" };
    verdict::nothing(Outcome::new(sent.describe(http), expected, &answer), &answer, s.revision(), http)
}

pub async fn stray_response(s: &mut Subject) -> Outcome {
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

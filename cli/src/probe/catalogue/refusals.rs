//! 2026-07-28's refusal half over HTTP: an unsupported version, no GET or
//! DELETE, no sessions.

use hyper::Method;
use mcp_envelope_grade::{Outcome, Verdict};
use serde_json::{Value, json};

use super::http_ping;
use crate::probe::http::{self, Extent};
use crate::probe::subject::{Sent, Subject};

pub async fn unsupported_version(s: &mut Subject) -> Outcome {
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

async fn refused_method(s: &mut Subject, method: Method) -> Outcome {
    let set = vec![("MCP-Protocol-Version".into(), "2026-07-28".into()), ("accept".into(), "text/event-stream".into())];
    let sent = Sent::empty(method, http::Headers { set, ..http::Headers::default() }, Extent::Head);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "405 Method Not Allowed", &answer);
    match (&answer.failure, answer.status) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(405)) => outcome,
        (None, status) => outcome.judge(Verdict::Warn, format!("{}, not 405 (a SHOULD)", status.unwrap_or_default())),
    }
}

pub async fn no_session_id(s: &mut Subject) -> Outcome {
    let (_, sent) = http_ping(s, &[], &[]);
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), "no Mcp-Subject-Id", &answer);
    match (&answer.failure, &answer.session_id) {
        (Some(failure), _) => outcome.judge(Verdict::Fail, failure.clone()),
        (None, Some(id)) => outcome.judge(Verdict::Warn, format!("Mcp-Subject-Id: {id}, which 2026-07-28 removed")),
        (None, None) => outcome,
    }
}

pub async fn get_refused(s: &mut Subject) -> Outcome {
    refused_method(s, Method::GET).await
}

pub async fn delete_refused(s: &mut Subject) -> Outcome {
    refused_method(s, Method::DELETE).await
}

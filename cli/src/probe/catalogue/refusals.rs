//! 2026-07-28's refusal half over HTTP: headers that disagree with the
//! body, an unsupported version, no GET or DELETE, no sessions; and
//! `resultType` on every result.

use hyper::Method;
use mcp_envelope::Id;
use mcp_envelope_grade::{self as verdict, Outcome, Verdict, Want};
use serde_json::{Value, json};

use super::http_ping;
use crate::probe::http;
use crate::probe::subject::{Sent, Subject};

/// A 2026-07-28 request whose header disagrees with its body: 400, -32020
/// with the id; a success is the confused-deputy hole. `mismatch` turns
/// the right headers into wrong ones.
async fn header_fault(s: &mut Subject, method: &str, params: Option<Value>, mismatch: &[(&str, &str)]) -> Outcome {
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

pub async fn mcp_method_mismatch(s: &mut Subject) -> Outcome {
    header_fault(s, "tools/list", None, &[("Mcp-Method", "prompts/list")]).await
}

pub async fn mcp_name_mismatch(s: &mut Subject) -> Outcome {
    header_fault(s, "prompts/get", Some(json!({"name": "mcp-envelope-a"})), &[("Mcp-Name", "mcp-envelope-b")]).await
}

/// The header says 2026-07-28 (so a server of both eras takes the
/// request as one of 2026-07-28), `_meta` another revision.
pub async fn version_mismatch(s: &mut Subject) -> Outcome {
    let meta = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25"}});
    header_fault(s, "tools/list", Some(meta), &[]).await
}

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
    let sent = Sent::empty(method, http::Headers { set, omit: Vec::new() }, false);
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

/// Every result the server sent under 2026-07-28 carries `resultType`.
pub async fn result_type(s: &mut Subject) -> Outcome {
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

pub async fn get_refused(s: &mut Subject) -> Outcome {
    refused_method(s, Method::GET).await
}

pub async fn delete_refused(s: &mut Subject) -> Outcome {
    refused_method(s, Method::DELETE).await
}

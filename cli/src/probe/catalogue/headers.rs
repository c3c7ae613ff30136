//! SEP-2243's standard headers over HTTP, 2026-07-28: `Mcp-Method` on
//! every request and `Mcp-Name` where one is due, each equal to the body's
//! value, and `MCP-Protocol-Version` equal to `_meta`'s; a header missing
//! or disagreeing is refused 400 with -32020 and the request's id, the
//! request not run. Header names match whatever their case, and a value's
//! surrounding whitespace is no part of it (RFC 9110, 5.5).

use mcp_envelope::Id;
use mcp_envelope_grade::{self as verdict, Outcome, Verdict, Want};
use serde_json::{Value, json};

use crate::probe::subject::{Sent, Subject, result_of};

/// A prompt no server has: `prompts/get` of it is read-only, and names
/// its `Mcp-Name`.
fn prompt() -> Value {
    json!({"name": "mcp-envelope-a"})
}

/// A 2026-07-28 request whose header disagrees with its body: 400, -32020
/// with the id; a success is the confused-deputy hole. `mismatch` turns
/// the right headers into wrong ones.
async fn header_fault(
    s: &mut Subject,
    method: &str,
    params: Option<Value>,
    mismatch: &[(&str, &str)],
    omit: &[&'static str],
) -> Outcome {
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), method, params);
    let mut sent = Sent::post(message.body, message.headers);
    for (name, value) in mismatch {
        sent.headers.set.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        sent.headers.set.push(((*name).to_owned(), (*value).to_owned()));
    }
    sent.headers.set.retain(|(n, _)| !omit.iter().any(|o| n.eq_ignore_ascii_case(o)));
    sent.headers.omit.extend_from_slice(omit);
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
    header_fault(s, "tools/list", None, &[("Mcp-Method", "prompts/list")], &[]).await
}

pub async fn mcp_name_mismatch(s: &mut Subject) -> Outcome {
    header_fault(s, "prompts/get", Some(prompt()), &[("Mcp-Name", "mcp-envelope-b")], &[]).await
}

/// The header says 2026-07-28 (so a server of both eras takes the
/// request as one of 2026-07-28), `_meta` another revision.
pub async fn version_mismatch(s: &mut Subject) -> Outcome {
    let meta = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25"}});
    header_fault(s, "tools/list", Some(meta), &[], &[]).await
}

/// The method's name in another case: "Header values (such as method
/// names) are case-sensitive", so `TOOLS/LIST` is not `tools/list`.
pub async fn mcp_method_case(s: &mut Subject) -> Outcome {
    header_fault(s, "tools/list", None, &[("Mcp-Method", "TOOLS/LIST")], &[]).await
}

pub async fn mcp_method_missing(s: &mut Subject) -> Outcome {
    header_fault(s, "tools/list", None, &[], &["mcp-method"]).await
}

pub async fn mcp_name_missing(s: &mut Subject) -> Outcome {
    header_fault(s, "prompts/get", Some(prompt()), &[], &["mcp-name"]).await
}

/// Names in title case (`Mcp-Method`, `Mcp-Protocol-Version`), where
/// every other request of the probe sends them in lower case: "Clients and
/// servers MUST use case-insensitive comparisons for header names".
pub async fn header_name_case(s: &mut Subject) -> Outcome {
    let (id, mut sent) = discover(s);
    sent.headers.title_case = true;
    served(s, id, sent, "header names in title case").await
}

/// `Mcp-Method` and `MCP-Protocol-Version` with spaces around their values.
pub async fn header_value_whitespace(s: &mut Subject) -> Outcome {
    let (id, mut sent) = discover(s);
    for (_, value) in &mut sent.headers.set {
        *value = format!("  {value}  ");
    }
    served(s, id, sent, "header values with surrounding spaces").await
}

/// `server/discover`, which every 2026-07-28 server answers with a result.
fn discover(s: &mut Subject) -> (u64, Sent) {
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), "server/discover", None);
    (id, Sent::post(message.body, message.headers))
}

/// A request that is well-formed whatever its headers' spelling: answered
/// with a result.
async fn served(s: &mut Subject, id: u64, sent: Sent, spelling: &str) -> Outcome {
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(true), format!("a result for id {id}"), &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    match result_of(&answer, &Id::Int(id as i64), s.revision()) {
        Some(_) => outcome,
        None => outcome.judge(Verdict::Fail, format!("{spelling} were not read as the same headers")),
    }
}

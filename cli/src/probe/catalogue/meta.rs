//! 2026-07-28's per-request `_meta` (basic, "_meta"): a request that lacks
//! it, or lacks the protocol version or the client's capabilities in it,
//! is malformed: -32602 with its id, and 400 over HTTP.

use mcp_envelope::Id;
use mcp_envelope_grade::{Outcome, Verdict, Want};
use serde_json::{Value, json};

use super::refusal;
use crate::probe::subject::{Sent, Subject, result_of};
use crate::probe::wire::CLIENT;

/// The request the checks leave unfinished: every 2026-07-28 server
/// implements it, and it changes nothing.
const METHOD: &str = "server/discover";

/// Codes a server of both eras may give, on stdio, a request with no
/// `_meta` at all, which it may read as a request of the earlier era sent
/// before `initialize` (basic/versioning: a dual-era server picks its era
/// from how the client opens): a warning, not a failure.
const EARLIER_ERA: &[i64] = &[-32600, -32601, -32603, -32000, -32001, -32002];

fn client_info() -> Value {
    json!({"name": CLIENT, "version": env!("CARGO_PKG_VERSION")})
}

pub async fn meta_missing(s: &mut Subject) -> Outcome {
    malformed(s, json!({}), true).await
}

pub async fn protocol_version_missing(s: &mut Subject) -> Outcome {
    let meta =
        json!({"io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": client_info()});
    malformed(s, json!({"_meta": meta}), true).await
}

pub async fn client_capabilities_missing(s: &mut Subject) -> Outcome {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": client_info()});
    malformed(s, json!({"_meta": meta}), false).await
}

/// `_meta` without the client's name and version, which the revision
/// leaves to the client ("Clients SHOULD include" it; "Required: No"):
/// served like any other request.
pub async fn client_info_optional(s: &mut Subject) -> Outcome {
    let id = s.id();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let body = json!({"jsonrpc": "2.0", "id": id, "method": METHOD, "params": {"_meta": meta}});
    let sent = Sent::post(serde_json::to_vec(&body).unwrap_or_default(), s.wire.headers(METHOD, None));
    let http = s.is_http();
    let answer = s.provoke_awaiting(sent.clone(), &[Id::Int(id as i64)]).await;
    let outcome = Outcome::new(sent.describe(http), format!("a result for id {id}"), &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    match result_of(&answer, &Id::Int(id as i64), s.revision()) {
        Some(_) => outcome,
        None => outcome.judge(Verdict::Fail, "refused for want of clientInfo, which the revision leaves optional"),
    }
}

/// `params` lack what 2026-07-28 requires of `_meta`; `versionless`: they
/// name no protocol version, where the header names one, so that
/// SEP-2243's -32020 (the header disagrees with the body) answers as well
/// as -32602: both rules apply, and the text gives neither precedence.
async fn malformed(s: &mut Subject, params: Value, versionless: bool) -> Outcome {
    let id = s.id();
    let body = json!({"jsonrpc": "2.0", "id": id, "method": METHOD, "params": params});
    let sent = Sent::post(serde_json::to_vec(&body).unwrap_or_default(), s.wire.headers(METHOD, None));
    let http = s.is_http();
    let whole = params.get("_meta").is_none();
    let want = Want {
        code: -32602,
        id: Some(Id::Int(id as i64)),
        also: if whole && !http { EARLIER_ERA } else { &[] },
        alike: if versionless && http { &[-32020] } else { &[] },
    };
    let answer = s.provoke_awaiting(sent.clone(), &[Id::Int(id as i64)]).await;
    let expected =
        if http { format!("400 with error -32602 and id {id}") } else { format!("error -32602 with id {id}") };
    let outcome = Outcome::new(sent.describe(http), expected, &answer);
    refusal(outcome, &answer, &want, s.revision(), http.then_some(400))
}

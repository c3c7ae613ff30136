//! The methods 2026-07-28 removed (changelog): `ping`, `logging/setLevel`,
//! `resources/subscribe`, `resources/unsubscribe`, and over HTTP
//! `initialize`: asked with the revision's `_meta`, each is a method the
//! server does not implement, -32601 with the id, and 404 over HTTP. Not
//! `initialize` on stdio: there it selects the earlier era for the whole
//! process (basic/versioning), which a server of both eras may honour.

use mcp_envelope::Id;
use mcp_envelope_grade::{Outcome, Want};
use serde_json::{Value, json};

use super::refusal;
use crate::probe::subject::{Sent, Subject};
use crate::probe::wire::CLIENT;

/// A resource no server has, for the subscription methods.
const NO_SUCH_RESOURCE: &str = "mcp-envelope://probe/no-such-resource";

pub async fn initialize(s: &mut Subject) -> Outcome {
    let client = json!({"name": CLIENT, "version": env!("CARGO_PKG_VERSION")});
    removed(s, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client})).await
}

pub async fn ping(s: &mut Subject) -> Outcome {
    removed(s, "ping", json!({})).await
}

pub async fn logging_set_level(s: &mut Subject) -> Outcome {
    removed(s, "logging/setLevel", json!({"level": "info"})).await
}

pub async fn resources_subscribe(s: &mut Subject) -> Outcome {
    removed(s, "resources/subscribe", json!({"uri": NO_SUCH_RESOURCE})).await
}

pub async fn resources_unsubscribe(s: &mut Subject) -> Outcome {
    removed(s, "resources/unsubscribe", json!({"uri": NO_SUCH_RESOURCE})).await
}

async fn removed(s: &mut Subject, method: &str, params: Value) -> Outcome {
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), method, Some(params));
    let sent = Sent::post(message.body, message.headers);
    let http = s.is_http();
    let want = Want { code: -32601, id: Some(Id::Int(id as i64)), also: &[], alike: &[] };
    let answer = s.provoke_awaiting(sent.clone(), &[Id::Int(id as i64)]).await;
    let expected =
        if http { format!("404 with error -32601 and id {id}") } else { format!("error -32601 with id {id}") };
    let outcome = Outcome::new(sent.describe(http), expected, &answer);
    refusal(outcome, &answer, &want, s.revision(), http.then_some(404))
}

//! Valid JSON that is no valid request: -32600, with the id where it
//! could be read.

use mcp_envelope::{Id, Message};
use mcp_envelope_grade::{self as verdict, Outcome, Read, Verdict, Want};
use serde_json::json;

use super::raw;
use crate::probe::subject::Subject;

pub async fn not_an_object_number(s: &mut Subject) -> Outcome {
    invalid(s, |_, _| "42".into(), false).await
}

pub async fn not_an_object_string(s: &mut Subject) -> Outcome {
    invalid(s, |_, _| "\"x\"".into(), false).await
}

pub async fn jsonrpc_missing(s: &mut Subject) -> Outcome {
    invalid(s, |id, m| format!(r#"{{"id":{id},"method":"{m}"}}"#), true).await
}

pub async fn jsonrpc_1_0(s: &mut Subject) -> Outcome {
    invalid(s, |id, m| format!(r#"{{"jsonrpc":"1.0","id":{id},"method":"{m}"}}"#), true).await
}

pub async fn method_not_a_string(s: &mut Subject) -> Outcome {
    invalid(s, |id, _| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":1}}"#), true).await
}

pub async fn id_null(s: &mut Subject) -> Outcome {
    invalid(s, |_, m| format!(r#"{{"jsonrpc":"2.0","id":null,"method":"{m}"}}"#), false).await
}

pub async fn id_fractional(s: &mut Subject) -> Outcome {
    invalid(s, |_, m| format!(r#"{{"jsonrpc":"2.0","id":1.5,"method":"{m}"}}"#), false).await
}

pub async fn id_boolean(s: &mut Subject) -> Outcome {
    invalid(s, |_, m| format!(r#"{{"jsonrpc":"2.0","id":true,"method":"{m}"}}"#), false).await
}

pub async fn id_object(s: &mut Subject) -> Outcome {
    invalid(s, |_, m| format!(r#"{{"jsonrpc":"2.0","id":{{"a":1}},"method":"{m}"}}"#), false).await
}

/// `params` that is no structure: -32600, or loosely -32602 (a warning).
pub async fn params_a_string(s: &mut Subject) -> Outcome {
    let body: fn(&str, &str) -> String =
        |id, m| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{m}","params":"x"}}"#);
    invalid_or(s, body, true, &[-32602]).await
}

/// A message that is a request (`method`, `id`) and an error response
/// (`id`, `error`) at once, with a `result` besides. This project reads it
/// strictly: -32600. The texts leave room for two other readings, each a
/// warning: the request it also is, answered (JSON-RPC lists a request's
/// members and forbids none; the schemas allow members they do not name),
/// or a response with `result` and `error`, which JSON-RPC forbids and
/// names no answer to, left unanswered (stdio) or accepted (HTTP 202).
pub async fn result_and_error_together(s: &mut Subject) -> Outcome {
    let id = s.id();
    let method = s.wire.harmless();
    // The harmless request as the revision wants it (its `_meta` under
    // 2026-07-28), so that read as the request it is answered.
    let request = s.wire.message(Some(json!(id)), method, None).body;
    let open = request.strip_suffix(b"}").unwrap_or(&request);
    let body = [open, br#","result":{},"error":{"code":1,"message":"x"}}"#].concat();
    let sent = raw(s, &body, method);
    let http = s.is_http();
    let want = Want { code: -32600, id: Some(Id::Int(id as i64)), also: &[], alike: &[] };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), want.describe(http), &answer);
    if answer.failure.is_none() {
        let served = verdict::results(&answer, &[Id::Int(id as i64)], s.revision()).is_empty();
        if served {
            return outcome.judge(Verdict::Warn, "taken as the request it also is, and answered");
        }
        let responded = answer.read(s.revision()).iter().any(|r| {
            matches!(r, Read::Message(Message::Result(_) | Message::Error(_)) | Read::Batch(_) | Read::Invalid(_))
        });
        let unanswered = !responded && (!http || answer.status == Some(202));
        if unanswered {
            return outcome.judge(Verdict::Warn, "taken as the response it also is, and not answered");
        }
    }
    verdict::error(outcome, &answer, &want, s.revision(), http)
}

/// `body(id)`: a message that is no valid request; `readable`: its id
/// can be read, and the error carries it.
async fn invalid(s: &mut Subject, body: fn(&str, &str) -> String, readable: bool) -> Outcome {
    invalid_or(s, body, readable, &[]).await
}

/// As [`invalid`], where `also` are codes that answer the fault loosely
/// (-32602 for `params` that is no structure: a warning).
async fn invalid_or(s: &mut Subject, body: fn(&str, &str) -> String, readable: bool, also: &'static [i64]) -> Outcome {
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

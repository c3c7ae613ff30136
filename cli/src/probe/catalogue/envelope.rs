//! Valid JSON that is no valid request: -32600, with the id where it
//! could be read.

use mcp_envelope::Id;
use mcp_envelope_grade::{self as verdict, Outcome, Want};

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

pub async fn result_and_error_together(s: &mut Subject) -> Outcome {
    invalid(
        s,
        |id, m| {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{m}","result":{{}},"error":{{"code":1,"message":"x"}}}}"#)
        },
        true,
    )
    .await
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

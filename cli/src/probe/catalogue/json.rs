//! Malformed JSON: a parse error answered -32700 with a null id, and a
//! byte order mark ignored or refused.

use mcp_envelope::Id;
use mcp_envelope_grade::{self as verdict, Outcome, Want};
use serde_json::json;

use super::raw;
use crate::probe::subject::Subject;

// Each with a fresh id: a server that reads the message after all (a
// lossy decoder) answers with it, and is seen to.
pub async fn bad_json(s: &mut Subject) -> Outcome {
    let id = s.id();
    parse_error(s, format!(r#"{{"jsonrpc": "2.0", "id": {id}, "method": ping}}"#).as_bytes()).await
}

pub async fn truncated(s: &mut Subject) -> Outcome {
    let id = s.id();
    parse_error(s, format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping""#).as_bytes()).await
}

pub async fn invalid_utf8(s: &mut Subject) -> Outcome {
    let id = s.id();
    let body = [format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"p"#).as_bytes(), b"\xffng\"}"].concat();
    parse_error(s, &body).await
}

async fn parse_error(s: &mut Subject, body: &[u8]) -> Outcome {
    let sent = raw(s, body, s.wire.harmless());
    let http = s.is_http();
    let want = Want { code: -32700, id: None, also: &[], alike: &[] };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), want.describe(http), &answer);
    verdict::error(outcome, &answer, &want, s.revision(), http)
}

/// RFC 8259 lets a parser ignore a byte order mark: a -32700, or the
/// request answered as if it were not there.
pub async fn byte_order_mark(s: &mut Subject) -> Outcome {
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

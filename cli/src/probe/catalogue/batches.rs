//! Batches: answered under 2025-03-26, refused under every other
//! revision, and an empty one refused under all.

use mcp_envelope::{Id, Revision};
use mcp_envelope_grade::{self as verdict, Outcome, Verdict, Want};
use serde_json::json;

use super::raw;
use crate::probe::subject::Subject;

pub async fn batch(s: &mut Subject) -> Outcome {
    let (a, b) = (s.id(), s.id());
    let items = [
        s.wire.message(Some(json!(a)), s.wire.harmless(), None).body,
        s.wire.message(Some(json!(b)), s.wire.harmless(), None).body,
        s.wire.message(None, "notifications/mcp-envelope/probe", None).body,
    ];
    let body = [b"[".to_vec(), items.join(&b","[..]), b"]".to_vec()].concat();
    let sent = raw(s, &body, s.wire.harmless());
    let http = s.is_http();
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), "a result to each request, none to the notification", &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    let faults = verdict::results(&answer, &[Id::Int(a as i64), Id::Int(b as i64)], Revision::JsonRpc);
    match faults.first() {
        Some(fault) => outcome.judge(Verdict::Fail, fault.clone()),
        None => outcome,
    }
}

pub async fn batch_refused(s: &mut Subject) -> Outcome {
    let id = s.id();
    let body = [b"[".to_vec(), s.wire.message(Some(json!(id)), s.wire.harmless(), None).body, b"]".to_vec()].concat();
    let sent = raw(s, &body, s.wire.harmless());
    let http = s.is_http();
    let want = Want { code: -32600, id: None, also: &[], alike: &[] };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), want.describe(http), &answer);
    // The revision removed batches; running one anyway is lenient, which
    // its text does not forbid (it binds the client).
    let processed = verdict::results(&answer, &[Id::Int(id as i64)], Revision::JsonRpc).is_empty();
    if processed {
        return outcome.judge(Verdict::Warn, "the batch was run, under a revision without batches");
    }
    verdict::error(outcome, &answer, &want, s.revision(), http)
}

pub async fn batch_empty(s: &mut Subject) -> Outcome {
    let sent = raw(s, b"[]", s.wire.harmless());
    let http = s.is_http();
    let want = Want { code: -32600, id: None, also: &[], alike: &[] };
    let answer = s.provoke(sent.clone()).await;
    let outcome = Outcome::new(sent.describe(http), want.describe(http), &answer);
    verdict::error(outcome, &answer, &want, s.revision(), http)
}

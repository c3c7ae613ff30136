//! Ids echoed as sent: a string as a string, a large integer digit for
//! digit, and two requests in flight each answered once.

use mcp_envelope::{Id, Message};
use mcp_envelope_grade::{self as verdict, Outcome, Read, Verdict};
use serde_json::{Value, json};

use crate::probe::subject::{Sent, Subject};

pub async fn id_string_echoed(s: &mut Subject) -> Outcome {
    id_echoed(s, json!("7")).await
}

pub async fn id_large_integer_exact(s: &mut Subject) -> Outcome {
    id_echoed(s, json!(9_007_199_254_740_993_i64)).await
}

/// A ping with `id`, answered with exactly that id: a string as a string,
/// a large integer digit for digit.
async fn id_echoed(s: &mut Subject, id: Value) -> Outcome {
    let message = s.wire.message(Some(id.clone()), s.wire.harmless(), None);
    let sent = Sent::post(message.body, message.headers);
    let http = s.is_http();
    let raw_id = id.to_string();
    let wanted = match &id {
        Value::String(text) => Id::Str(text.clone().into()),
        other => Id::Int(other.as_i64().unwrap_or_default()),
    };
    let answer = s.provoke_awaiting(sent.clone(), std::slice::from_ref(&wanted)).await;
    let outcome = Outcome::new(sent.describe(http), format!("a result with id {raw_id}, as sent"), &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    // The id's own text: `"7"` is not `7`, and 9007199254740993 is not
    // 9007199254740992 (a double rounds it so).
    let echoed = answer.messages.iter().any(|m| {
        let text = String::from_utf8_lossy(m);
        text.contains(&format!("\"id\":{raw_id}")) || text.contains(&format!("\"id\": {raw_id}"))
    });
    let faults = verdict::results(&answer, &[wanted], s.revision());
    // RFC 8259, 9: "An implementation may set limits on the range and
    // precision of numbers": refusing an id past 2^53 is allowed (a
    // warning); answering another is not.
    let reads = answer.read(s.revision());
    let refused =
        id.is_number() && !reads.is_empty() && reads.iter().all(|r| matches!(r, Read::Message(Message::Error(_))));
    match faults.first() {
        Some(_) if refused => {
            outcome.judge(Verdict::Warn, "an integer id past 2^53 refused (RFC 8259 lets a parser limit numbers)")
        }
        Some(fault) => outcome.judge(Verdict::Fail, fault.clone()),
        None if !echoed => outcome.judge(Verdict::Fail, format!("the id came back as other text than {raw_id}")),
        None => outcome,
    }
}

/// Two requests in flight at once (stdio: two lines; HTTP: two POSTs on
/// two connections), each answered once.
pub async fn in_flight(s: &mut Subject) -> Outcome {
    let (a, b) = (s.id(), s.id());
    let first = s.wire.message(Some(json!(a)), s.wire.harmless(), None);
    let second = s.wire.message(Some(json!(b)), s.wire.harmless(), None);
    let ids = [Id::Int(a as i64), Id::Int(b as i64)];
    let http = s.is_http();
    let sent_text = format!("{} and {}", String::from_utf8_lossy(&first.body), String::from_utf8_lossy(&second.body));
    let answer = if http {
        let (one, two) =
            s.concurrently(Sent::post(first.body, first.headers), Sent::post(second.body, second.headers)).await;
        let mut both = one;
        both.messages.extend(two.messages);
        both.failure = both.failure.or(two.failure);
        both
    } else {
        let body = [first.body, second.body].join(&b"\n"[..]);
        s.provoke_awaiting(Sent::post(body, Vec::new()), &ids).await
    };
    let outcome = Outcome::new(sent_text, "a result to each id, once", &answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    match verdict::results(&answer, &ids, s.revision()).first() {
        Some(fault) => outcome.judge(Verdict::Fail, fault.clone()),
        None => outcome,
    }
}

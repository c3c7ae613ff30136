//! `subscriptions/listen` (basic/patterns/subscriptions, 2026-07-28): the
//! server "MUST send notifications/subscriptions/acknowledged as the first
//! message carrying the subscription's ID in _meta", and every
//! notification on the stream carries that id, which "is the JSON-RPC ID
//! of the subscriptions/listen request". The stream is opened for one
//! list the server declared it announces changes of, read to its first
//! message and closed (over stdio, cancelled).

use mcp_envelope::{Id, Message};
use mcp_envelope_grade::{Outcome, Read, Verdict};
use serde_json::{Value, json};

use crate::probe::subject::Subject;

const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// The first message that opens the stream is the acknowledgement.
pub async fn acknowledged_first(s: &mut Subject) -> Outcome {
    let (id, outcome, opening) = match open(s).await {
        Ok(opened) => opened,
        Err(declined) => return Outcome::skip(declined),
    };
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(judged) => return judged,
    };
    match opening {
        Some(Opening::Notification(method, _)) if method == ACKNOWLEDGED => outcome,
        Some(Opening::Notification(method, _)) => {
            outcome.judge(Verdict::Fail, format!("{method} came before the acknowledgement"))
        }
        Some(Opening::Answer) => {
            outcome.judge(Verdict::Fail, format!("the request {id} was answered, not acknowledged"))
        }
        None => outcome.judge(Verdict::Fail, "no acknowledgement came"),
    }
}

/// The acknowledgement carries the subscription's id: the request's.
pub async fn subscription_id(s: &mut Subject) -> Outcome {
    let (id, outcome, opening) = match open(s).await {
        Ok(opened) => opened,
        Err(declined) => return Outcome::skip(declined),
    };
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(judged) => return judged,
    };
    match opening {
        Some(Opening::Notification(_, tag)) if tag == Some(json!(id)) => outcome,
        Some(Opening::Notification(method, Some(tag))) => {
            outcome.judge(Verdict::Fail, format!("{method} carries subscription id {tag}, not {id}"))
        }
        Some(Opening::Notification(method, None)) => {
            outcome.judge(Verdict::Fail, format!("{method} carries no io.modelcontextprotocol/subscriptionId"))
        }
        Some(Opening::Answer) | None => Outcome::skip("no notification came to read its subscription id"),
    }
}

/// What opened the stream.
enum Opening {
    /// A notification: its method, and the subscription id in its `_meta`.
    Notification(String, Option<Value>),
    /// The request's own answer.
    Answer,
}

/// What opening a stream gave: the request's id, the outcome so far (or
/// the judged one, when the server refused in a way that decides), and
/// what opened it.
type Opened = (u64, Result<Outcome, Outcome>, Option<Opening>);

/// Opens a stream. `Err`: why there is nothing to judge, a server that
/// declares nothing it would announce and refuses the request (the
/// revision obliges no server to offer subscriptions; one with nothing to
/// send may say no: method not found, or a limit of none).
async fn open(s: &mut Subject) -> Result<Opened, String> {
    let announced = ["tools", "prompts", "resources"].into_iter().find(|c| s.declares(&format!("{c}/listChanged")));
    let filter = match announced {
        Some("prompts") => json!({"promptsListChanged": true}),
        Some("resources") => json!({"resourcesListChanged": true}),
        _ => json!({"toolsListChanged": true}),
    };
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), "subscriptions/listen", Some(json!({"notifications": filter})));
    let answer = s.listen(&message, &Id::Int(id as i64)).await;
    let sent = String::from_utf8_lossy(&message.body).into_owned();
    let outcome = Outcome::new(sent, format!("{ACKNOWLEDGED} first, with subscription id {id}"), &answer);
    if let Some(failure) = &answer.failure {
        return Ok((id, Err(outcome.judge(Verdict::Fail, failure.clone())), None));
    }
    // Over HTTP the stream is the subscription's own; over stdio the
    // server's other notifications share the line, and only the
    // acknowledgement, or one tagged with this subscription, opens it.
    let http = s.is_http();
    let mut opening = None;
    for (read, bytes) in answer.read(s.revision()).iter().zip(&answer.messages) {
        match read {
            Read::Message(Message::Notification(n)) => {
                let value: Value = serde_json::from_slice(bytes).unwrap_or_default();
                let tag = value.pointer("/params/_meta/io.modelcontextprotocol~1subscriptionId").cloned();
                if http || n.method == ACKNOWLEDGED || tag == Some(json!(id)) {
                    opening = Some(Opening::Notification(n.method.to_string(), tag));
                    break;
                }
            }
            Read::Message(Message::Error(e)) if e.id == Some(Id::Int(id as i64)) => {
                let offered = announced.is_some() || s.declares("resources/subscribe");
                let refused = format!("refused with {} ({})", e.error.code, e.error.message);
                if !offered {
                    return Err(format!(
                        "subscriptions/listen {refused}, and the server declares nothing it would announce"
                    ));
                }
                return Ok((id, Err(outcome.judge(Verdict::Fail, refused)), None));
            }
            Read::Message(Message::Result(r)) if r.id == Id::Int(id as i64) => {
                opening = Some(Opening::Answer);
                break;
            }
            _ => {}
        }
    }
    Ok((id, Ok(outcome), opening))
}

//! A message of the size the user chose: answered or refused cleanly,
//! and the server still serving after it.

use bytes::Bytes;
use mcp_envelope_grade::{Outcome, Verdict};
use serde_json::json;

use crate::probe::subject::{Sent, Subject};

/// The member of `params` the oversized message's padding fills.
const PADDING: &str = "mcp-envelope-padding";

/// `body`, whose `params` hold `PADDING` as an empty string, as the chunks
/// to send with `pad` as that string's text: the part up to its opening
/// quote, the padding (shared, never copied), the rest. `None` when the
/// member is not there.
fn padded(body: &[u8], pad: &Bytes) -> Option<Vec<Bytes>> {
    let marker = format!("\"{PADDING}\":\"");
    let at = body.windows(marker.len()).position(|w| w == marker.as_bytes())? + marker.len();
    let (head, tail) = body.split_at(at);
    tail.starts_with(b"\"").then(|| vec![Bytes::copy_from_slice(head), pad.clone(), Bytes::copy_from_slice(tail)])
}

/// A message of the user's size: answered, or refused cleanly, and the
/// server serves after it.
pub async fn oversized(s: &mut Subject) -> Outcome {
    let id = s.id();
    // The message with an empty padding, split where the padding goes: the
    // padding itself (shared, never copied) goes between.
    let message = s.wire.message(Some(json!(id)), s.wire.harmless(), Some(json!({PADDING: ""})));
    let Some(body) = padded(&message.body, &s.pad) else {
        return Outcome::skip("the probe could not place its padding (a fault of the probe's)");
    };
    let size = message.body.len() + s.pad.len();
    let mut sent = Sent::post(Vec::new(), message.headers);
    sent.body = body;
    let http = s.is_http();
    let answer = s.provoke(sent).await;
    let outcome = Outcome::new(
        format!("a {} of {size} bytes", s.wire.harmless()),
        "an answer or a clean refusal, and still serving",
        &answer,
    );
    match &answer.failure {
        Some(failure) => outcome.judge(Verdict::Fail, failure.clone()),
        None if http && answer.status.is_some_and(|s| s >= 500) => {
            outcome.judge(Verdict::Warn, "a server error, where a refusal (413) is clean")
        }
        None => outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::wire::Wire;
    use mcp_envelope::Revision;

    #[test]
    fn the_oversized_message_is_the_harmless_request_with_the_padding_as_one_string() {
        let pad = Bytes::from(vec![b'a'; 1000]);
        for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
            let wire = Wire { revision };
            let message = wire.message(Some(json!(7)), wire.harmless(), Some(json!({PADDING: ""})));
            let whole = padded(&message.body, &pad).unwrap().concat();
            assert_eq!(whole.len(), message.body.len() + pad.len());
            let value: serde_json::Value = serde_json::from_slice(&whole).unwrap();
            assert_eq!(value["method"], wire.harmless());
            assert_eq!(value["params"][PADDING].as_str().map(str::len), Some(pad.len()));
        }
        assert!(padded(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#, &pad).is_none());
    }
}

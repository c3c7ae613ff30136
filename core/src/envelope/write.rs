//! Canonical envelopes, written into a `Vec<u8>`.
//!
//! Members in a fixed order (`jsonrpc`, `id`, then `method`/`params`,
//! `result` or `error`), no whitespace, payloads copied verbatim. Parsing
//! what these functions write gives back the same message.

use alloc::vec::Vec;

use crate::envelope::{Error, Reply};
use crate::envelope::{ErrorObject, Id, Message, RawJson};
use crate::span;

const JSONRPC: &[u8] = br#"{"jsonrpc":"2.0""#;

/// Writes `s` as a JSON string: quotes, `\"`, `\\`, and control characters
/// escaped; everything else as it is.
pub fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => br#"\""#,
            b'\\' => br"\\",
            b'\n' => br"\n",
            b'\r' => br"\r",
            b'\t' => br"\t",
            0x08 => br"\b",
            0x0C => br"\f",
            0x00..=0x1F => b"",
            _ => continue,
        };
        out.extend_from_slice(span::within(bytes, run..i));
        if escape.is_empty() {
            // A control character without a short form: \u00XX.
            let hex = |nibble: u8| if nibble < 10 { b'0' + nibble } else { b'a' + nibble - 10 };
            out.extend_from_slice(br"\u00");
            out.push(hex(b >> 4));
            out.push(hex(b & 0xF));
        } else {
            out.extend_from_slice(escape);
        }
        run = i + 1;
    }
    out.extend_from_slice(span::from(bytes, run));
    out.push(b'"');
}

/// Writes `n` in decimal.
pub fn integer(out: &mut Vec<u8>, n: i64) {
    // 20 digits hold u64::MAX, so i64::MIN's magnitude fits.
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n.unsigned_abs();
    while let Some(slot) = at.checked_sub(1).and_then(|i| digits.get_mut(i)) {
        // `rest % 10` is a digit, so the cast is exact.
        *slot = b'0' + (rest % 10) as u8;
        at -= 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if n < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(span::from(&digits, at));
}

/// Writes an id: a string, an integer or `null`.
pub fn id(out: &mut Vec<u8>, id: &Id<'_>) {
    match id {
        Id::Str(s) => string(out, s),
        Id::Int(n) => integer(out, *n),
        Id::Null => out.extend_from_slice(b"null"),
    }
}

fn head(out: &mut Vec<u8>, request_id: Option<&Id<'_>>) {
    out.extend_from_slice(JSONRPC);
    if let Some(request_id) = request_id {
        out.extend_from_slice(br#","id":"#);
        id(out, request_id);
    }
}

fn method_and_params(out: &mut Vec<u8>, method: &str, params: Option<&RawJson<'_>>) {
    out.extend_from_slice(br#","method":"#);
    string(out, method);
    if let Some(params) = params {
        out.extend_from_slice(br#","params":"#);
        out.extend_from_slice(params.get().as_bytes());
    }
    out.push(b'}');
}

/// `{"jsonrpc":"2.0","id":..,"method":..,"params":..}`
pub fn request(out: &mut Vec<u8>, request_id: &Id<'_>, method: &str, params: Option<&RawJson<'_>>) {
    head(out, Some(request_id));
    method_and_params(out, method, params);
}

/// `{"jsonrpc":"2.0","method":..,"params":..}`
pub fn notification(out: &mut Vec<u8>, method: &str, params: Option<&RawJson<'_>>) {
    head(out, None);
    method_and_params(out, method, params);
}

/// `{"jsonrpc":"2.0","id":..,"result":..}`
pub fn result(out: &mut Vec<u8>, request_id: &Id<'_>, result: &RawJson<'_>) {
    head(out, Some(request_id));
    out.extend_from_slice(br#","result":"#);
    out.extend_from_slice(result.get().as_bytes());
    out.push(b'}');
}

/// `{"jsonrpc":"2.0","id":..,"error":{"code":..,"message":..,"data":..}}`;
/// a missing id is written as `null`, which every revision accepts.
pub fn error(out: &mut Vec<u8>, request_id: Option<&Id<'_>>, error: &ErrorObject<'_>) {
    head(out, Some(request_id.unwrap_or(&Id::Null)));
    out.extend_from_slice(br#","error":{"code":"#);
    integer(out, error.code);
    out.extend_from_slice(br#","message":"#);
    string(out, &error.message);
    if let Some(data) = &error.data {
        out.extend_from_slice(br#","data":"#);
        out.extend_from_slice(data.get().as_bytes());
    }
    out.extend_from_slice(b"}}");
}

/// The answer to a message that failed to parse, if one is due (see
/// [`Error::reply`]): its code, the reason's message, the id when it was
/// readable (else `null`), and `data: {"reason": .., "offset": ..}` so the
/// sender can find the fault. Writes nothing and returns `false` for a
/// response-shaped message, which must not be answered.
pub fn error_for(out: &mut Vec<u8>, fault: &Error<'_>) -> bool {
    let id = match fault.reply() {
        Reply::WithId(id) => id,
        Reply::WithNullId => &Id::Null,
        Reply::NotAnswered => return false,
    };
    head(out, Some(id));
    out.extend_from_slice(br#","error":{"code":"#);
    integer(out, fault.code());
    out.extend_from_slice(br#","message":"#);
    string(out, fault.message());
    out.extend_from_slice(br#","data":{"reason":"#);
    string(out, fault.reason().name());
    out.extend_from_slice(br#","offset":"#);
    integer(out, i64::try_from(fault.offset()).unwrap_or(i64::MAX));
    out.extend_from_slice(b"}}}");
    true
}

/// Any message, in canonical form.
pub fn message(out: &mut Vec<u8>, message: &Message<'_>) {
    match message {
        Message::Request(r) => request(out, &r.id, &r.method, r.params.as_ref()),
        Message::Notification(n) => notification(out, &n.method, n.params.as_ref()),
        Message::Result(r) => result(out, &r.id, &r.result),
        Message::Error(e) => error(out, e.id.as_ref(), &e.error),
    }
}

/// A batch: `[` the messages `]`.
pub fn batch<'m, 'a: 'm>(out: &mut Vec<u8>, messages: impl IntoIterator<Item = &'m Message<'a>>) {
    out.push(b'[');
    for (i, m) in messages.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        message(out, m);
    }
    out.push(b']');
}

//! Inputs built to hurt: nesting at and past the limit, strings of escapes,
//! long numbers and huge exponents, 100 000 keys, repeated keys, invalid
//! UTF-8 and lone surrogates late in large messages, bare arrays, batches,
//! HTML, a byte-order mark, truncation, and messages at the size limit.
//! Each case says what the parser must answer, and the benchmarks check
//! that answer before they time it.

use mcp_envelope::{Limits, Revision};

use crate::text::{image, prose};
use crate::{Rng, SEED};

/// What a case must parse to under its revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Valid, of this kind (`request`, `notification`, `result`, `batch`).
    Valid(&'static str),
    /// Invalid, for this reason.
    Invalid(&'static str),
}

#[derive(Clone, Debug)]
pub struct Case {
    pub name: &'static str,
    pub revision: Revision,
    pub bytes: Vec<u8>,
    pub expect: Expect,
    /// Deep nesting: peers without a depth limit overflow their stack on it.
    pub deep: bool,
}

fn case(name: &'static str, bytes: Vec<u8>, expect: Expect) -> Case {
    Case { name, revision: Revision::V2026_07_28, bytes, expect, deep: false }
}

fn request_with_params(params: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#).into_bytes()
}

fn result_with_text(text_json: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":7,"result":{{"resultType":"complete","content":[{{"type":"text","text":{text_json}}}]}}}}"#)
        .into_bytes()
}

/// `params` holding `arrays` nested arrays: the envelope is level 1 and
/// `params` level 2, so the deepest array is at level `arrays + 2`.
fn nested(arrays: usize) -> Vec<u8> {
    request_with_params(&format!(r#"{{"a":{}{}}}"#, "[".repeat(arrays), "]".repeat(arrays)))
}

fn keys(n: usize) -> String {
    (0..n).map(|i| format!(r#""key{i}":{i}"#)).collect::<Vec<_>>().join(",")
}

/// A tools/call result whose image makes the message exactly `len` bytes.
fn image_result_of_len(rng: &mut Rng, len: usize) -> Vec<u8> {
    let head = r#"{"jsonrpc":"2.0","id":9,"result":{"resultType":"complete","content":[{"type":"image","mimeType":"image/png","data":""#;
    let tail = r#""}]}}"#;
    let mut data = image(rng, (len - head.len() - tail.len()) * 3 / 4 + 3).into_bytes();
    data.truncate(len - head.len() - tail.len());
    let mut out = head.as_bytes().to_vec();
    out.extend(data);
    out.extend(tail.as_bytes());
    out
}

/// Where to cut `bytes` near the middle without splitting a character.
fn ascii_cut(bytes: &[u8]) -> usize {
    (bytes.len() / 2..bytes.len()).find(|&i| bytes[i].is_ascii()).unwrap_or(bytes.len() / 2)
}

/// The small cases: each well under 1 MiB, committed under `corpus/adversarial/`.
pub fn small() -> Vec<Case> {
    let mut rng = Rng::new(SEED ^ 0xAD);
    let escapes = r#"\n\t\"\\\/\u00e9\ud83d\ude00\u0000"#.repeat(64 * 1024 / 38);
    let long_numbers = (1..=2000).map(|i| format!("{i}{}", "1234567890".repeat(4))).collect::<Vec<_>>().join(",");
    let exponents = (0..2000).map(|i| if i % 2 == 0 { "1e400" } else { "-2.5E-400" }).collect::<Vec<_>>().join(",");
    let medium = result_with_text(&serde_json::to_string(&prose(&mut rng, 8000)).unwrap_or_default());
    let batch =
        (0..100).map(|i| format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#)).collect::<Vec<_>>().join(",");
    let html = format!(
        "<!DOCTYPE html>\n<html><head><title>MCP server</title></head><body>{}</body></html>",
        prose(&mut rng, 2000)
    );
    vec![
        case("nesting-at-limit", nested(Limits::DEFAULT_MAX_DEPTH - 2), Expect::Valid("request")),
        Case {
            deep: true,
            ..case("nesting-past-limit", nested(Limits::DEFAULT_MAX_DEPTH - 1), Expect::Invalid("too-deep"))
        },
        Case { deep: true, ..case("nesting-100000", "[".repeat(100_000).into_bytes(), Expect::Invalid("too-deep")) },
        case("escapes-64k", request_with_params(&format!(r#"{{"text":"{escapes}"}}"#)), Expect::Valid("request")),
        case("long-numbers", request_with_params(&format!(r#"{{"n":[{long_numbers}]}}"#)), Expect::Valid("request")),
        case("huge-exponents", request_with_params(&format!(r#"{{"x":[{exponents}]}}"#)), Expect::Valid("request")),
        case(
            "duplicate-id",
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","id":2}"#.to_vec(),
            Expect::Invalid("duplicate-member"),
        ),
        case("null-id", br#"{"jsonrpc":"2.0","id":null,"method":"tools/call"}"#.to_vec(), Expect::Invalid("null-id")),
        case("lone-surrogate", request_with_params(r#"{"q":"\ud800"}"#), Expect::Invalid("lone-surrogate")),
        case("bare-array", b"[1,2,3]".to_vec(), Expect::Invalid("batch-not-allowed")),
        Case {
            revision: Revision::V2025_03_26,
            ..case("batch-100", format!("[{batch}]").into_bytes(), Expect::Valid("batch"))
        },
        case("html-page", html.into_bytes(), Expect::Invalid("html-page")),
        case(
            "byte-order-mark",
            [&b"\xEF\xBB\xBF"[..], br#"{"jsonrpc":"2.0","method":"ping"}"#].concat(),
            Expect::Invalid("byte-order-mark"),
        ),
        case("truncated", medium[..ascii_cut(&medium)].to_vec(), Expect::Invalid("unexpected-end")),
        case(
            "bare-payload",
            br#"{"tools":[{"name":"get_me","inputSchema":{"type":"object"}}]}"#.to_vec(),
            Expect::Invalid("bare-payload"),
        ),
    ]
}

/// The large cases, built at bench time and never committed.
pub fn large() -> Vec<Case> {
    let mut rng = Rng::new(SEED ^ 0xBAD);
    let two_mib = 2 * 1024 * 1024;
    let mut late_utf8 = image_result_of_len(&mut rng, two_mib);
    let at = late_utf8.len() - 100;
    late_utf8[at] = 0xFF;
    let text = serde_json::to_string(&prose(&mut rng, two_mib)).unwrap_or_default();
    let late_surrogate = result_with_text(&format!(r#"{}\ud800""#, &text[..text.len() - 1]));
    let limit = Limits::DEFAULT_MAX_SIZE;
    vec![
        case("keys-100000-in-params", request_with_params(&format!("{{{}}}", keys(100_000))), Expect::Valid("request")),
        case(
            "keys-100000-in-envelope",
            format!(r#"{{"jsonrpc":"2.0","method":"notifications/message",{}}}"#, keys(100_000)).into_bytes(),
            Expect::Valid("notification"),
        ),
        case(
            "keys-100000-repeat-last",
            format!(r#"{{"jsonrpc":"2.0","method":"m",{},"key0":0}}"#, keys(100_000)).into_bytes(),
            Expect::Invalid("duplicate-member"),
        ),
        case("invalid-utf8-late-2mib", late_utf8, Expect::Invalid("invalid-utf8")),
        case("lone-surrogate-late-2mib", late_surrogate, Expect::Invalid("lone-surrogate")),
        case("at-size-limit-64mib", image_result_of_len(&mut rng, limit), Expect::Valid("result")),
        case("over-size-limit", image_result_of_len(&mut rng, limit + 1), Expect::Invalid("too-large")),
        // Last, so the cases above keep their bytes: the issue's 2 MiB image.
        case("image-2mib", image_result_of_len(&mut rng, two_mib), Expect::Valid("result")),
    ]
}

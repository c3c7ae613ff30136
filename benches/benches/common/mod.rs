//! What both benchmark files share: the contenders (our two backends and
//! the peers), the classes of input, and the check that each contender
//! answers before it is timed.

#![allow(dead_code, reason = "each bench file uses a different part")]

use std::borrow::Cow;

use mcp_envelope::backend::{SerdeJson, SimdJson};
use mcp_envelope::{Parser, Revision};
use mcp_envelope_benches::{SizeClass, adversarial, realistic};
use serde::Deserialize;
use serde_json::value::RawValue;

/// A contender's verdict on one message: the kind it read, or `None` when
/// it refused the message.
pub type Verdict = Option<&'static str>;

fn kind_of_members(method: bool, id: bool, result: bool, error: bool) -> Verdict {
    match (method, id, result, error) {
        (true, true, false, false) => Some("request"),
        (true, false, false, false) => Some("notification"),
        (false, true, true, false) => Some("result"),
        (false, _, false, true) => Some("error"),
        _ => None,
    }
}

/// serde_json into a `Value` tree, then classified: what a quick
/// implementation does.
pub fn serde_value(bytes: &[u8]) -> Verdict {
    match serde_json::from_slice::<serde_json::Value>(bytes).ok()? {
        serde_json::Value::Object(m) => kind_of_members(
            m.contains_key("method"),
            m.contains_key("id"),
            m.contains_key("result"),
            m.contains_key("error"),
        ),
        serde_json::Value::Array(_) => Some("batch"),
        _ => None,
    }
}

/// A hand-written envelope struct with `&RawValue` payloads: what a
/// careful user writes today.
#[derive(Deserialize)]
struct RawEnvelope<'a> {
    #[serde(borrow)]
    #[allow(dead_code, reason = "read to check it is a string")]
    jsonrpc: Cow<'a, str>,
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    #[allow(dead_code, reason = "borrowed, never read")]
    params: Option<&'a RawValue>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default, borrow)]
    error: Option<&'a RawValue>,
}

pub fn serde_raw_struct(bytes: &[u8]) -> Verdict {
    let e: RawEnvelope<'_> = serde_json::from_slice(bytes).ok()?;
    kind_of_members(e.method.is_some(), e.id.is_some(), e.result.is_some(), e.error.is_some())
}

fn rmcp_kind<Req, Resp, Noti>(m: &rmcp::model::JsonRpcMessage<Req, Resp, Noti>) -> Verdict {
    use rmcp::model::JsonRpcMessage as M;
    Some(match m {
        M::Request(_) => "request",
        M::Response(_) => "result",
        M::Notification(_) => "notification",
        M::Error(_) => "error",
    })
}

/// rmcp's untyped `JsonRpcMessage`.
pub fn rmcp_untyped(bytes: &[u8]) -> Verdict {
    rmcp_kind(&serde_json::from_slice::<rmcp::model::JsonRpcMessage>(bytes).ok()?)
}

/// rmcp's typed messages, as a gateway reads them: client-to-server first,
/// then server-to-client.
pub fn rmcp_typed(bytes: &[u8]) -> Verdict {
    if let Ok(m) = serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(bytes) {
        return rmcp_kind(&m);
    }
    rmcp_kind(&serde_json::from_slice::<rmcp::model::ServerJsonRpcMessage>(bytes).ok()?)
}

#[derive(Deserialize)]
struct SonicEnvelope<'a> {
    #[serde(borrow)]
    #[allow(dead_code, reason = "read to check it is a string")]
    jsonrpc: Cow<'a, str>,
    #[serde(default, borrow)]
    id: Option<sonic_rs::LazyValue<'a>>,
    #[serde(default, borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    #[allow(dead_code, reason = "borrowed, never read")]
    params: Option<sonic_rs::LazyValue<'a>>,
    #[serde(default, borrow)]
    result: Option<sonic_rs::LazyValue<'a>>,
    #[serde(default, borrow)]
    error: Option<sonic_rs::LazyValue<'a>>,
}

/// sonic-rs with `LazyValue` payloads.
pub fn sonic_lazy(bytes: &[u8]) -> Verdict {
    let e: SonicEnvelope<'_> = sonic_rs::from_slice(bytes).ok()?;
    kind_of_members(e.method.is_some(), e.id.is_some(), e.result.is_some(), e.error.is_some())
}

/// The floor: UTF-8 validation of the same bytes, nothing more.
pub fn utf8_floor(bytes: &[u8]) -> Verdict {
    simdutf8::basic::from_utf8(bytes).ok().map(|_| "utf8")
}

/// Our parser, warm, with either backend.
pub struct Ours {
    pub serde: Parser<SerdeJson>,
    pub simd: Parser<SimdJson>,
}

impl Ours {
    pub fn new(revision: Revision) -> Ours {
        Ours { serde: Parser::new(revision), simd: Parser::new(revision) }
    }
}

pub fn ours_serde(parser: &mut Parser<SerdeJson>, bytes: &[u8]) -> Verdict {
    parser.parse(bytes).ok().map(|e| e.kind().name())
}

pub fn ours_simd(parser: &mut Parser<SimdJson>, bytes: &[u8]) -> Verdict {
    parser.parse(bytes).ok().map(|e| e.kind().name())
}

/// The peers, by name, in report order. sonic-rs is left out of inputs
/// with deep nesting: it has no depth limit and overflows the stack.
pub type Contender = fn(&[u8]) -> Verdict;

pub const PEERS: [(&str, Contender); 6] = [
    ("serde_json-value", serde_value),
    ("serde_json-rawvalue-struct", serde_raw_struct),
    ("rmcp-untyped", rmcp_untyped),
    ("rmcp-typed", rmcp_typed),
    ("sonic-rs-lazyvalue", sonic_lazy),
    ("utf8-floor", utf8_floor),
];

/// The realistic messages of a size class.
pub fn class(class: SizeClass) -> Vec<Vec<u8>> {
    realistic::generate().into_iter().filter(|s| SizeClass::of(s.bytes.len()) == class).map(|s| s.bytes).collect()
}

/// Every adversarial case, small and large.
pub fn adversarial_cases() -> Vec<adversarial::Case> {
    adversarial::small().into_iter().chain(adversarial::large()).collect()
}

/// Checks our parser before it is timed: both backends agree on every
/// message and read every realistic message as valid.
pub fn check_ours_on_realistic(name: &str, messages: &[Vec<u8>]) {
    let mut ours = Ours::new(Revision::V2026_07_28);
    for m in messages {
        let a = ours_serde(&mut ours.serde, m);
        let b = ours_simd(&mut ours.simd, m);
        assert_eq!(a, b, "{name}: the backends disagree");
        assert!(
            a.is_some(),
            "{name}: a realistic message was refused: {}",
            String::from_utf8_lossy(&m[..m.len().min(200)])
        );
    }
}

/// How many messages a peer reads differently from us (refuses a valid
/// message, accepts an invalid one, or names another kind).
pub fn peer_differences(peer: Contender, messages: &[Vec<u8>], revision: Revision) -> usize {
    let mut ours = Ours::new(revision);
    messages.iter().filter(|m| peer(m) != ours_serde(&mut ours.serde, m)).count()
}

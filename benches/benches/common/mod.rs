//! What both benchmark files share: the contenders (our two backends and
//! the peers), the classes of input, and the check that each contender
//! answers before it is timed.

#![allow(dead_code, reason = "each bench file uses a different part")]

use std::borrow::Cow;

// Built against the commit being measured when the race measures a
// history (scripts/bench-history.sh): the framing's API is newer than some
// of those commits, so it sits the history out.
#[cfg(not(race_history))]
pub mod framing;

use mcp_envelope::backend::{Reference, SerdeJson, SimdJson};
use mcp_envelope::{Parser, Revision};
use mcp_envelope_benches::{SizeClass, adversarial, realistic};
use serde::Deserialize;
use serde_json::value::RawValue;

/// A contender's verdict on one message: the kind it read, or `None` when
/// it refused the message.
pub type KindRead = Option<&'static str>;

fn kind_of_members(method: bool, id: bool, result: bool, error: bool) -> KindRead {
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
pub fn serde_value(bytes: &[u8]) -> KindRead {
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

pub fn serde_raw_struct(bytes: &[u8]) -> KindRead {
    let e: RawEnvelope<'_> = serde_json::from_slice(bytes).ok()?;
    kind_of_members(e.method.is_some(), e.id.is_some(), e.result.is_some(), e.error.is_some())
}

fn rmcp_kind<Req, Resp, Noti>(m: &rmcp::model::JsonRpcMessage<Req, Resp, Noti>) -> KindRead {
    use rmcp::model::JsonRpcMessage as M;
    Some(match m {
        M::Request(_) => "request",
        M::Response(_) => "result",
        M::Notification(_) => "notification",
        M::Error(_) => "error",
    })
}

/// rmcp's untyped `JsonRpcMessage`.
pub fn rmcp_untyped(bytes: &[u8]) -> KindRead {
    rmcp_kind(&serde_json::from_slice::<rmcp::model::JsonRpcMessage>(bytes).ok()?)
}

/// rmcp's typed messages, as a gateway reads them: client-to-server first,
/// then server-to-client.
pub fn rmcp_typed(bytes: &[u8]) -> KindRead {
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
pub fn sonic_lazy(bytes: &[u8]) -> KindRead {
    let e: SonicEnvelope<'_> = sonic_rs::from_slice(bytes).ok()?;
    kind_of_members(e.method.is_some(), e.id.is_some(), e.result.is_some(), e.error.is_some())
}

/// sonic-rs into its `Value` tree, then classified: the fastest lax peer
/// on small messages.
pub fn sonic_value(bytes: &[u8]) -> KindRead {
    use sonic_rs::{JsonContainerTrait, JsonValueTrait};
    let value: sonic_rs::Value = sonic_rs::from_slice(bytes).ok()?;
    if let Some(m) = value.as_object() {
        return kind_of_members(
            m.contains_key(&"method"),
            m.contains_key(&"id"),
            m.contains_key(&"result"),
            m.contains_key(&"error"),
        );
    }
    value.is_array().then_some("batch")
}

/// serde_json's syntax-only pass (`IgnoredAny`): the ceiling of anything
/// built on serde_json. It classifies nothing.
pub fn serde_ignored_any(bytes: &[u8]) -> KindRead {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).ok().map(|_| "json")
}

/// simd-json's own tape with its `Buffers` and tape reused, as our simd
/// backend uses it: the ceiling of anything built on simd-json. simd-json
/// unescapes in place, so each message is copied into a reused buffer
/// first. It classifies nothing.
#[derive(Default)]
pub struct SimdTape {
    copy: Vec<u8>,
    buffers: Option<simd_json::Buffers>,
    tape: Option<simd_json::Tape<'static>>,
}

impl SimdTape {
    pub fn parse(&mut self, bytes: &[u8]) -> KindRead {
        self.copy.clear();
        self.copy.extend_from_slice(bytes);
        let buffers = self.buffers.get_or_insert_with(|| simd_json::Buffers::new(bytes.len()));
        let mut tape = self.tape.take().unwrap_or_else(simd_json::Tape::null).reset();
        let parsed = simd_json::fill_tape(&mut self.copy, buffers, &mut tape).is_ok();
        self.tape = Some(tape.reset());
        parsed.then_some("json")
    }
}

/// The floor: UTF-8 validation of the same bytes, nothing more.
pub fn utf8_floor(bytes: &[u8]) -> KindRead {
    simdutf8::basic::from_utf8(bytes).ok().map(|_| "utf8")
}

/// The default backend's pipeline short of its last stages, for the
/// figures per stage: UTF-8 and the JSON grammar alone (`check_json`, no
/// tape), ...
pub fn stage_syntax(bytes: &[u8]) -> KindRead {
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    mcp_envelope::check_json(text).ok().map(|_| "json")
}

/// ... and everything up to the tape, without the envelope rules (the
/// checks before any tokeniser, the reference backend's scan).
pub fn stage_tape(parser: &mut Parser<Reference>, bytes: &[u8]) -> KindRead {
    mcp_envelope::internal::tape_stage(parser, bytes).ok().map(|()| "json")
}

/// Our parser, warm, with each backend.
pub struct Ours {
    pub serde: Parser<SerdeJson>,
    pub simd: Parser<SimdJson>,
    pub reference: Parser<Reference>,
}

impl Ours {
    pub fn new(revision: Revision) -> Ours {
        Ours {
            serde: Parser::with_backend(revision),
            simd: Parser::with_backend(revision),
            reference: Parser::with_backend(revision),
        }
    }
}

pub fn ours_reference(parser: &mut Parser<Reference>, bytes: &[u8]) -> KindRead {
    parser.parse(bytes).ok().map(|e| e.kind().name())
}

pub fn ours_serde(parser: &mut Parser<SerdeJson>, bytes: &[u8]) -> KindRead {
    parser.parse(bytes).ok().map(|e| e.kind().name())
}

pub fn ours_simd(parser: &mut Parser<SimdJson>, bytes: &[u8]) -> KindRead {
    parser.parse(bytes).ok().map(|e| e.kind().name())
}

/// The peers, by name, in report order. sonic-rs is left out of inputs
/// with deep nesting: it has no depth limit and overflows the stack.
pub type Contender = fn(&[u8]) -> KindRead;

pub const PEERS: [(&str, Contender); 8] = [
    ("serde_json-value", serde_value),
    ("serde_json-rawvalue-struct", serde_raw_struct),
    ("rmcp-untyped", rmcp_untyped),
    ("rmcp-typed", rmcp_typed),
    ("sonic-rs-lazyvalue", sonic_lazy),
    ("sonic-rs-value", sonic_value),
    ("serde_json-ignoredany", serde_ignored_any),
    ("utf8-floor", utf8_floor),
];

/// Contenders that only check syntax (or less), so their verdicts are not
/// compared with the rules: each library's own ceiling, our stages short
/// of the rules, and the floor.
pub fn is_ceiling(name: &str) -> bool {
    matches!(name, "serde_json-ignoredany" | "simd-json-tape" | "stage-tape" | "stage-syntax" | "utf8-floor")
}

/// A result message of exactly about `len` bytes of realistic text.
pub fn message_of_size(len: usize) -> Vec<u8> {
    let mut rng = mcp_envelope_benches::Rng::new(mcp_envelope_benches::SEED);
    let text = serde_json::to_string(&mcp_envelope_benches::text::prose(&mut rng, len)).unwrap_or_default();
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","content":[{{"type":"text","text":{text}}}]}}}}"#
    )
    .into_bytes()
}

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
        assert_eq!(a, ours_reference(&mut ours.reference, m), "{name}: the core scanner disagrees");
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

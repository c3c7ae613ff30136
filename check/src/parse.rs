//! Self-consistency of one backend's verdicts.

use std::vec::Vec;

use crate::{configuration, configuration_index, shown};
use mcp_envelope::Limits;
use mcp_envelope::Parsed;
use mcp_envelope::Parser;
use mcp_envelope::Revision;
use mcp_envelope::backend::{Backend, SerdeJson, SimdJson};
use mcp_envelope::codes::{self, CodeClass};
use mcp_envelope::transport::oversized;
use mcp_envelope::{Envelope, Message};
use mcp_envelope::{Reason, Reply};
use mcp_envelope::{check_json, write};

/// Self-consistency of the serde_json backend's verdicts: the same
/// properties as [`parse_simd`].
pub fn parse_serde(input: &[u8]) {
    parse_serde_under(input, configuration_index(input));
}

/// [`parse_serde`] under configuration `index` (any number; taken modulo
/// [`CONFIGURATIONS`](crate::CONFIGURATIONS)).
pub fn parse_serde_under(input: &[u8], index: usize) {
    parse_one::<SerdeJson>(input, index);
}

/// Self-consistency of the simd-json backend's verdicts: under the revision
/// and limits the input selects, an error's offset lies inside the input and
/// its code matches its reason; a -32600 is valid JSON and a -32700 (other
/// than a limit) is invalid JSON with the same fault, by the reference backend;
/// a fault's answer from `write::error_for` parses; error codes classify as
/// the table says; a valid envelope's payloads are valid JSON inside the
/// input, and each message written back out parses to itself.
pub fn parse_simd(input: &[u8]) {
    parse_simd_under(input, configuration_index(input));
}

/// [`parse_simd`] under configuration `index` (any number; taken modulo
/// [`CONFIGURATIONS`](crate::CONFIGURATIONS)).
pub fn parse_simd_under(input: &[u8], index: usize) {
    parse_one::<SimdJson>(input, index);
}

/// Under the revision and limits the input selects: an error's offset lies inside
/// the input and its code matches its reason; a -32600 is valid JSON and a
/// -32700 (other than a limit) is invalid JSON with the same fault, by the
/// reference backend; a valid envelope's payloads are valid JSON, inside the
/// input, and each message written back out parses to itself.
fn parse_one<B: Backend>(input: &[u8], index: usize) {
    let (revision, limits) = configuration(index);
    let mut parser = Parser::<B>::with_backend(revision).with_limits(limits);
    let outcome = parser.parse(input);
    consistent::<B>(input, revision, limits, &outcome);
    // Any bytes at all, valid or not: the glimpse never panics.
    let _ = oversized::glimpse(input, input);
}

fn consistent<B: Backend>(input: &[u8], revision: Revision, limits: Limits, outcome: &Parsed<'_>) {
    let ctx = || std::format!("{} under {revision}, {limits:?}, on {}", B::NAME, shown(input));
    match outcome {
        Err(e) => {
            assert!(e.offset() <= input.len().max(limits.max_size), "offset {} outside {}", e.offset(), ctx());
            assert_eq!(e.code(), e.reason().code(), "{}", ctx());
            if e.reason().is_parse_error() {
                assert!(e.id().is_none(), "a parse error recovered an id: {}", ctx());
            }
            judge_json(input, e.reason(), e.offset(), &ctx);
            answerable::<B>(input, e, revision, &ctx);
        }
        Ok(envelope) => {
            let json = core::str::from_utf8(input).ok().map(check_json);
            assert!(matches!(json, Some(Ok(_))), "accepted invalid JSON ({json:?}): {}", ctx());
            if let Envelope::Batch(_) = envelope {
                assert!(revision.allows_batches(), "a batch under {revision}: {}", ctx());
            }
            let messages: Vec<&Message<'_>> = match envelope {
                Envelope::Single(m) => std::vec![m],
                Envelope::Batch(items) => {
                    for e in items.iter().filter_map(|i| i.as_ref().err()) {
                        assert!(e.offset() < input.len() && e.code() == -32600, "item fault {e:?}: {}", ctx());
                    }
                    items.iter().filter_map(|i| i.as_ref().ok()).collect()
                }
            };
            if let Envelope::Single(m) = envelope {
                glimpsed(input, m, &ctx);
            }
            for m in messages {
                if let Message::Error(response) = m {
                    classified(response.error.code, revision, &ctx);
                }
                if let Some(payload) = m.payload() {
                    assert!(payload.span_in(input).is_some(), "payload not borrowed from the input: {}", ctx());
                    assert!(check_json(payload.get()).is_ok(), "payload {payload:?} is not JSON: {}", ctx());
                }
                if limits == Limits::new() {
                    round_trip::<B>(m, revision, &ctx);
                }
            }
        }
    }
}

/// What [`oversized::glimpse`] reads of a valid message's head and tail,
/// whole or split anywhere, is what the parser read, where it reads anything.
fn glimpsed(input: &[u8], m: &Message<'_>, ctx: &dyn Fn() -> std::string::String) {
    let half = input.len() / 2;
    let splits = [(input, input), (input.get(..half).unwrap_or_default(), input.get(half..).unwrap_or_default())];
    for (head, tail) in splits {
        let seen = oversized::glimpse(head, tail);
        if let Some(kind) = seen.kind {
            assert_eq!(kind, m.kind(), "glimpse read another kind: {}", ctx());
        }
        if let Some(id) = &seen.id {
            assert_eq!(Some(id), m.id(), "glimpse read another id: {}", ctx());
        }
    }
}

/// A -32600 means the JSON was fine; a -32700 not caused by a limit or a
/// pre-check names the same fault the reference backend finds.
fn judge_json(input: &[u8], reason: Reason, offset: usize, ctx: &dyn Fn() -> std::string::String) {
    let Ok(text) = core::str::from_utf8(input) else { return };
    let scanned = check_json(text);
    if !reason.is_parse_error() {
        assert!(scanned.is_ok(), "-32600 on invalid JSON ({scanned:?}): {}", ctx());
        return;
    }
    let limit_or_precheck =
        matches!(reason, Reason::TooDeep | Reason::TooLarge | Reason::ByteOrderMark | Reason::HtmlPage | Reason::Empty);
    if !limit_or_precheck {
        let fault = scanned.err().map(|f| (f.reason, f.offset));
        assert_eq!(fault, Some((reason, offset)), "the reference backend sees another fault: {}", ctx());
    }
}

/// `write::error_for` answers exactly as `Error::reply` says: nothing for a
/// response-shaped message (told here by serde_json's own reading of the
/// input), else an error response that parses, with the fault's code and
/// the id it recovered or `null`.
fn answerable<B: Backend>(
    input: &[u8],
    e: &mcp_envelope::Error<'_>,
    revision: Revision,
    ctx: &dyn Fn() -> std::string::String,
) {
    let mut answer = Vec::new();
    let written = write::error_for(&mut answer, e);
    let reply = e.reply();
    if !e.reason().is_parse_error()
        && let Ok(serde_json::Value::Object(members)) = serde_json::from_slice::<serde_json::Value>(input)
    {
        let shaped =
            !members.contains_key("method") && (members.contains_key("result") || members.contains_key("error"));
        assert_eq!(shaped, reply == Reply::NotAnswered, "reply {reply:?} to {e:?}: {}", ctx());
    }
    if reply == Reply::NotAnswered {
        assert!(!written && answer.is_empty(), "answered a response ({e:?}): {}", ctx());
        return;
    }
    let id = match reply {
        Reply::WithId(id) => Some(id),
        _ => None,
    };
    let parsed = Parser::<B>::with_backend(revision).parse(&answer);
    let ok = written
        && matches!(&parsed, Ok(Envelope::Single(Message::Error(r)))
        if r.error.code == e.code() && r.id.as_ref() == id);
    assert!(ok, "the answer {} to {e:?} parsed as {parsed:?}: {}", shown(&answer), ctx());
}

/// `codes::classify` against the table of RULES.md section 3, written out
/// plainly.
fn classified(code: i64, revision: Revision, ctx: &dyn Fn() -> std::string::String) {
    let class = codes::classify(code, revision);
    let split = revision == Revision::V2026_07_28;
    let expected_family = match code {
        -32700 | -32603..=-32600 => "standard",
        -32099..=-32000 if split && code > -32020 => "legacy",
        -32099..=-32000 if split => "mcp",
        -32099..=-32000 => "server",
        -32768..=-32000 => "reserved",
        _ => "application",
    };
    let family = match class {
        CodeClass::Standard(_) => "standard",
        CodeClass::Legacy => "legacy",
        CodeClass::Mcp(_) if split => "mcp",
        CodeClass::McpReserved => "mcp",
        CodeClass::Mcp(_) | CodeClass::ServerDefined => "server",
        CodeClass::JsonRpcReserved => "reserved",
        CodeClass::Application => "application",
    };
    assert_eq!(family, expected_family, "code {code} classified as {class:?}: {}", ctx());
}

fn round_trip<B: Backend>(m: &Message<'_>, revision: Revision, ctx: &dyn Fn() -> std::string::String) {
    let mut written = Vec::new();
    write::message(&mut written, m);
    let mut parser = Parser::<B>::with_backend(revision);
    let again = parser.parse(&written);
    assert!(
        matches!(&again, Ok(Envelope::Single(m2)) if m2 == m),
        "write then parse changed {m:?} into {again:?} (wrote {}): {}",
        shown(&written),
        ctx()
    );
}

//! A strict, fast parser for the JSON-RPC 2.0 envelopes of the Model Context
//! Protocol, with one answer per message whatever JSON backend it runs on.
//!
//! For each message it says: is this JSON, which kind of message is it
//! (request, notification, result, error, batch), what is its id, and if it
//! is bad, which JSON-RPC error to answer with (-32700 or -32600), a stable
//! [`Reason`], and the byte offset of the fault. Payloads (`params`,
//! `result`, `error.data`) are handed back as [`RawJson`], borrowed from the
//! input and never parsed into a tree.
//!
//! ```
//! use mcp_envelope::{Parser, Revision, Message, write};
//!
//! let mut parser = Parser::new(Revision::V2026_07_28);
//! let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_me"}}"#;
//! match parser.parse(line) {
//!     Ok(envelope) => {
//!         let Some(Message::Request(call)) = envelope.single() else { unreachable!() };
//!         assert_eq!(call.method, "tools/call");
//!         assert_eq!(call.params.as_ref().map(|p| p.get()), Some(r#"{"name":"get_me"}"#));
//!     }
//!     Err(error) => {
//!         // Answer the fault in one call: code, message, id if readable.
//!         let mut answer = Vec::new();
//!         write::error_for(&mut answer, &error);
//!     }
//! }
//!
//! let error = parser.parse(br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#).unwrap_err();
//! assert_eq!(error.code(), -32600);
//! assert_eq!(error.reason().name(), "null-id");
//! assert_eq!(error.offset(), 22);
//! ```
//!
//! # Backends
//!
//! [`backend::SerdeJson`] (feature `serde_json`, default, works without
//! `std`) and [`backend::SimdJson`] (feature `simd-json`) tokenise; the
//! rules live in this crate. When a backend declines a message, the
//! reference backend ([`backend::Reference`]) judges it, so the verdict, reason
//! and offset never depend on the backend.
//!
//! # Features
//!
//! | feature | default | enables |
//! |---|---|---|
//! | `std` | yes | `std::error::Error` paths, runtime SIMD detection for UTF-8 checks |
//! | `serde_json` | yes | the serde_json backend (no_std + alloc); `Serialize`/`Deserialize` for [`RawJson`], conversions from and to `serde_json::value::RawValue`, [`RawJson::deserialize`] |
//! | `serde` | yes (through `serde_json`) | `Serialize`/`Deserialize` for [`Id`] |
//! | `simd-json` | no | the simd-json backend (needs `std`) |
//! | `arbitrary` | no | `arbitrary::Arbitrary` for [`Revision`], [`Limits`], and [`Reason`] |
//!
//! # How the crate is laid out
//!
//! Its modules follow the parser's pipeline, bottom up, and imports run one
//! way only (a test in the repository holds them to it):
//!
//! ```text
//! fault.rs span.rs              why a message was refused; imports nothing
//! limits.rs revision.rs codes.rs
//! json/       escape.rs string.rs number.rs skim.rs text.rs grammar.rs lookup.rs
//!                               RFC 8259 under the rules
//! tape.rs                       the shallow tape, and which levels expand
//! envelope/   mod.rs error.rs serialization.rs write.rs   what the parser gives
//! backend/    reference.rs serde_json.rs simd_json.rs     tokenise into the tape
//! rules/      names.rs repeats.rs classify.rs             the envelope rules
//! parser.rs                     precheck, backend, reference on decline, rules
//! transport/  lines/ sse/ exchange/ ids.rs oversized.rs   built on the parser:
//!                               what a program on a transport needs
//! ```
//!
//! The fuzzing properties live in an unpublished crate of the repository
//! (`check/`), and how the probe grades a server in a crate of its own
//! (`mcp-envelope-grade`): neither is part of this one.
//!
//! # The rules
//!
//! The rules, with their sources and the tests that pin each one, are in
//! `RULES.md` at the root of the repository. In short: RFC 8259 JSON, with
//! lone surrogates refused, numbers of any size accepted, a depth limit of
//! 128 and a size limit of 64 MiB; JSON-RPC 2.0 envelopes as each MCP
//! revision restricts them; repeated member names refused.

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The modules in pipeline order, bottom up: each imports only from those
// listed before it (tests/layers.rs fails when one does otherwise).
// The vocabulary: why a message was refused, the limits, the revisions,
// the error codes; reading a span the walk found.
pub mod codes;
mod fault;
mod limits;
mod revision;
mod span;
// RFC 8259 under the rules: bytes to offsets or a fault.
mod json;
// The shallow tape a backend fills.
mod tape;
// What the parser gives: envelopes, messages, ids, refusals.
mod envelope;
// The backends: each tokenises a message into the tape.
pub mod backend;
// The envelope rules, read off the tape.
mod rules;
// Size, UTF-8, a backend, the reference backend when a backend declines,
// the rules.
mod parser;
// Hidden hooks for the workspace's other crates.
#[doc(hidden)]
pub mod internal;
// What is built on the parser: what a program on a transport needs
// (framing, the exchange rules, ids in flight, oversized messages).
pub mod transport;

pub use envelope::write;
pub use envelope::{
    Envelope, ErrorObject, ErrorResponse, Id, Items, Kind, Message, Notification, RawJson, Request, ResultResponse,
};
pub use envelope::{Error, Parsed, Reply};
pub use fault::{Fault, HEADER_MISMATCH, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, Reason, Severity};
pub use limits::Limits;
pub use parser::{DefaultBackend, Parser};
pub use revision::{IdReuse, Revision, UnknownRevision};

/// Checks that `json` is one JSON value under the rules (the same check the
/// parser applies to payloads), for building messages with [`write`](mod@write).
///
/// # Errors
/// The first fault, as the parser would report it.
pub fn check_json(json: &str) -> Result<RawJson<'_>, Fault> {
    RawJson::checked(json)
}

/// The crate README's example runs as a doctest, so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

//! Run every backend on the same input and insist they agree.

use std::ops::Range;
use std::path::{Path, PathBuf};

use mcp_envelope::backend::{Backend, Reference, SerdeJson};
use mcp_envelope::{Envelope, Error, Kind, Limits, Message, Parsed, Parser, Revision};

/// Names of the backends this build has, for messages.
pub fn backends() -> &'static [&'static str] {
    if cfg!(feature = "simd-json") { &["serde", "simd", "reference"] } else { &["serde", "reference"] }
}

fn one<'a, B: Backend>(revision: Revision, limits: Limits, input: &'a [u8]) -> Parsed<'a> {
    Parser::<B>::with_backend(revision).with_limits(limits).parse(input)
}

/// The payload spans of every message in an outcome, in order.
pub fn spans(input: &[u8], outcome: &Parsed<'_>) -> Vec<Option<Range<usize>>> {
    let of = |m: &Message<'_>| m.payload().and_then(|p| p.span_in(input));
    match outcome {
        Ok(Envelope::Single(m)) => vec![of(m)],
        Ok(Envelope::Batch(items)) => items.iter().map(|i| i.as_ref().ok().and_then(of)).collect(),
        Err(_) => Vec::new(),
    }
}

/// Parses with every backend under `limits`; panics unless all agree.
pub fn parse_limited(revision: Revision, limits: Limits, input: &[u8]) -> Parsed<'_> {
    let serde = one::<SerdeJson>(revision, limits, input);
    let reference = one::<Reference>(revision, limits, input);
    let shown = String::from_utf8_lossy(&input[..input.len().min(200)]).into_owned();
    assert_eq!(serde, reference, "serde and reference disagree under {revision} on {shown:?}");
    assert_eq!(spans(input, &serde), spans(input, &reference), "payload spans differ on {shown:?}");
    #[cfg(feature = "simd-json")]
    {
        let simd = one::<mcp_envelope::backend::SimdJson>(revision, limits, input);
        assert_eq!(serde, simd, "serde and simd disagree under {revision} on {shown:?}");
        assert_eq!(spans(input, &serde), spans(input, &simd), "payload spans differ on {shown:?}");
    }
    serde
}

/// [`parse_limited`] with the default limits.
pub fn parse(revision: Revision, input: &[u8]) -> Parsed<'_> {
    parse_limited(revision, Limits::new(), input)
}

/// The error; panics if the input parsed.
pub fn error(revision: Revision, input: &str) -> Error<'_> {
    match parse(revision, input.as_bytes()) {
        Err(e) => e,
        Ok(envelope) => panic!("expected an error under {revision} for {input}, got {envelope:?}"),
    }
}

/// The single message; panics on an error or a batch.
pub fn message(revision: Revision, input: &str) -> Message<'_> {
    match parse(revision, input.as_bytes()) {
        Ok(Envelope::Single(m)) => m,
        other => panic!("expected one message under {revision} for {input}, got {other:?}"),
    }
}

// A compact judgement for tables of cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    Valid(Kind),
    Invalid(&'static str, usize),
}

pub fn judgement(revision: Revision, input: &str) -> Judgement {
    match parse(revision, input.as_bytes()) {
        Ok(envelope) => Judgement::Valid(envelope.kind()),
        Err(e) => Judgement::Invalid(e.reason().name(), e.offset()),
    }
}

/// Shorthand: invalid with reason `name` at `offset`.
pub fn invalid(name: &'static str, offset: usize) -> Judgement {
    Judgement::Invalid(name, offset)
}

/// `testdata/` at the workspace root.
pub fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

/// The files in `dir`, sorted, with their names.
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    out
}

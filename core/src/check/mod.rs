//! Properties that must hold for every input, as functions that panic when
//! one does not. The fuzz targets are one-line shells over these, and the
//! core's tests run them too (on the regression files, the seed corpora and
//! random input), so a failure found by fuzzing is replayed by `cargo test`.
//!
//! | function | property |
//! |---|---|
//! | [`parse_serde`], [`parse_simd`] | every verdict is self-consistent, under every revision |
//! | [`differential`] | serde_json, simd-json and the core's scanner give the same outcome |
//! | [`structured`] | written envelopes parse back to themselves; mutations of them agree across backends |
//! | [`stream`] | line framing does not depend on chunking and stays within its memory bound |
//! | [`ids`] | the in-flight tracker matches a plain model |

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::envelope::{Envelope, Message};
use crate::error::Error;
use crate::limits::Limits;

mod differential;
mod ids;
mod parse;
#[cfg(feature = "arbitrary")]
mod sketch;
mod stream;

pub use differential::differential;
pub use ids::ids;
pub use parse::{parse_serde, parse_simd};
#[cfg(feature = "arbitrary")]
pub use sketch::{Sketch, structured, structured_bytes};
pub use stream::stream;

/// The limits every property runs under: the defaults, and small ones that
/// input of fuzzing size can reach.
pub(crate) const LIMITS: [Limits; 2] = [Limits::new(), Limits { max_depth: 4, max_size: 512 }];

pub(crate) type Outcome<'a> = Result<Envelope<'a>, Error<'a>>;

/// The payload spans of every message of an outcome, in order.
pub(crate) fn spans(input: &[u8], outcome: &Outcome<'_>) -> Vec<Option<Range<usize>>> {
    let of = |m: &Message<'_>| m.payload().and_then(|p| p.span_in(input));
    match outcome {
        Ok(Envelope::Single(m)) => alloc::vec![of(m)],
        Ok(Envelope::Batch(items)) => items.iter().map(|i| i.as_ref().ok().and_then(of)).collect(),
        Err(_) => Vec::new(),
    }
}

/// The input, for a panic message: lossy, cut at 300 bytes.
pub(crate) fn shown(input: &[u8]) -> String {
    let cut = input.get(..300).unwrap_or(input);
    format!("{:?}{}", String::from_utf8_lossy(cut), if cut.len() < input.len() { "…" } else { "" })
}

/// Panics unless `a` and `b` are the same outcome, payload spans included.
pub(crate) fn assert_same(input: &[u8], context: &str, a: (&str, &Outcome<'_>), b: (&str, &Outcome<'_>)) {
    assert!(
        a.1 == b.1 && spans(input, a.1) == spans(input, b.1),
        "{} and {} disagree ({context}) on {}:\n  {}: {:?}\n  {}: {:?}",
        a.0,
        b.0,
        shown(input),
        a.0,
        a.1,
        b.0,
        b.1
    );
}

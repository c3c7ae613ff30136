//! Properties that must hold for every input, as functions that panic when
//! one does not. The fuzz targets are one-line shells over these, and this
//! crate's tests run them too (on the regression files, the seed corpora
//! and random input), so a failure found by fuzzing is replayed by
//! `cargo test`.
//! A workspace crate of its own, never published: what it needs of the core
//! is the core's public API, and one hidden hook (`mcp_envelope::internal`:
//! a simd-json parser that reads batches in tiny chunks).
//!
//! Each input is checked under one configuration (a revision and a set of
//! limits) that the input itself selects, see [`configuration_index`]: the
//! fuzzer covers all of them across its inputs, many times faster than
//! checking every input under all twelve. The `_under` forms take the
//! configuration as an argument, for replaying files under all of them.
//!
//! | function | property |
//! |---|---|
//! | [`parse_serde`], [`parse_simd`] | every verdict is self-consistent |
//! | [`differential`] | serde_json, simd-json (batches whole and in chunks) and the reference backend give the same outcome |
//! | [`structured`] | written envelopes parse back to themselves; mutations of them agree across backends |
//! | [`stream`] | line framing does not depend on chunking, the push and pull readers and the tokio codec give the same frames, and each stays within its memory bound |
//! | [`sse`] | event-stream framing gives a plain model's events for any chunking, by the push and pull readers and the tokio codec, each within its memory bound, and dispatches what an independent decoder (sse-stream) dispatches |
//! | [`exchange`] | the exchange rules' findings do not depend on chunking, are handed out once, lie inside what was sent, blame the side that sent it, and every -32020 answer is an error response to the request |
//! | [`ids`] | the in-flight tracker matches a plain model |
//! | [`grade`] | the probe's grading never panics, and never passes an answer an independent reading (serde_json's) says is not what was wanted |

use core::ops::Range;
use std::format;
use std::string::String;
use std::vec::Vec;

use mcp_envelope::Limits;
use mcp_envelope::Parsed;
use mcp_envelope::Revision;
use mcp_envelope::{Envelope, Message};

mod chunks;
mod differential;
mod exchange;
mod grade;
mod harness;
mod ids;
mod parse;
mod sketch;
mod sse;
mod sse_oracle;
mod stream;

pub use differential::{differential, differential_under};
pub use exchange::{exchange, exchange_findings};
pub use grade::grade;
pub use ids::ids;
pub use parse::{parse_serde, parse_serde_under, parse_simd, parse_simd_under};
pub use sketch::{Sketch, structured, structured_bytes};
pub use sse::sse;
pub use stream::stream;

/// The limits the properties run under: the defaults, and small ones that
/// input of fuzzing size can reach.
pub(crate) const LIMITS: [Limits; 2] = [Limits::new(), Limits { max_depth: 4, max_size: 512, max_batch_len: 3 }];

/// How many configurations (a revision and a set of limits) there are.
pub const CONFIGURATIONS: usize = LIMITS.len() * Revision::ALL.len();

/// Which configuration an input is checked under, chosen by the input
/// itself: its length and its last byte. Checking one configuration per
/// input rather than all twelve makes each run many times faster, and the
/// fuzzer still reaches every configuration: its mutations change lengths
/// and last bytes all the time, and it keeps an input that reaches new code
/// under whichever configuration that input selects. The choice is
/// deterministic, so a regression file replays under the configuration
/// that failed.
pub fn configuration_index(input: &[u8]) -> usize {
    let last = input.last().copied().map_or(0, usize::from);
    let index = input.len().wrapping_add(last.wrapping_mul(7)) % CONFIGURATIONS;
    // Under the small limits an input past their size would only meet the
    // size check: it gets the default limits instead.
    let small = LIMITS.get(1).map_or(0, |l| l.max_size);
    if input.len() > small { index % Revision::ALL.len() } else { index }
}

/// The revision and limits of configuration `index`.
pub(crate) fn configuration(index: usize) -> (Revision, Limits) {
    let index = index % CONFIGURATIONS;
    let revisions = Revision::ALL.len();
    let revision = Revision::ALL.get(index % revisions).copied().unwrap_or_default();
    let limits = LIMITS.get(index / revisions % LIMITS.len()).copied().unwrap_or_default();
    (revision, limits)
}

/// The payload spans of every message of an outcome, in order.
pub(crate) fn spans(input: &[u8], outcome: &Parsed<'_>) -> Vec<Option<Range<usize>>> {
    let of = |m: &Message<'_>| m.payload().and_then(|p| p.span_in(input));
    match outcome {
        Ok(Envelope::Single(m)) => std::vec![of(m)],
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
/// `context` is only formatted on failure: it costs nothing on a pass.
pub(crate) fn assert_same(
    input: &[u8],
    context: &dyn core::fmt::Display,
    a: (&str, &Parsed<'_>),
    b: (&str, &Parsed<'_>),
) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_reach_every_configuration() {
        // Twelve consecutive short lengths with the same last byte cover all twelve.
        let reached: std::collections::BTreeSet<usize> =
            (1..=CONFIGURATIONS).map(|len| configuration_index(&std::vec![b'{'; len])).collect();
        assert_eq!(reached.len(), CONFIGURATIONS);
        let distinct: Vec<(Revision, Limits)> = (0..CONFIGURATIONS).map(configuration).collect();
        assert!(distinct.iter().enumerate().all(|(i, c)| !distinct[..i].contains(c)), "{distinct:?}");
        // Changing only the last byte moves an input too.
        let a = configuration_index(br#"{"jsonrpc":"2.0"}"#);
        let b = configuration_index(br#"{"jsonrpc":"2.0"]"#);
        assert_ne!(a, b);
        // Past the small size limit, only the default limits are chosen.
        for len in 513..600 {
            assert_eq!(configuration(configuration_index(&std::vec![b' '; len])).1, Limits::new(), "{len}");
        }
    }
}

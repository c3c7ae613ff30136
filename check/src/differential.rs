//! The backends against each other and against the reference backend.

use core::cell::RefCell;
use std::vec::Vec;

use crate::{CONFIGURATIONS, assert_same, configuration, configuration_index};
use mcp_envelope::Limits;
use mcp_envelope::Parser;
use mcp_envelope::Revision;
use mcp_envelope::backend::{Backend, Reference, SerdeJson, SimdJson};
use mcp_envelope::internal;

/// Parsers kept across inputs, as a server keeps them, so that state left
/// over from one message cannot change the verdict on the next unseen.
struct Warm {
    serde: Vec<Parser<SerdeJson>>,
    simd: Vec<Parser<SimdJson>>,
    /// simd-json reading every batch over 16 bytes in chunks, so that the
    /// short inputs a fuzzer makes take that path too.
    simd_chunked: Vec<Parser<SimdJson>>,
}

/// Batches longer than this go to simd-json in chunks in `simd_chunked`.
const FUZZ_CHUNK_LEN: usize = 16;

/// A parser for each configuration, in the order of [`configuration`].
fn all<B: Backend>(parser: impl Fn(Revision) -> Parser<B>) -> Vec<Parser<B>> {
    (0..CONFIGURATIONS)
        .map(|index| {
            let (revision, limits) = configuration(index);
            parser(revision).with_limits(limits)
        })
        .collect()
}

/// The configuration, as a failure names it.
struct Configuration(Revision, Limits);

impl core::fmt::Display for Configuration {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}, {:?}", self.0, self.1)
    }
}

std::thread_local! {
    static WARM: RefCell<Option<Warm>> = const { RefCell::new(None) };
}

/// Under the revision and limits the input selects, warm serde_json and
/// simd-json parsers and a fresh core scanner give the same verdict,
/// envelope, ids, methods, payload spans, error code, reason and offset.
pub fn differential(input: &[u8]) {
    differential_under(input, configuration_index(input));
}

/// [`differential`] under configuration `index` (any number; taken modulo
/// [`CONFIGURATIONS`]).
pub fn differential_under(input: &[u8], index: usize) {
    let index = index % CONFIGURATIONS;
    WARM.with(|warm| {
        let mut warm = warm.borrow_mut();
        let warm = warm.get_or_insert_with(|| Warm {
            serde: all(Parser::<SerdeJson>::with_backend),
            simd: all(Parser::<SimdJson>::with_backend),
            simd_chunked: all(|revision| internal::simd_json_parser_chunked(revision, FUZZ_CHUNK_LEN)),
        });
        // Each configuration's warm parsers live on between the inputs that
        // select it, so state one input leaves behind meets the next.
        let (Some(serde), Some(simd), Some(simd_chunked)) =
            (warm.serde.get_mut(index), warm.simd.get_mut(index), warm.simd_chunked.get_mut(index))
        else {
            return;
        };
        let (revision, limits): (Revision, Limits) = (serde.revision(), serde.limits());
        let context = Configuration(revision, limits);
        let a = serde.parse(input);
        let b = simd.parse(input);
        let c = simd_chunked.parse(input);
        let reference = Parser::<Reference>::with_backend(revision).with_limits(limits).parse(input);
        assert_same(input, &context, ("serde", &a), ("simd", &b));
        assert_same(input, &context, ("serde", &a), ("simd in chunks", &c));
        assert_same(input, &context, ("serde", &a), ("reference", &reference));
    });
}
